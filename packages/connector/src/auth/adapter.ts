import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider'
import type { Store } from '../store/open.js'
import type { ConnectorDatabase } from '../store/schema.js'
import { hashClientSecret } from './client-secrets.js'

/**
 * oidc-provider's storage over the connector's store: one table (`oauth_records`) for every model,
 * on SQLite and PostgreSQL alike. What a copy of the database gives away is kept small:
 *
 * - a record's id (for tokens and codes, the value a client presents), a session's uid and a
 *   user code are stored only as SHA-256 digests, so a lookup hashes what it is given; a token's
 *   `jti` is taken out of the stored payload and put back from the id on `find`;
 * - a confidential client's secret is stored as a digest (see client-secrets.ts);
 * - an interaction keeps only a digest of the session cookie it was started under.
 *
 * Single use (codes, rotated refresh tokens) is one conditional UPDATE, so it holds across
 * replicas: of two requests that present the same code at once, one consumes it and the other is
 * treated as a replay.
 */

export interface AdapterHooks {
  /**
   * A Grant record was destroyed: end what hangs off it. `replay` when it was a token request's
   * doing (a code or a refresh token used twice), not a revocation.
   */
  grantDestroyed(grantId: string, replay: boolean): Promise<void>
  /** A Grant record expired and was purged. */
  grantExpired(grantId: string): Promise<void>
}

export interface AdapterOptions {
  now?: () => number
  /** How often, at most, a replica sweeps expired records. */
  purgeIntervalMs?: number
}

export const digest = (value: string) => createHash('sha256').update(value).digest('base64url')

/** Models that are used once: a second use is a replay and ends the grant. */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode'])

const PURGE_BATCH = 500

/**
 * A refresh spent in a transaction leaves a mark, `UNCONFIRMED`, that the request removes once it
 * knows the transaction committed. A mark still there is a rotation whose commit the database's
 * departure cut off, committed or not: a retry with its refresh token within ROTATION_GRACE_MS is
 * then no replay (see #retriesLostRotation). A mark younger than CONFIRMING_MS may be a request
 * that is confirming right now: a second use then is told to try again in a moment
 * (RotationInDoubt), and is judged once the mark is gone (a replay) or has aged (a retry).
 */
const UNCONFIRMED = 'UnconfirmedRotation'
export const ROTATION_GRACE_MS = 60_000
const CONFIRMING_MS = 2_000

/** A refresh token whose last rotation is still being confirmed: answered 503, try again soon. */
export class RotationInDoubt extends Error {
  readonly retryAfterSeconds = Math.ceil(CONFIRMING_MS / 1000)
  constructor() {
    super('This refresh token’s last use is still being settled: try again in a moment.')
  }
}

/**
 * A token request under way (token-transactions.ts): its records are written in one transaction
 * (`db`, on PostgreSQL) that commits only with its answer, so a failure halfway spends nothing.
 */
interface TokenRequest {
  db?: Kysely<ConnectorDatabase>
  /** With `db`: the refresh tokens it spent (their digests), marked until it commits. */
  spent?: string[]
  /**
   * With `db`: what the request's hooks would end (a replay's grant), run once it commits. Run
   * inside, they would wait on the rows the transaction holds, and it on them.
   */
  afterCommit?: (() => Promise<void>)[]
}

const tokenRequests = new AsyncLocalStorage<TokenRequest>()

/** A hook now, or once the token request's transaction commits. */
async function hook(run: () => Promise<void>): Promise<void> {
  const deferred = tokenRequests.getStore()?.afterCommit
  if (deferred) deferred.push(run)
  else await run()
}

/** Runs `serve` as a token request, its records written through `db` when given. */
export const asTokenRequest = <T>(request: TokenRequest, serve: () => Promise<T>) =>
  tokenRequests.run(request, serve)

/** After its transaction committed: the marks of the request's spent refresh tokens go. */
export async function confirmRotations(store: Store, spent: readonly string[]): Promise<void> {
  if (!spent.length) return
  await store.db
    .deleteFrom('oauth_records')
    .where('kind', '=', UNCONFIRMED)
    .where('id', 'in', spent)
    .execute()
}

/** The adapter factory oidc-provider's `adapter` option takes: one adapter per model name. */
export function storeAdapter(store: Store, hooks: AdapterHooks, options: AdapterOptions = {}) {
  const shared = new AdapterState(store, hooks, options)
  return (kind: string): Adapter => new StoreAdapter(kind, shared)
}

/** What the adapters of one provider share: the store, the hooks, the purge schedule. */
class AdapterState {
  readonly now: () => number
  readonly #purgeIntervalMs: number
  #lastPurge = 0

  constructor(
    readonly store: Store,
    readonly hooks: AdapterHooks,
    options: AdapterOptions,
  ) {
    this.now = options.now ?? Date.now
    this.#purgeIntervalMs = options.purgeIntervalMs ?? 60_000
  }

  /**
   * Expired records are deleted now and then, by whichever replica writes next: there is no
   * scheduler to run, and a record past its expiry is refused by oidc-provider anyway. An
   * expired grant is ended through the hook, which also releases its upstream credential.
   */
  purgeSoon() {
    const now = this.now()
    if (now - this.#lastPurge < this.#purgeIntervalMs) return
    this.#lastPurge = now
    void this.purge(now).catch(() => {
      // A failed sweep is retried by the next one; nothing depends on it.
    })
  }

  async purge(now = this.now()): Promise<void> {
    const expiredGrants = await this.store.db
      .selectFrom('oauth_records')
      .select('grant_id')
      .where('kind', '=', 'Grant')
      .where('expires_at', '<', now)
      .limit(PURGE_BATCH)
      .execute()
    for (const { grant_id } of expiredGrants) {
      if (grant_id) await this.hooks.grantExpired(grant_id)
    }
    await this.store.db
      .deleteFrom('oauth_records')
      .where('expires_at', '<', now)
      .where('kind', '!=', 'Grant')
      .execute()
  }
}

class StoreAdapter implements Adapter {
  constructor(
    private readonly kind: string,
    private readonly state: AdapterState,
  ) {}

  private get db() {
    return tokenRequests.getStore()?.db ?? this.state.store.db
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const stored = this.storable(payload)
    const grantId =
      this.kind === 'Grant' ? id : typeof payload.grantId === 'string' ? payload.grantId : null
    const row = {
      grant_id: grantId,
      uid: typeof payload.uid === 'string' ? digest(payload.uid) : null,
      user_code: typeof payload.userCode === 'string' ? digest(payload.userCode) : null,
      payload: JSON.stringify(stored),
      expires_at: typeof expiresIn === 'number' ? this.state.now() + expiresIn * 1000 : null,
    }
    await this.db
      .insertInto('oauth_records')
      .values({ kind: this.kind, id: digest(id), consumed_at: null, ...row })
      .onConflict((conflict) => conflict.columns(['kind', 'id']).doUpdateSet(row))
      .execute()
    this.state.purgeSoon()
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at', 'grant_id'])
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .executeTakeFirst()
    if (!row) return undefined
    if (row.consumed_at !== null && (await this.#retriesLostRotation(id, row)))
      return this.restore({ ...row, consumed_at: null }, id)
    return this.restore(row, id)
  }

  /** A refresh token spent in a token request's transaction: marked until it commits. */
  async #markUnconfirmed(id: string, now: number): Promise<void> {
    const request = tokenRequests.getStore()
    if (this.kind !== 'RefreshToken' || !request?.spent) return
    await this.db
      .insertInto('oauth_records')
      .values(bareRecord(UNCONFIRMED, id, now + ROTATION_GRACE_MS))
      .onConflict((conflict) =>
        conflict.columns(['kind', 'id']).doUpdateSet({ expires_at: now + ROTATION_GRACE_MS }),
      )
      .execute()
    request.spent.push(digest(id))
  }

  /**
   * A spent refresh token presented again is a replay, which ends the grant, unless its spending
   * may never have reached the client: its rotation's commit was cut off by the database's
   * departure (its mark is still there, and older than CONFIRMING_MS), within ROTATION_GRACE_MS,
   * and the refresh token it was spent for was never used. That is a client retrying after our
   * own failure: the token is made unspent again, its unused successor dropped, and the refresh
   * goes on as the first would have.
   */
  async #retriesLostRotation(
    id: string,
    row: { payload: string; consumed_at: number | null; grant_id: string | null },
  ): Promise<boolean> {
    if (this.kind !== 'RefreshToken' || !tokenRequests.getStore() || row.grant_id === null)
      return false
    const now = this.state.now()
    const mark = await this.db
      .selectFrom('oauth_records')
      .select('expires_at')
      .where('kind', '=', UNCONFIRMED)
      .where('id', '=', digest(id))
      .executeTakeFirst()
    if (!mark) return false
    const markedAt = (mark.expires_at ?? 0) - ROTATION_GRACE_MS
    if (now >= markedAt + ROTATION_GRACE_MS) return false
    if (now < markedAt + CONFIRMING_MS) throw new RotationInDoubt()
    const rotations = (JSON.parse(row.payload) as { rotations?: number }).rotations ?? 0
    const chain = await this.db
      .selectFrom('oauth_records')
      .select(['id', 'payload'])
      .where('kind', '=', 'RefreshToken')
      .where('grant_id', '=', row.grant_id)
      .where('consumed_at', 'is', null)
      .execute()
    const unused = chain.filter((other) => other.id !== digest(id))
    // The chain went on (its successor was used), or is not this token's: a replay.
    if (unused.length > 1) return false
    const successor = unused[0]
    if (successor) {
      const next = (JSON.parse(successor.payload) as { rotations?: number }).rotations ?? 0
      if (next !== rotations + 1) return false
      await this.db
        .deleteFrom('oauth_records')
        .where('kind', '=', 'RefreshToken')
        .where('id', '=', successor.id)
        .where('consumed_at', 'is', null)
        .execute()
    }
    const unspent = await this.db
      .updateTable('oauth_records')
      .set({ consumed_at: null })
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .where('consumed_at', '=', row.consumed_at)
      .executeTakeFirst()
    if (unspent.numUpdatedRows === 0n) return false
    await this.db
      .deleteFrom('oauth_records')
      .where('kind', '=', UNCONFIRMED)
      .where('id', '=', digest(id))
      .execute()
    return true
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('uid', '=', digest(uid))
      .executeTakeFirst()
    // Only the digest of the id is known here: the record comes back without its `jti`, which is
    // how oidc-provider reads it (a session found by uid is checked, never saved).
    return row ? this.restore(row) : undefined
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('user_code', '=', digest(userCode))
      .executeTakeFirst()
    return row ? this.restore(row) : undefined
  }

  /**
   * Marks a single-use record used. oidc-provider checks `consumed` before calling this, but two
   * replicas can both pass that check; the conditional update lets exactly one through, and the
   * other is answered as the replay it is: the grant ends and the request gets invalid_grant.
   */
  async consume(id: string): Promise<void> {
    const now = this.state.now()
    const result = await this.db
      .updateTable('oauth_records')
      .set({ consumed_at: now })
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .where('consumed_at', 'is', null)
      .executeTakeFirst()
    if (result.numUpdatedRows > 0n) return this.#markUnconfirmed(id, now)
    if (!SINGLE_USE.has(this.kind)) return
    const row = await this.db
      .selectFrom('oauth_records')
      .select('grant_id')
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .executeTakeFirst()
    if (!row) return
    const grantId = row.grant_id
    if (grantId) await hook(() => this.state.hooks.grantDestroyed(grantId, true))
    throw Object.assign(new errors.InvalidGrant(), {
      error_description: `${this.kind === 'RefreshToken' ? 'refresh token' : 'code'} already used`,
    })
  }

  async destroy(id: string): Promise<void> {
    await this.db
      .deleteFrom('oauth_records')
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .execute()
    if (this.kind === 'Grant') {
      const replay = tokenRequests.getStore() !== undefined
      await hook(() => this.state.hooks.grantDestroyed(id, replay))
    }
  }

  /** Every record issued under the grant, of every kind, the grant itself included. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute()
  }

  /** The payload as stored: no id, the client secret and the session cookie digested. */
  private storable(payload: AdapterPayload): AdapterPayload {
    const { jti: _jti, ...rest } = payload
    if (this.kind === 'Client' && typeof rest.client_secret === 'string') {
      rest.client_secret = hashClientSecret(rest.client_secret)
    }
    if (this.kind === 'Interaction' && isRecord(rest.session)) {
      const { cookie, ...session } = rest.session
      rest.session = typeof cookie === 'string' ? { ...session, cookie: digest(cookie) } : session
    }
    return rest
  }

  private restore(
    row: { payload: string; consumed_at: number | null },
    id?: string,
  ): AdapterPayload {
    const payload = JSON.parse(row.payload) as AdapterPayload
    if (id !== undefined && this.kind !== 'Client') payload.jti = id
    if (row.consumed_at !== null) payload.consumed = Math.floor(row.consumed_at / 1000)
    return payload
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Writes a record that must be new (a client assertion's `jti`): true when this call wrote it,
 * false when it was there already. One conditional insert, so of two replicas presenting the same
 * value at once exactly one gets true. `expiresAt` is epoch milliseconds.
 */
export async function claimRecordOnce(
  store: Store,
  kind: string,
  id: string,
  expiresAt: number,
): Promise<boolean> {
  const result = await store.db
    .insertInto('oauth_records')
    .values(bareRecord(kind, id, expiresAt))
    .onConflict((conflict) => conflict.columns(['kind', 'id']).doNothing())
    .executeTakeFirst()
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
}

/** A record that is only its presence: the digest of `id`, under `kind`, until `expiresAt`. */
const bareRecord = (kind: string, id: string, expiresAt: number) => ({
  kind,
  id: digest(id),
  grant_id: null,
  uid: null,
  user_code: null,
  consumed_at: null,
  payload: '{}',
  expires_at: expiresAt,
})

/** For the store's own maintenance and tests: sweep expired records now. */
export async function purgeExpiredRecords(store: Store, hooks: AdapterHooks, now = Date.now()) {
  await new AdapterState(store, hooks, {}).purge(now)
}
