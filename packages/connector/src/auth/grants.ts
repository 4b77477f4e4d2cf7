import type { Selectable } from 'kysely'
import type { Logger } from 'pino'
import type { ServiceName } from '../services/catalog.js'
import type { Store } from '../store/open.js'
import type { GrantLinkTable } from '../store/schema.js'
import type { StoredCoverage } from './coverage.js'

/**
 * The grants of the connector's authorization server and the upstream credentials they act with.
 *
 * A grant is one person's permission for one client at one service. oidc-provider keeps the grant
 * and its codes and tokens (in `oauth_records`); this keeps which upstream credential the grant
 * uses (`grant_links`). Ending a grant - whichever way it ends - goes through `end`, the one place
 * that destroys its records, revokes its upstream credential at the provider and erases it.
 */

export interface GrantLink {
  grantId: string
  credentialId: string
  /** The person (their subject at the provider): the grant's accountId. */
  account: string
  clientId: string
  service: ServiceName
  createdAt: number
  /** What it covers, as stored: null for every one, else the chosen ids sealed (coverage.ts). */
  coverage: string | null
  /** Where its authorization sent the person back (`localhost:54321`); null for older grants. */
  returnsTo: string | null
}

/** What ending a grant needs from the upstream client. */
export interface UpstreamCredentialEraser {
  revokeAndErase(credentialId: string): Promise<void>
}

export type GrantEndReason =
  | 'revoked by the client'
  | 'replaced by a new authorization'
  | 'replay detected'
  | 'expired'
  | 'credential revoked at the provider'
  | 'authorization abandoned'
  | 'disconnected by the person'

export class Grants {
  constructor(
    private readonly store: Store,
    private readonly upstream: UpstreamCredentialEraser,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Links a new grant to its credential, covering what `coverage` says (every one unless told). */
  async link(
    link: Omit<GrantLink, 'createdAt' | 'coverage' | 'returnsTo'> & { returnsTo?: string },
    coverage: StoredCoverage = EVERY_ONE_STORED,
  ): Promise<void> {
    await this.store.db
      .insertInto('grant_links')
      .values({
        grant_id: link.grantId,
        credential_id: link.credentialId,
        account: link.account,
        client_id: link.clientId,
        service: link.service,
        created_at: this.now(),
        returns_to: link.returnsTo ?? null,
        ...coverage,
      })
      .execute()
  }

  /**
   * Sets what a grant covers; with `current`, only if it still covers what `current` stored
   * (another change since is newer): whether it was set.
   */
  async cover(grantId: string, next: StoredCoverage, current?: string | null): Promise<boolean> {
    let update = this.store.db.updateTable('grant_links').set(next).where('grant_id', '=', grantId)
    if (current !== undefined)
      update =
        current === null
          ? update.where('coverage', 'is', null)
          : update.where('coverage', '=', current)
    const result = await update.executeTakeFirst()
    return result.numUpdatedRows > 0n
  }

  async linkOf(grantId: string): Promise<GrantLink | undefined> {
    const row = await this.store.db
      .selectFrom('grant_links')
      .selectAll()
      .where('grant_id', '=', grantId)
      .executeTakeFirst()
    return row && toLink(row)
  }

  /** The person's grants for one client at one service (one, unless a replacement is under way). */
  async linksOf(owner: { account: string; clientId: string; service: ServiceName }) {
    const rows = await this.store.db
      .selectFrom('grant_links')
      .selectAll()
      .where('account', '=', owner.account)
      .where('client_id', '=', owner.clientId)
      .where('service', '=', owner.service)
      .orderBy('created_at', 'desc')
      .execute()
    return rows.map(toLink)
  }

  /**
   * How many people hold a grant of `service`, whatever the clients, and how many of them made
   * one since `since` (epoch ms): fair shares divide by the first (src/quotas/fair-shares.ts).
   */
  async peopleHolding(
    service: ServiceName,
    since: number,
  ): Promise<{ people: number; recent: number }> {
    const row = await this.store.db
      .selectFrom('grant_links')
      .select((eb) => [
        eb.fn.count<number | string>('account').distinct().as('people'),
        eb.fn
          .count<number | string>(
            eb.case().when('created_at', '>=', since).then(eb.ref('account')).end(),
          )
          .distinct()
          .as('recent'),
      ])
      .where('service', '=', service)
      .executeTakeFirst()
    return { people: Number(row?.people ?? 0), recent: Number(row?.recent ?? 0) }
  }

  /** Every grant of one person, oldest first: what their connections page lists. */
  async linksOfAccount(account: string): Promise<GrantLink[]> {
    const rows = await this.store.db
      .selectFrom('grant_links')
      .selectAll()
      .where('account', '=', account)
      .orderBy('created_at')
      .orderBy('grant_id')
      .execute()
    return rows.map(toLink)
  }

  /**
   * Ends a grant: its link first (so that of two concurrent ends, one does the rest), then every
   * oauth record issued under it and every approval asked under it, then its upstream
   * credential, revoked at the provider and erased, and with the person's last grant, their
   * devices. Idempotent, and it never throws: what fails is logged, and the rest still happens.
   */
  async end(grantId: string, reason: GrantEndReason): Promise<void> {
    let link: GrantLink | undefined
    try {
      const row = await this.store.db
        .deleteFrom('grant_links')
        .where('grant_id', '=', grantId)
        .returningAll()
        .executeTakeFirst()
      link = row && toLink(row)
    } catch (error) {
      this.log.error({ err: error, reason }, 'could not remove a grant link')
    }
    try {
      await this.store.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute()
    } catch (error) {
      this.log.error({ err: error, reason }, 'could not delete the records of an ended grant')
    }
    try {
      // Changes waiting for approval under it, with their sealed arguments (src/approval).
      await this.store.db.deleteFrom('approvals').where('grant_id', '=', grantId).execute()
    } catch (error) {
      this.log.error({ err: error, reason }, 'could not delete the approvals of an ended grant')
    }
    if (!link) return
    await this.releaseCredential(link.credentialId, reason)
    await this.forgetDevicesOfFormer(link.account, reason)
    this.log.info({ service: link.service, client: link.clientId, reason }, 'grant ended')
  }

  /**
   * A person whose last grant ended has nothing left to be told of: the devices that showed
   * their notifications (src/push) are erased with their other rows.
   */
  private async forgetDevicesOfFormer(account: string, reason: GrantEndReason): Promise<void> {
    try {
      const holds = await this.store.db
        .selectFrom('grant_links')
        .select('grant_id')
        .where('account', '=', account)
        .executeTakeFirst()
      if (!holds)
        await this.store.db.deleteFrom('push_devices').where('account', '=', account).execute()
    } catch (error) {
      this.log.error({ err: error, reason }, 'could not erase the devices of a former person')
    }
  }

  /** The provider revoked a credential: every grant that acts with it ends. */
  async endGrantsOfCredential(credentialId: string): Promise<number> {
    const rows = await this.store.db
      .selectFrom('grant_links')
      .select('grant_id')
      .where('credential_id', '=', credentialId)
      .execute()
    for (const { grant_id } of rows) await this.end(grant_id, 'credential revoked at the provider')
    // Erased by the upstream client already; this makes sure, whether or not a grant used it.
    await this.releaseCredential(credentialId, 'credential revoked at the provider')
    return rows.length
  }

  /** Revokes and erases a credential no remaining grant uses. */
  async releaseCredential(credentialId: string, reason: GrantEndReason): Promise<void> {
    try {
      const stillUsed = await this.store.db
        .selectFrom('grant_links')
        .select('grant_id')
        .where('credential_id', '=', credentialId)
        .executeTakeFirst()
      if (stillUsed) return
      await this.upstream.revokeAndErase(credentialId)
    } catch (error) {
      this.log.error({ err: error, reason }, 'could not revoke and erase an upstream credential')
    }
  }
}

/** A grant link as its row holds it. */
export function toLink(row: Selectable<GrantLinkTable>): GrantLink {
  return {
    grantId: row.grant_id,
    credentialId: row.credential_id,
    account: row.account,
    clientId: row.client_id,
    service: row.service as ServiceName,
    createdAt: row.created_at,
    coverage: row.coverage,
    returnsTo: row.returns_to,
  }
}

const EVERY_ONE_STORED: StoredCoverage = { coverage: null, coverage_key_id: null }
