import type { Hono } from 'hono'
import { APPROVALS_PATH } from '../pages/approvals-page.js'
import { problemPage } from '../pages/problem-page.js'
import { notFound, notTheirs, settled, type Pending } from './answers.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { signedOut, type ApprovalSignIns } from './sign-in-routes.js'
import { waitingPage } from './waiting.js'

/**
 *   GET  /approvals/{id}          one change in front (signed in as the grant's person), the others below
 */
export function changeRoutes(app: Hono, parts: ApprovalPagesParts, signIns: ApprovalSignIns) {
  app.get(`${APPROVALS_PATH}/:id`, async (c) => {
    const id = c.req.param('id')
    const view = await parts.approvals.view(id)
    if (!view.found) return notFound(c)
    // Told to anyone holding the link: that it is over, nothing of what it was.
    if (view.status === 'expired' || !view.grant) return settled(c, view)!
    const session = await parts.sessions.current(c)
    if (!session) return signedOut(parts, c, signIns.change(id))
    const notYours = notTheirs(c, view as Pending, session)
    if (notYours) return notYours
    const done = settled(c, view)
    if (done) return done
    if (!view.description) {
      return problemPage(
        c,
        'This change cannot be shown',
        'The connector could not read this request, so it cannot be approved. Nothing was ' +
          'changed: ask your assistant to try again.',
        500,
      )
    }
    return waitingPage(parts, c, session, { frontId: id })
  })
}
