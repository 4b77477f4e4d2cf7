import type { Context } from 'hono'
import type { PersonSession } from '../account/sessions.js'
import { approvalsPage, type ChangeView } from '../pages/approvals-page.js'
import type { PageStatus } from '../pages/page.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { toolDefinition } from '../services/tools.js'
import { approvalKey } from './digest.js'
import type { WaitingChange } from './gate.js'
import { notificationsOfferFor } from '../account/page-context.js'
import type { ApprovalPagesParts } from './pages-parts.js'

/**
 * The page of the changes waiting for the person, and what its forms' CSRF tokens bind: each
 * change's Approve and Decline, and `Approve all`.
 */

/** One change's form: bound to the session and to that change. */
export const changeToken = (session: PersonSession, id: string) =>
  `approval ${session.id} ${approvalKey(id)}`

/** Approve all's form: bound to the session and to exactly the changes it names. */
export const allToken = (session: PersonSession, ids: readonly string[]) =>
  `approve all ${session.id} ${ids.map(approvalKey).sort().join(' ')}`

type WaitingParts = Pick<ApprovalPagesParts, 'approvals' | 'clients' | 'forms' | 'push'>

/** A waiting change as the pages show it, with its own form's token. */
function changeView(
  parts: WaitingParts,
  change: WaitingChange,
  session: PersonSession,
  clientName: string,
): ChangeView {
  const definition = toolDefinition(change.service, change.tool)
  return {
    id: change.id,
    description: change.description,
    clientName,
    serviceTitle: SERVICES[change.service as ServiceName]?.title ?? change.service,
    toolTitle: definition?.title ?? change.tool,
    destructive: definition?.annotations.destructiveHint === true,
    together: change.mode === 'auth-token',
    expiresAt: change.expiresAt,
    csrf: parts.forms.approval.issue(changeToken(session, change.id)),
  }
}

/**
 * The person's waiting changes, with `frontId` in front when it is one of them: the page of
 * one change, or of them all, with what was just decided said at the top.
 */
export async function waitingPage(
  parts: WaitingParts,
  c: Context,
  session: PersonSession,
  { frontId, message, status }: { frontId?: string; message?: string; status?: PageStatus } = {},
) {
  const nameOf = parts.clients.namer()
  const changes = await Promise.all(
    (await parts.approvals.waitingFor(session.subject)).map(async (change) =>
      changeView(parts, change, session, await nameOf(change.clientId)),
    ),
  )
  const front = changes.find((change) => change.id === frontId)
  const others = changes.filter((change) => change !== front)
  const together = changes.filter((change) => change.together).map((change) => change.id)
  return approvalsPage(c, {
    subject: session.subject,
    now: Date.now(),
    front,
    others,
    approveAll:
      together.length >= 2
        ? { ids: together, csrf: parts.forms.approval.issue(allToken(session, together)) }
        : undefined,
    message,
    status,
    notifications: notificationsOfferFor(parts, session),
  })
}
