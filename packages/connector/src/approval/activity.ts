import type { AuditRow } from './audit.js'
import type { ActivityRow } from '../pages/activity-page.js'

/**
 * A person's activity (`/activity`; docs/design.md, "The person's pages"): the changes their
 * assistants asked for and what became of each, read from the audit trail (never a payload). Each
 * change is one approval: its decision (approved, declined, or expired unanswered) and, once
 * approved, its outcome at the provider: made (with the provider's status), failed, or never used.
 */

/** One change, as the activity page shows it, before its names are looked up. */
export interface ActivityEntry extends Pick<
  ActivityRow,
  'at' | 'decision' | 'outcome' | 'upstreamStatus'
> {
  clientId: string | null
  /** The connection it was asked under (ended since, maybe). */
  grantId: string
  service: string | null
  tool: string
}

/** The entries of a person's events (newest first): one per approval, newest first. */
export function activityOf(events: readonly AuditRow[]): ActivityEntry[] {
  const byApproval = new Map<string, AuditRow[]>()
  for (const event of events) {
    if (event.approval_id === null) continue
    const group = byApproval.get(event.approval_id) ?? []
    group.push(event)
    byApproval.set(event.approval_id, group)
  }
  const entries: ActivityEntry[] = []
  for (const group of byApproval.values()) {
    const of = (decision: string) => group.find((event) => event.decision === decision)
    const decided = of('declined') ?? of('approved') ?? of('expired')
    if (!decided) continue
    const entry: ActivityEntry = {
      at: Number(decided.at),
      clientId: decided.client_id,
      grantId: decided.grant_id,
      service: decided.service,
      tool: decided.tool,
      decision: decided.decision as ActivityEntry['decision'],
    }
    if (entry.decision === 'approved') {
      const sent = of('executed') ?? of('failed')
      entry.outcome = sent
        ? sent.decision === 'executed'
          ? 'made'
          : 'failed'
        : of('expired')
          ? 'unused'
          : 'not yet'
      if (sent?.upstream_status != null) entry.upstreamStatus = sent.upstream_status
    }
    entries.push(entry)
  }
  return entries.sort((a, b) => b.at - a.at)
}
