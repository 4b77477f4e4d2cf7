import type { Logger } from 'pino'
import type { ServiceName } from '../services/catalog.js'
import type { Store } from '../store/open.js'
import { digest } from './adapter.js'
import type { Grants } from './grants.js'

/**
 * A person choosing what a new grant will cover, between their sign-in at the provider and their
 * choice on the connector's page: which credential the provider gave, for whom, for which
 * service, with which scopes. Kept by the authorization's interaction (its uid digested), taken
 * once when they choose, and forgotten with its credential if they never do.
 */

export interface PendingChoice {
  interactionUid: string
  credentialId: string
  /** The person: their subject at the provider. */
  account: string
  service: ServiceName
  /** The short scope names the provider granted. */
  scopes: string[]
  /** The largest form the choice's page could post, once drawn (0 before). */
  formBytes?: number
}

/** As long as the interaction it belongs to can still be finished. */
export const CHOICE_TTL_MS = 30 * 60_000
/** Expired choices are swept at most this often, by whichever replica records one. */
const SWEEP_EVERY_MS = 60_000

export class GrantChoices {
  #lastSweep = 0

  constructor(
    private readonly store: Store,
    private readonly grants: Pick<Grants, 'releaseCredential'>,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a choice to make; one for the same authorization replaces it. */
  async begin(choice: PendingChoice): Promise<void> {
    const row = {
      credential_id: choice.credentialId,
      account: choice.account,
      service: choice.service,
      scopes: choice.scopes.join(' '),
      form_bytes: 0,
      expires_at: this.now() + CHOICE_TTL_MS,
    }
    await this.store.db
      .insertInto('grant_choices')
      .values({ interaction_hash: digest(choice.interactionUid), ...row })
      .onConflict((conflict) => conflict.column('interaction_hash').doUpdateSet(row))
      .execute()
    this.#sweepSoon()
  }

  /** The choice still to make in this authorization; undefined when there is none (or expired). */
  async find(interactionUid: string): Promise<PendingChoice | undefined> {
    const row = await this.store.db
      .selectFrom('grant_choices')
      .selectAll()
      .where('interaction_hash', '=', digest(interactionUid))
      .where('expires_at', '>', this.now())
      .executeTakeFirst()
    return (
      row && {
        interactionUid,
        credentialId: row.credential_id,
        account: row.account,
        service: row.service as ServiceName,
        scopes: row.scopes.split(' ').filter(Boolean),
        formBytes: row.form_bytes,
      }
    )
  }

  /** The page was drawn: its form may be this large, and no larger. */
  async drawn(interactionUid: string, formBytes: number): Promise<void> {
    await this.store.db
      .updateTable('grant_choices')
      .set({ form_bytes: formBytes })
      .where('interaction_hash', '=', digest(interactionUid))
      .execute()
  }

  /** Takes the choice, once: of two posts of the same page, one makes the grant. */
  async take(interactionUid: string): Promise<boolean> {
    const result = await this.store.db
      .deleteFrom('grant_choices')
      .where('interaction_hash', '=', digest(interactionUid))
      .where('expires_at', '>', this.now())
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  /** Forgets a choice the person declined, and releases its credential. */
  async abandon(choice: PendingChoice): Promise<void> {
    if (await this.take(choice.interactionUid))
      await this.grants.releaseCredential(choice.credentialId, 'authorization abandoned')
  }

  /** Choices never made: their credentials are revoked and erased, unless a grant took them. */
  async sweep(now = this.now()): Promise<void> {
    const expired = await this.store.db
      .deleteFrom('grant_choices')
      .where('expires_at', '<=', now)
      .returning('credential_id')
      .execute()
    for (const { credential_id } of expired)
      await this.grants.releaseCredential(credential_id, 'authorization abandoned')
  }

  #sweepSoon() {
    const now = this.now()
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return
    this.#lastSweep = now
    void this.sweep(now).catch((error: unknown) => {
      // Retried by the next sweep; an expired choice can no longer be taken meanwhile.
      this.log.warn({ err: error }, 'could not sweep expired grant choices')
    })
  }
}
