import type { Hono } from 'hono'
import { APPROVALS_PATH } from '../pages/approvals-page.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { signedOut, type ApprovalSignIns } from './sign-in-routes.js'
import { waitingPage } from './waiting.js'

/**
 *   GET  /approvals               every change waiting for the person, each with Approve and Decline
 */
export function listRoutes(app: Hono, parts: ApprovalPagesParts, signIns: ApprovalSignIns) {
  app.get(APPROVALS_PATH, async (c) => {
    const session = await parts.sessions.current(c)
    return session ? waitingPage(parts, c, session) : signedOut(parts, c, signIns.list)
  })
}
