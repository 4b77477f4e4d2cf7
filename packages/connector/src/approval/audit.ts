import { randomUUID } from 'node:crypto'
import type { Store } from '../store/open.js'

/**
 * The audit trail of changes asked for through the connector: when, which grant, which tool,
 * what was decided and, once a change was sent, the provider's HTTP status. Never a payload: no
 * arguments, no description, no result (DESIGN §5 "What is kept").
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
}

export class AuditTrail {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async record(event: AuditEvent): Promise<void> {
    await this.store.db
      .insertInto('audit_events')
      .values({
        id: randomUUID(),
        at: this.now(),
        grant_id: event.grantId,
        tool: event.tool,
        decision: event.decision,
        upstream_status: event.upstreamStatus ?? null,
      })
      .execute()
  }
}
