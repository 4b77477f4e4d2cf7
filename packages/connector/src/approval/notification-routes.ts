import type { Context, Hono } from 'hono'
import type { PersonSession } from '../account/sessions.js'
import { formOrRefusal } from '../auth/form-post.js'
import type { PageStatus } from '../pages/page.js'
import { when } from '../pages/page.js'
import { CHANGE_WAITS, notificationPath } from '../pages/push-scripts.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import type { ApprovalView } from './gate.js'
import type { ApprovalPagesParts } from './pages-parts.js'
import { changeToken } from './waiting.js'

/**
 * A change as a notification on the person's device shows it, and its decision from there:
 *
 *   GET  /approvals/{id}/notification   what to show: its question, who asks, and its actions
 *   POST /approvals/{id}/notification   Approve or Decline, from the notification's action
 *
 * Both are the service worker's, with the person's own session: the push message named the
 * change and nothing else. The decision's token is the change's own form token (bound to the
 * session and to that change); the gate decides only for the grant's person, once, before the
 * change expires. A deletion (per-call) is approved only on its page: its notification offers
 * Decline, and a tap opens the page.
 */

export interface NotificationWords {
  title: string
  body: string
  /** The decision's token, while the change waits for this person. */
  csrf?: string
  actions: { action: 'approve' | 'decline'; title: string }[]
}

const ELSEWHERE: NotificationWords = { ...CHANGE_WAITS, actions: [] }

export function notificationRoutes(app: Hono, parts: ApprovalPagesParts) {
  const answer = (c: Context, words: NotificationWords, status: PageStatus | 401 = 200) =>
    c.json(words, status, { 'Cache-Control': 'no-store' })

  /** The change, when it waits for the signed-in person; else what to say instead. */
  const theirs = async (
    c: Context,
    id: string,
  ): Promise<
    { session: PersonSession; view: Extract<ApprovalView, { found: true }> } | { said: Response }
  > => {
    const session = await parts.sessions.current(c)
    // Signed out: the tap opens the page, which signs them in.
    if (!session) return { said: answer(c, ELSEWHERE, 401) }
    const view = await parts.approvals.view(id)
    // Another person's is not told apart from none.
    if (!view.found || !view.grant || view.grant.account !== session.subject)
      return {
        said: answer(
          c,
          { title: 'This change is no longer waiting', body: 'Nothing was changed.', actions: [] },
          404,
        ),
      }
    if (view.status !== 'pending' || !view.description)
      return { said: answer(c, settledWords(view.status), 410) }
    return { session, view }
  }

  app.get(notificationPath(':id'), async (c) => {
    const id = c.req.param('id') ?? ''
    const found = await theirs(c, id)
    if ('said' in found) return found.said
    const { session, view } = found
    const clientName = await parts.clients.namer()(view.grant!.clientId)
    const service = SERVICES[view.grant!.service as ServiceName]?.title ?? view.grant!.service
    const onPage = view.mode !== 'auth-token'
    return answer(c, {
      title: view.description!.summary,
      body:
        `${clientName} asks, in your ${service}. ` +
        (onPage ? 'Tap to check it and approve it on its page. ' : '') +
        `Until ${when(view.expiresAt)}.`,
      csrf: parts.forms.approval.issue(changeToken(session, id)),
      actions: onPage
        ? [{ action: 'decline', title: 'Decline' }]
        : [
            { action: 'approve', title: 'Approve' },
            { action: 'decline', title: 'Decline' },
          ],
    })
  })

  app.post(notificationPath(':id'), async (c) => {
    const id = c.req.param('id') ?? ''
    const refuse = (context: Context, message: string, status: PageStatus = 400) =>
      answer(context, { title: 'Nothing was decided', body: message, actions: [] }, status)
    const form = await formOrRefusal(c, parts.config.publicUrl, refuse)
    if (form instanceof Response) return form
    const found = await theirs(c, id)
    if ('said' in found) return found.said
    const { session, view } = found
    if (!parts.forms.approval.check(changeToken(session, id), form.get('csrf')))
      return refuse(c, 'This notification is out of date. Open the change to decide it.', 403)
    const decision = form.get('decision')
    if (decision !== 'approve' && decision !== 'decline')
      return refuse(c, 'Choose Approve or Decline.')
    if (decision === 'approve' && view.mode !== 'auth-token')
      return refuse(c, 'A deletion is approved only on its page. Open it to decide.', 403)
    const summary = view.description!.summary
    const result = await parts.approvals.decide(id, decision, session.subject)
    if (!result.ok)
      return answer(
        c,
        result.reason === 'decided' ? settledWords(result.decision) : settledWords('expired'),
        409,
      )
    parts.log.info({ decision: result.decision }, 'change decided from a notification')
    return answer(c, {
      title: result.decision === 'approved' ? 'Approved' : 'Declined',
      body:
        result.decision === 'approved'
          ? `${summary} Your assistant makes the change now.`
          : `${summary} Nothing was changed.`,
      actions: [],
    })
  })
}

function settledWords(status: 'approved' | 'declined' | 'expired' | 'pending'): NotificationWords {
  switch (status) {
    case 'approved':
      return { title: 'Approved already', body: 'This change was approved.', actions: [] }
    case 'declined':
      return { title: 'Declined already', body: 'Nothing was changed.', actions: [] }
    default:
      return {
        title: 'This change expired',
        body: 'Nothing was changed. Your assistant can ask again.',
        actions: [],
      }
  }
}
