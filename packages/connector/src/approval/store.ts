import type { Selectable } from 'kysely'
import type { Store } from '../store/open.js'
import type { ApprovalTable } from '../store/schema.js'

/**
 * The approvals table. Every change of state is one conditional UPDATE, so that of two replicas
 * acting on one approval at once exactly one succeeds: a decision only WHERE it is still pending,
 * a use only WHERE it is approved and unused, an expiry only WHERE it was neither decided nor used.
 */

export type ApprovalRow = Selectable<ApprovalTable>

/** An approval with the grant it belongs to, as the page and the decisions need it. */
export interface ApprovalWithGrant extends ApprovalRow {
  /** The grant's person (their subject at the provider); null once the grant has ended. */
  account: string | null
  client_id: string | null
  service: string | null
}

/** How long a row is kept after it expires: a call coming back within it is told why. */
export const KEPT_AFTER_EXPIRY_MS = 60 * 60_000

export class ApprovalStore {
  constructor(private readonly store: Store) {}

  /** Approvals with the person, assistant and service of their grant (none once it ended). */
  #withGrant() {
    return this.store.db
      .selectFrom('approvals')
      .leftJoin('grant_links', 'grant_links.grant_id', 'approvals.grant_id')
      .selectAll('approvals')
      .select(['grant_links.account', 'grant_links.client_id', 'grant_links.service'])
  }

  async insert(row: ApprovalRow): Promise<void> {
    await this.store.db.insertInto('approvals').values(row).execute()
  }

  /** The approval with this key, with its grant (read from the grant links). */
  async byKey(key: string): Promise<ApprovalWithGrant | undefined> {
    return this.#withGrant().where('approvals.id', '=', key).executeTakeFirst()
  }

  /** A person's approvals still waiting for them (undecided, unexpired), oldest first. */
  async pendingOfPerson(account: string, now: number): Promise<ApprovalWithGrant[]> {
    return this.#withGrant()
      .where('grant_links.account', '=', account)
      .where('approvals.status', '=', 'pending')
      .where('approvals.expires_at', '>', now)
      .orderBy('approvals.created_at')
      .orderBy('approvals.id')
      .execute()
  }

  /** Every approval of one call (any of its digests), newest first. */
  async ofCall(grantId: string, tool: string, digests: string[]): Promise<ApprovalRow[]> {
    return this.store.db
      .selectFrom('approvals')
      .selectAll()
      .where('grant_id', '=', grantId)
      .where('tool', '=', tool)
      .where('args_digest', 'in', digests)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute()
  }

  /** Whether the grant has an approved, unused, unexpired call of this tool with other arguments. */
  async approvedWithOtherArguments(
    grantId: string,
    tool: string,
    digests: string[],
    now: number,
  ): Promise<boolean> {
    const row = await this.store.db
      .selectFrom('approvals')
      .select('id')
      .where('grant_id', '=', grantId)
      .where('tool', '=', tool)
      .where('args_digest', 'not in', digests)
      .where('status', '=', 'approved')
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    return row !== undefined
  }

  /**
   * Records the person's decision if the approval is still pending and unexpired; the call and
   * the id are erased, and the etag too when declined. `told`: the caller tells the decision to
   * the call right away (an answer given in the client), so it counts as used, and the etag,
   * handed to that call, is erased too. Whether this decided it.
   */
  async decide(
    key: string,
    status: 'approved' | 'declined',
    now: number,
    told = false,
  ): Promise<boolean> {
    const result = await this.store.db
      .updateTable('approvals')
      .set({
        status,
        decided_at: now,
        sealed_id: null,
        sealed_call: null,
        ...(status === 'declined' || told ? { sealed_if_match: null } : {}),
        ...(told ? { used_at: now } : {}),
      })
      .where('id', '=', key)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst()
    return result.numUpdatedRows === 1n
  }

  /**
   * Uses a decision, once: an approved approval (unexpired) lets one call go; a decline is told
   * to one call. Whether this call is the one that used it.
   */
  async use(
    key: string,
    now: number,
    status: 'approved' | 'declined' = 'approved',
  ): Promise<boolean> {
    let update = this.store.db
      .updateTable('approvals')
      .set({ used_at: now, sealed_if_match: null })
      .where('id', '=', key)
      .where('status', '=', status)
      .where('used_at', 'is', null)
    if (status === 'approved') update = update.where('expires_at', '>', now)
    const result = await update.executeTakeFirst()
    return result.numUpdatedRows === 1n
  }

  /**
   * Expires what ran out (undecided, or approved and unused), erasing what was sealed, and
   * returns those approvals, each once whichever replica gets there first; forgets rows expired
   * for longer than KEPT_AFTER_EXPIRY_MS.
   */
  async expire(now: number): Promise<{ id: string; grant_id: string; tool: string }[]> {
    const expired = await this.store.db
      .updateTable('approvals')
      .set({ status: 'expired', sealed_id: null, sealed_call: null, sealed_if_match: null })
      .where('expires_at', '<=', now)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'approved'), eb('used_at', 'is', null)]),
        ]),
      )
      .returning(['id', 'grant_id', 'tool'])
      .execute()
    await this.store.db
      .deleteFrom('approvals')
      .where('expires_at', '<=', now - KEPT_AFTER_EXPIRY_MS)
      .execute()
    return expired
  }
}
