import type { Hono } from 'hono'
import { APPROVALS_PATH } from '../pages/approvals-page.js'
import type { ApprovalRoutesDeps } from './route-deps.js'
import { signedOut, type ApprovalSignIns } from './sign-in-routes.js'
import { waitingPage } from './waiting.js'

/**
 *   GET  /approvals               every change waiting for the person, each with Approve and Decline
 */
export function listRoutes(app: Hono, deps: ApprovalRoutesDeps, signIns: ApprovalSignIns) {
  app.get(APPROVALS_PATH, async (c) => {
    const session = await deps.sessions.current(c)
    return session ? waitingPage(deps, c, session) : signedOut(deps, c, signIns.list)
  })
}
