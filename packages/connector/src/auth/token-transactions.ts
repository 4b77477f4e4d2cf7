import type { Provider } from 'oidc-provider'
import type { Store } from '../store/open.js'
import { isStoreUnreachable, againIfConnectionLost } from '../store/unreachable.js'
import { asTokenRequest, confirmRotations } from './adapter.js'

/**
 * A token request's records in one transaction with its answer, on PostgreSQL. A refresh spends
 * the refresh token it presents (consume), then writes the next one and the access token: should
 * the database go away between the two, the client would hold a spent token and no new one, and
 * its next refresh would be taken for a replay that ends the grant. In one transaction, a request
 * that cannot finish writes nothing and is answered 503; the client refreshes again with the
 * same token once the database is back. What the request ends (a replay's grant, through the
 * adapter's hooks) is ended once the transaction commits, on the store's own connections: inside
 * it, ending would wait for the rows the transaction holds.
 *
 * On SQLite the store is a file of this process, which does not go away: the request only marks
 * itself a token request (for the adapter to tell a replay from a revocation).
 */
export function tokenRequestsInOneTransaction(provider: Provider, store: Store, path: string) {
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== path) return next()
    if (store.engine !== 'postgres') return asTokenRequest({}, next)
    let trx
    try {
      trx = await againIfConnectionLost(() => store.db.startTransaction().execute())
    } catch (error) {
      if (!isStoreUnreachable(error)) throw error
      ctx.state.storeAway = error
      ctx.body = {}
      return
    }
    const afterCommit: (() => Promise<void>)[] = []
    const spent: string[] = []
    try {
      await asTokenRequest({ db: trx, afterCommit, spent }, next)
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => {})
      throw error
    }
    if (ctx.status >= 500 || ctx.state.storeAway) {
      await trx
        .rollback()
        .execute()
        .catch(() => {})
      return
    }
    try {
      await trx.commit().execute()
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => {})
      if (!isStoreUnreachable(error)) throw error
      ctx.state.storeAway = error
      return
    }
    // Committed: the rotation is no longer in doubt (adapter.ts). Should the database go now,
    // the mark expires with its grace; the answer goes all the same.
    await confirmRotations(store, spent).catch(() => {})
    // A replay's grant ends before the answer goes, as outside a transaction.
    for (const run of afterCommit) await run()
  })
}
