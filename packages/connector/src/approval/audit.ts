import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../config/config.js'
import type { Store } from '../store/open.js'
import type { AuditEventTable } from '../store/schema.js'
import { isStoreUnreachable } from '../store/unreachable.js'

/**
 * The audit trail of changes asked for through the connector: when, which grant (and whose: the
 * person, the assistant and the service, kept with each event, as the grant's link ends with the
 * grant), which tool, which approval, what was decided and, once a change was sent, the provider's
 * HTTP status. Never a payload: no arguments, no description, no result (docs/design.md, "What is
 * kept"). Kept `retentionDays` (AUDIT_RETENTION_DAYS, 90 by default), then pruned.
 *
 * Who records what:
 * - the approval gate: 'approved' and 'declined' when the person decides; 'expired' once for each
 *   approval that ran out undecided, or approved and unused; 'replayed' when a call comes again
 *   with an approval already used; 'mismatch' when a call comes with other arguments than the
 *   approval waiting for the same grant and tool;
 * - whoever sends the approved change: 'executed' or 'failed', with the upstream status.
 */

export type AuditDecision =
  'approved' | 'declined' | 'expired' | 'replayed' | 'mismatch' | 'executed' | 'failed'

export interface AuditEvent {
  grantId: string
  tool: string
  decision: AuditDecision
  /** The provider's HTTP status, when a call was sent. */
  upstreamStatus?: number
  /** The approval's key (the digest of its page's id), when the event is about one. */
  approvalId?: string
}

export type AuditRow = Selectable<AuditEventTable>

/** Pruning runs at most this often in one process: the trail's age is counted in days. */
const PRUNE_EVERY_MS = 60 * 60_000

/** Events kept in memory while the database is away, at most; and how often they are tried. */
const MAX_KEPT_EVENTS = 10_000
const RETRY_KEPT_MS = 1000

export class AuditTrail {
  #lastPrune = Number.NEGATIVE_INFINITY
  /**
   * Events that met the database away, each with when it happened: written once it is back, so
   * that a change made meanwhile is still recorded as made (`/activity` reads them).
   */
  readonly #kept: { event: AuditEvent; at: number }[] = []
  #retrying: NodeJS.Timeout | undefined

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly retentionDays: number = DEFAULT_AUDIT_RETENTION_DAYS,
  ) {}

  /**
   * Records an event. While the database cannot be reached it is kept and written once it is
   * back (at the time it happened), and this resolves at once: the change it records was made
   * or refused whatever the trail says.
   */
  async record(event: AuditEvent): Promise<void> {
    const at = this.now()
    try {
      await this.#write(event, at)
    } catch (error) {
      if (!isStoreUnreachable(error)) throw error
      this.#keep(event, at)
      return
    }
    await this.#pruneSoon()
  }

  /** How many events wait for the database. */
  get waiting(): number {
    return this.#kept.length
  }

  /** Tries the waiting events once more now (at shutdown, say): those written are let go. */
  async flush(): Promise<void> {
    clearTimeout(this.#retrying)
    this.#retrying = undefined
    while (this.#kept.length) {
      const { event, at } = this.#kept[0]!
      try {
        await this.#write(event, at)
      } catch (error) {
        if (!isStoreUnreachable(error)) {
          // Not the database's absence: dropped, as a failed write always was.
          this.#kept.shift()
          continue
        }
        this.#retrySoon()
        return
      }
      this.#kept.shift()
    }
  }

  #keep(event: AuditEvent, at: number) {
    // Oldest first out when full: the bound keeps a long outage from holding memory for ever.
    if (this.#kept.length >= MAX_KEPT_EVENTS) this.#kept.shift()
    this.#kept.push({ event, at })
    this.#retrySoon()
  }

  #retrySoon() {
    this.#retrying ??= setTimeout(() => {
      this.#retrying = undefined
      void this.flush()
    }, RETRY_KEPT_MS).unref()
  }

  async #write(event: AuditEvent, at: number): Promise<void> {
    const { db } = this.store
    // Whose grant it is, read from its link in the same statement (null once it has ended).
    const ofLink = (column: 'account' | 'client_id' | 'service') =>
      db.selectFrom('grant_links').select(column).where('grant_id', '=', event.grantId)
    await db
      .insertInto('audit_events')
      .values({
        id: randomUUID(),
        at,
        grant_id: event.grantId,
        tool: event.tool,
        decision: event.decision,
        upstream_status: event.upstreamStatus ?? null,
        account: ofLink('account'),
        client_id: ofLink('client_id'),
        service: ofLink('service'),
        approval_id: event.approvalId ?? null,
      })
      .execute()
  }

  /** A person's events, newest first: at most `limit`. */
  ofPerson(account: string, limit: number): Promise<AuditRow[]> {
    return this.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('account', '=', account)
      .orderBy('at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute()
  }

  /** Deletes the events older than the retention. */
  async prune(now = this.now()): Promise<void> {
    this.#lastPrune = now
    const before = now - this.retentionDays * 24 * 60 * 60_000
    await this.store.db.deleteFrom('audit_events').where('at', '<', before).execute()
  }

  async #pruneSoon(): Promise<void> {
    const now = this.now()
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return
    try {
      await this.prune(now)
    } catch {
      // The event is recorded; the next one prunes again.
      this.#lastPrune = Number.NEGATIVE_INFINITY
    }
  }
}
