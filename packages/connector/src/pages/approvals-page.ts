import type { Context } from 'hono'
import { html } from 'hono/html'
import type { ChangeDescription, ChangeDetail } from '../services/definition.js'
import { notificationsOffer, type NotificationsOffer } from './devices-section.js'
import { page, personLinks, time, type PageStatus } from './page.js'

/**
 * The approval pages (docs/design.md, "The person's pages"): the change an assistant asks to make,
 * in the person's words, with Approve and Decline, and beside it every other change waiting for the
 * same person, each with its own Approve and Decline, and one `Approve all` for those that may go
 * together. Plain HTML and forms (no JavaScript), in the connector's page shell: not frameable,
 * never cached. Everything shown that came from the provider or a client (titles, names) is escaped
 * by `html`.
 */

export const APPROVALS_PATH = '/approvals'

export const approvalPath = (id: string) => `${APPROVALS_PATH}/${id}`

/** One waiting change as the pages show it. */
export interface ChangeView {
  id: string
  description: ChangeDescription
  /** The assistant: the client's name, or its id. */
  clientName: string
  /** The service, for people ("Tasks"). */
  serviceTitle: string
  /** What kind of change, in words ("Delete a task"). */
  toolTitle: string
  /**
   * It deletes or overwrites (MCP's `destructiveHint`): a deletion (approved on its own, not
   * `together`) is shown in the colour of danger, an overwrite says what it replaces.
   */
  destructive: boolean
  /** Approved in the client's way (auth-token): it may go with `Approve all`. */
  together: boolean
  expiresAt: number
  /** Its own decision form's CSRF token. */
  csrf: string
}

export interface ApprovalsView {
  /** Who is signed in. */
  subject: string
  now: number
  /** The change the link was for; none on the list alone (`GET /approvals`). */
  front?: ChangeView
  /** The person's other waiting changes, from any assistant and service, oldest first. */
  others: ChangeView[]
  /** The ids `Approve all` names (the changes shown that may go together) and its token. */
  approveAll?: { ids: string[]; csrf: string }
  /** What was just decided, in a sentence. */
  message?: string
  status?: PageStatus
  /** The button that turns notifications on for this device; none without push. */
  notifications?: NotificationsOffer
}

/** The page of one change (with the others waiting), or of the waiting changes alone. */
export function approvalsPage(c: Context, view: ApprovalsView) {
  const { front, others } = view
  const title = front ? 'Approve a change?' : 'Changes waiting for you'
  const heading = front
    ? ''
    : html`<h1>
        ${
          others.length
            ? `Changes waiting for your approval (${others.length})`
            : 'Nothing is waiting for your approval'
        }
      </h1>`
  return page(
    c,
    title,
    html`${view.message ? html`<p class="status" role="status">${view.message}</p>` : ''}
      ${front ? frontChange(front, view.now) : heading}
      ${
        !front && !others.length
          ? html`<p>
              When an assistant asks to change something in your account, the change waits here
              until you approve or decline it.
            </p>`
          : ''
      }
      ${
        front && others.length
          ? html`<h2>Also waiting for your approval (${others.length})</h2>`
          : ''
      }
      ${
        others.length
          ? html`<ul class="plain">
              ${others.map((change) => html`<li>${otherChange(change, view.now)}</li>`)}
            </ul>`
          : ''
      }
      ${view.approveAll ? approveAllForm(view.approveAll) : ''}
      ${view.notifications ? notificationsOffer(view.notifications) : ''}
      <footer>
        <p>
          Signed in as <strong>${view.subject}</strong>. Approving allows exactly the change shown,
          once: an assistant has to ask again for any other.
        </p>
        ${personLinks}
      </footer>`,
    view.status,
  )
}

/** The change the link was for: its summary as the heading, then all of it. */
function frontChange(change: ChangeView, now: number) {
  return html`<section class="card${isDeletion(change) ? ' destructive' : ''}">
    <p class="meta"><span class="tag">${change.toolTitle}</span></p>
    <h1>${change.description.summary}</h1>
    <p class="lead">
      <strong>${change.clientName}</strong> asks to make this change in your
      <strong>${change.serviceTitle}</strong>. Nothing changes unless you approve it.
    </p>
    ${warningOf(change)} ${summaryList(change.description.details)}
    <p class="meta">
      This request expires at ${time(change.expiresAt)} (${inMinutes(change, now)}).
    </p>
    ${decisionForm(change)}
  </section>`
}

/** Another waiting change: its summary, who asks, and all of it one click away. */
function otherChange(change: ChangeView, now: number) {
  return html`<article class="card${isDeletion(change) ? ' destructive' : ''}">
    <p class="meta"><span class="tag">${change.toolTitle}</span></p>
    <h3>${change.description.summary}</h3>
    <p class="meta">
      ${change.clientName} · ${change.serviceTitle} · expires at ${time(change.expiresAt)}
      (${inMinutes(change, now)})
    </p>
    ${warningOf(change)}
    <details ${change.destructive ? 'open' : ''}>
      <summary>What changes</summary>
      ${summaryList(change.description.details)}
    </details>
    ${decisionForm(change)}
    ${change.together ? '' : html`<p class="note">A deletion is approved on its own.</p>`}
  </article>`
}

/** A destructive change that is approved on its own: a deletion. */
const isDeletion = (change: ChangeView) => change.destructive && !change.together

const deletionWarning = html`<p class="warning">
  A deletion cannot be undone from here. Check what goes with it before you approve.
</p>`

const overwriteWarning = html`<p class="note">
  This replaces what is there now: each value it replaces is shown under the new one.
</p>`

function warningOf(change: ChangeView) {
  if (!change.destructive) return ''
  return isDeletion(change) ? deletionWarning : overwriteWarning
}

function decisionForm(change: ChangeView) {
  return html`<form method="post" action="${approvalPath(change.id)}">
    <input type="hidden" name="csrf" value="${change.csrf}" />
    <div class="actions">
      <button name="Approve" value="Approve">Approve</button>
      <button name="Decline" value="Decline">Decline</button>
    </div>
  </form>`
}

function approveAllForm({ ids, csrf }: { ids: string[]; csrf: string }) {
  return html`<section class="card">
    <h2>Approve them together</h2>
    <p>
      <strong>Approve all</strong> approves the ${ids.length} changes shown on this page that may go
      together, each one by itself. A deletion never goes this way, and a change that reaches you
      after this page was shown is not part of it.
    </p>
    <form method="post" action="${APPROVALS_PATH}">
      <input type="hidden" name="csrf" value="${csrf}" />
      ${ids.map((id) => html`<input type="hidden" name="id" value="${id}" />`)}
      <div class="actions">
        <button name="Approve all" value="Approve all">Approve all</button>
      </div>
    </form>
  </section>`
}

/** A change's details as a summary list; a value it replaces is shown under the new one. */
export function summaryList(details: readonly ChangeDetail[]) {
  return html`<dl class="summary">
    ${details.map(
      (detail) =>
        html`<div>
          <dt>${detail.label}</dt>
          ${
            detail.before === undefined
              ? html`<dd>${detail.value}</dd>`
              : html`<dd>
                  ${detail.value}
                  <span class="was"
                    >${detail.before === detail.value ? 'unchanged' : html`was ${detail.before}`}</span
                  >
                </dd>`
          }
        </div>`,
    )}
  </dl>`
}

const inMinutes = (change: { expiresAt: number }, now: number) => {
  const minutes = Math.max(1, Math.ceil((change.expiresAt - now) / 60_000))
  return minutes === 1 ? 'in about a minute' : `in ${minutes} minutes`
}

/** What the person decided of a change (approval/gate.ts). */
export type Decided = 'approved' | 'declined'

/** After a decision, or on coming back to an approval already decided. */
export function decidedPage(
  c: Context,
  decision: Decided,
  { used = false, already = false }: { used?: boolean; already?: boolean } = {},
) {
  const title = decision === 'approved' ? 'Approved' : 'Declined'
  return page(
    c,
    title,
    html`<section class="card">
      <h1>${title}</h1>
      ${already ? html`<p>This change was already decided.</p>` : ''}
      <p class="status" role="status">${decidedMessage(decision, used)}</p>
      ${
        decision === 'approved' && !used
          ? html`<p>The approval is for that one change, and lasts until it is used or expires.</p>`
          : ''
      }
      <p class="note">You can close this window.</p>
    </section>`,
    already ? 409 : 200,
  )
}

/** What a decision means for the person, in one sentence. */
export function decidedMessage(decision: Decided, used = false): string {
  if (decision === 'declined') return 'Declined: nothing was changed.'
  return used
    ? 'Approved: your assistant has made the change.'
    : 'Approved: go back to your assistant and ask it to try again.'
}
