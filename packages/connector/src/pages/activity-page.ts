import type { Context } from 'hono'
import { html } from 'hono/html'
import { page, personLinks, time } from './page.js'

/**
 * `/activity`: what the signed-in person's assistants asked to change, newest first, and what
 * became of it, from the audit trail. No payloads: when, which assistant, which service, what
 * kind of change, the decision and the outcome at the provider (approval/activity.ts reads them).
 */

export const ACTIVITY_PATH = '/activity'

/** One change asked for, as the page shows it. */
export interface ActivityRow {
  /** When it was decided, or ran out. */
  at: number
  decision: 'approved' | 'declined' | 'expired'
  /** For an approved change: what became of it. */
  outcome?: 'made' | 'failed' | 'unused' | 'not yet'
  /** The provider's HTTP status, when the change was sent. */
  upstreamStatus?: number
  clientName: string
  serviceTitle: string
  toolTitle: string
}

export interface ActivityView {
  subject: string
  rows: ActivityRow[]
  retentionDays: number
}

export function activityPage(c: Context, view: ActivityView) {
  return page(
    c,
    'Activity',
    html`<h1>What your assistants changed</h1>
      <p>
        Each change an assistant asked to make in your account, newest first: what you decided and
        what became of it. The connector keeps this record ${view.retentionDays} days, and never
        what the changes held.
      </p>
      ${
        view.rows.length
          ? html`<ul class="plain">
              ${view.rows.map((row) => html`<li>${entry(row)}</li>`)}
            </ul>`
          : html`<p class="card">No change has been asked for yet.</p>`
      }
      <footer>
        <p>Signed in as <strong>${view.subject}</strong>.</p>
        ${personLinks}
      </footer>`,
  )
}

function entry(row: ActivityRow) {
  return html`<article class="card">
    <h3>${row.toolTitle} <span class="meta">· ${row.serviceTitle}</span></h3>
    <p class="meta">${row.clientName} · ${time(row.at)}</p>
    <p><span class="tag">${outcomeOf(row)}</span></p>
  </article>`
}

/** The decision and the outcome, in words. */
function outcomeOf(row: ActivityRow): string {
  if (row.decision === 'declined') return 'Declined: nothing changed'
  if (row.decision === 'expired') return 'Not answered in time: nothing changed'
  const status = row.upstreamStatus === undefined ? '' : ` (HTTP ${row.upstreamStatus})`
  switch (row.outcome) {
    case 'made':
      return 'Approved: done'
    case 'failed':
      return `Approved: the provider did not make it${status}`
    case 'unused':
      return 'Approved: not made, the assistant did not come back in time'
    default:
      return 'Approved: waiting for the assistant'
  }
}
