import type { Hono } from 'hono'
import { formBound, formOrRefusal } from '../auth/form-post.js'
import { APPROVALS_PATH } from '../pages/approvals-page.js'
import { refused } from './answers.js'
import { isApprovalId } from './digest.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { allToken, waitingPage } from './waiting.js'

/**
 *   POST /approvals               Approve all: each change the page named that may go together
 *
 * The form names the changes its page showed, and its token binds exactly those: a change that
 * reached the person after the page was shown is not part of it.
 */
export function approveAllRoutes(app: Hono, parts: ApprovalPagesParts) {
  const { approvals, log } = parts
  const formTokens = parts.forms.approval

  app.post(APPROVALS_PATH, async (c) => {
    const session = await parts.sessions.current(c)
    if (!session) {
      return refused(c, 'You are not signed in, or your session ended. Open the link again.', 403)
    }
    // The form names the changes the page showed: as many as wait for the person, and no more.
    const waiting = await approvals.waitingFor(session.subject)
    const bound = formBound(
      'id',
      waiting.map((change) => change.id),
    )
    const form = await formOrRefusal(c, parts.config.publicUrl, refused, bound)
    if (form instanceof Response) return form
    if (form.get('Approve all') !== 'Approve all') return refused(c, 'Press Approve all.')
    const ids = [...new Set(form.getAll('id'))]
    if (!ids.length || !ids.every(isApprovalId)) return refused(c, 'Press Approve all.')
    // The token names exactly the changes the page showed: none added, none left out.
    if (!formTokens.check(allToken(session, ids), form.get('csrf'))) {
      return refused(
        c,
        'This form is out of date or did not come from this page. Open the page again.',
      )
    }
    const results = await approvals.approveAll(ids, session.subject)
    const approved = results.filter(({ result }) => result.ok).length
    log.info({ approved, of: ids.length }, 'changes approved together on the approvals page')
    return waitingPage(parts, c, session, { message: approvedMessage(approved, ids.length) })
  })
}

/** What Approve all did, in words: how many were approved, and how many could not be. */
function approvedMessage(approved: number, of: number): string {
  const skipped = of - approved
  return (
    `Approved ${approved} ${approved === 1 ? 'change' : 'changes'}: go back to your ` +
    'assistant and ask it to carry on; it makes each one once.' +
    (skipped
      ? ` ${skipped} could not be approved (decided or expired since, or not one to approve together).`
      : '')
  )
}
