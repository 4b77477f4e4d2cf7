import { Hono } from 'hono'
import { activityRoutes } from './activity-routes.js'
import { approveAllRoutes } from './approve-all-routes.js'
import { changeRoutes } from './change-routes.js'
import { decisionRoutes } from './decision-routes.js'
import { listRoutes } from './list-routes.js'
import { notificationRoutes } from './notification-routes.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { approvalSignIns, signInRoutes } from './sign-in-routes.js'

/**
 * The person's approval pages (docs/design.md, "The person's pages"), and their activity:
 *
 *   GET  /approvals               every change waiting for the person, each with Approve and Decline
 *   POST /approvals               Approve all: each change the page named that may go together
 *   GET  /approvals/{id}          one change in front (signed in as the grant's person), the others below
 *   POST /approvals/{id}          Approve or Decline that one change
 *   GET, POST /approvals/{id}/notification   that change as a notification shows it, and its
 *                                 decision from there (notification-routes.ts)
 *   POST /approvals/sign-in, /approvals/{id}/sign-in, /activity/sign-in
 *                                 off to the provider, through the connections page's sign-in, and back
 *   GET  /activity                what the person's assistants asked to change, and what became of it
 *
 * The connector itself checks who decides: the person signed in (their session, from a sign-in
 * through the provider) must be the grant's, for each change. A post is refused when sent from
 * another site or without its form's CSRF token, a MAC of the session and exactly what the form
 * decides (one change, or the list `Approve all` names); a refused post decides nothing.
 */

/** Each group of routes in its own file, all on one app. */
export function approvalRoutes(connector: ApprovalPagesParts): Hono {
  const parts = { ...connector, log: connector.log.child({ component: 'approvals' }) }
  const app = new Hono()
  const signIns = approvalSignIns(parts)
  // First: `/approvals/sign-in` would otherwise be taken for the change of id `sign-in`.
  signInRoutes(app, parts, signIns)
  listRoutes(app, parts, signIns)
  approveAllRoutes(app, parts)
  notificationRoutes(app, parts)
  changeRoutes(app, parts, signIns)
  decisionRoutes(app, parts)
  activityRoutes(app, parts, signIns)
  return app
}
