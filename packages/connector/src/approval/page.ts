import type { Context } from 'hono'
import { html } from 'hono/html'
import { page, type PageStatus } from '../auth/page.js'
import type { ChangeDescription } from '../services/definition.js'
import type { Decided } from './gate.js'

/**
 * The approval page: the change an assistant asks to make, in the person's words, with Approve
 * and Decline. Plain HTML and forms (no JavaScript), in the connector's page shell: not
 * frameable, never cached. Everything shown that came from the provider or the client (titles,
 * names) is escaped by `html`.
 */

export const APPROVALS_PATH = '/approvals'

export const approvalPath = (id: string) => `${APPROVALS_PATH}/${id}`

export interface ApprovalPageView {
  id: string
  /** The assistant: the client's name, or its id. */
  clientName: string
  /** The service, for people ("Tasks"). */
  serviceTitle: string
  description: ChangeDescription
  expiresAt: number
  now: number
  /** Who is signed in. */
  subject: string
  csrf: string
  message?: string
  status?: PageStatus
}

export function approvalPage(c: Context, view: ApprovalPageView) {
  const { description } = view
  const minutes = Math.max(1, Math.ceil((view.expiresAt - view.now) / 60_000))
  return page(
    c,
    'Approve a change?',
    html`<h1>${description.summary}</h1>
      ${view.message ? html`<p role="alert"><strong>${view.message}</strong></p>` : ''}
      <p>
        <strong>${view.clientName}</strong> asks to make this change in your
        <strong>${view.serviceTitle}</strong>. Nothing changes unless you approve it.
      </p>
      <dl class="details">
        ${description.details.map(
          (detail) =>
            html`<dt>${detail.label}</dt>
              <dd>${detail.value}</dd>`,
        )}
      </dl>
      <p>
        This request expires at
        <time datetime="${new Date(view.expiresAt).toISOString()}">${when(view.expiresAt)}</time>
        (in ${minutes === 1 ? 'about a minute' : `${minutes} minutes`}).
      </p>
      <form method="post" action="${approvalPath(view.id)}">
        <input type="hidden" name="csrf" value="${view.csrf}" />
        <p>
          <button name="Approve" value="Approve">Approve</button>
          <button name="Decline" value="Decline">Decline</button>
        </p>
      </form>
      <p>
        <small
          >Signed in as <strong>${view.subject}</strong>. Approving allows this one change, once;
          the assistant has to ask again for any other.</small
        >
      </p>`,
    view.status,
  )
}

/** After a decision, or on coming back to an approval already decided. */
export function decidedPage(
  c: Context,
  decision: Decided,
  { used = false, already = false }: { used?: boolean; already?: boolean } = {},
) {
  const title = decision === 'approved' ? 'Approved' : 'Declined'
  const message =
    decision === 'declined'
      ? 'Declined: nothing was changed.'
      : used
        ? 'Approved: your assistant has made the change.'
        : 'Approved: go back to your assistant and ask it to try again.'
  return page(
    c,
    title,
    html`<h1>${title}</h1>
      ${already ? html`<p>This change was already decided.</p>` : ''}
      <p role="status"><strong>${message}</strong></p>
      ${
        decision === 'approved' && !used
          ? html`<p>The approval is for that one change, and lasts until it is used or expires.</p>`
          : ''
      }
      <p><small>You can close this window.</small></p>`,
    already ? 409 : 200,
  )
}

export interface SignedOutView {
  id: string
  providerName: string
  csrf: string
  message?: string
  status?: PageStatus
}

/** Not signed in: nothing of the change is shown until the person proves who they are. */
export function signedOutPage(c: Context, view: SignedOutView) {
  return page(
    c,
    'Sign in to review a change',
    html`<h1>An assistant asks to make a change in your account</h1>
      ${view.message ? html`<p role="alert"><strong>${view.message}</strong></p>` : ''}
      <p>
        Sign in with your provider account to see the change and approve or decline it. You come
        back to this page afterwards.
      </p>
      <form method="post" action="${approvalPath(view.id)}/sign-in">
        <input type="hidden" name="csrf" value="${view.csrf}" />
        <p><button name="SignIn" value="SignIn">Sign in with ${view.providerName}</button></p>
      </form>`,
    view.status,
  )
}

/** "2025-03-01 14:05 UTC": the same on every replica, whatever its time zone. */
const when = (epochMs: number) =>
  `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`
