import type { Context, Hono } from 'hono'
import type { PersonSession } from '../account/sessions.js'
import { formOrRefusal } from '../auth/form-post.js'
import { APPROVALS_PATH, decidedMessage, decidedPage } from '../pages/approvals-page.js'
import { notFound, notTheirs, refused, settled, type Pending } from './answers.js'
import { isApprovalId } from './digest.js'
import type { DecideResult, Decision } from './gate.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { changeToken, waitingPage } from './waiting.js'

/**
 *   POST /approvals/{id}          Approve or Decline that one change
 */
export function decisionRoutes(app: Hono, parts: ApprovalPagesParts) {
  const { approvals, log } = parts

  app.post(`${APPROVALS_PATH}/:id`, async (c) => {
    const id = c.req.param('id')
    const form = await formOrRefusal(c, parts.config.publicUrl, refused)
    if (form instanceof Response) return form
    if (!isApprovalId(id)) return notFound(c)
    const session = await parts.sessions.current(c)
    if (!session) {
      return refused(c, 'You are not signed in, or your session ended. Open the link again.', 403)
    }
    if (!parts.forms.approval.check(changeToken(session, id), form.get('csrf'))) {
      return refused(
        c,
        'This form is out of date or did not come from this page. Open the link again.',
      )
    }
    const decision = decisionOf(form)
    if (!decision) return refused(c, 'Press Approve or Decline.')

    const result = await approvals.decide(id, decision, session.subject)
    if (result.ok) {
      log.info({ decision: result.decision }, 'change decided on the approval page')
      return waitingPage(parts, c, session, { message: decidedMessage(result.decision) })
    }
    return notDecided(parts, c, id, session, result)
  })
}

/** The page for a decision the gate refused: why nothing was decided. */
async function notDecided(
  parts: ApprovalPagesParts,
  c: Context,
  id: string,
  session: PersonSession,
  result: Extract<DecideResult, { ok: false }>,
) {
  switch (result.reason) {
    case 'decided':
      return decidedPage(c, result.decision, { already: true })
    case 'not yours': {
      const view = await parts.approvals.view(id)
      return view.found && view.grant
        ? notTheirs(c, view as Pending, session)!
        : refused(c, 'This change belongs to another account.', 403)
    }
    case 'not found':
      return notFound(c)
    default: {
      const view = await parts.approvals.view(id)
      return (view.found && settled(c, view)) || notFound(c)
    }
  }
}

/** The button pressed: exactly one of Approve and Decline. */
function decisionOf(form: URLSearchParams): Decision | undefined {
  const approve = form.get('Approve') === 'Approve'
  const decline = form.get('Decline') === 'Decline'
  if (approve === decline) return undefined
  return approve ? 'approve' : 'decline'
}
