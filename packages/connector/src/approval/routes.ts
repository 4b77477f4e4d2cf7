import { Hono, type Context } from 'hono'
import type { Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import type { PersonSession, PersonSessions } from '../account/sessions.js'
import type { SignIn } from '../account/sign-in.js'
import { problemPage } from '../auth/consent-page.js'
import { FORM_PROBLEM_MESSAGE, FORM_PROBLEM_STATUS, formFromOwnPage } from '../auth/form-post.js'
import type { FormTokens } from '../auth/keys.js'
import type { PageStatus } from '../auth/page.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { approvalKey, isApprovalId } from './digest.js'
import type { ApprovalView, Approvals, Decision } from './gate.js'
import { APPROVALS_PATH, approvalPage, approvalPath, decidedPage, signedOutPage } from './page.js'

/**
 * The approval page, where the person approves or declines one change an assistant asked for:
 *
 *   GET  /approvals/{id}          the change (signed in as the grant's person), else sign in
 *   POST /approvals/{id}          Approve or Decline
 *   POST /approvals/{id}/sign-in  off to the provider, through the connections page's sign-in,
 *                                 and back to this page
 *
 * The connector itself checks who decides: the person signed in (their session, from a sign-in
 * through the provider) must be the grant's. A post is refused when sent from another site or
 * without the form's CSRF token, a MAC of the session and the approval; a refused post decides
 * nothing.
 */

export interface ApprovalRoutesDeps {
  approvals: Approvals
  publicUrl: string
  /** For the assistant's name. */
  provider: Provider
  /** The connections page's sessions and sign-in (account/routes.ts). */
  sessions: PersonSessions
  signIn: SignIn
  /** The decision form's CSRF tokens. */
  formTokens: FormTokens
  /** For "Sign in with ...". */
  providerName: string
  log: Logger
}

type PageAnswer = Response | Promise<Response>

type Pending = Extract<ApprovalView, { found: true }> & {
  grant: NonNullable<Extract<ApprovalView, { found: true }>['grant']>
}

export function approvalRoutes(deps: ApprovalRoutesDeps): Hono {
  const { approvals, formTokens, sessions, signIn, log } = deps
  const app = new Hono()
  const csrfSubject = (session: PersonSession, id: string) =>
    `approval ${session.id} ${approvalKey(id)}`

  const refused = (c: Context, message: string, status: PageStatus = 400) =>
    problemPage(c, 'Nothing was decided', message, status)

  const notFound = (c: Context) =>
    problemPage(
      c,
      'No such change',
      'This approval link is not known. Ask your assistant to make the change again.',
      404,
    )

  /** The page for what the approval has become, when it is no longer waiting for the person. */
  function settled(c: Context, view: Exclude<ApprovalView, { found: false }>) {
    if (!view.grant) {
      return problemPage(
        c,
        'Connection ended',
        "The assistant's connection to your account has ended, so this change will not be made.",
        410,
      )
    }
    if (view.status === 'expired') {
      return problemPage(
        c,
        'This request has expired',
        'Approvals last 10 minutes. Nothing was changed: ask your assistant to try again, and ' +
          'approve the new request.',
        410,
      )
    }
    if (view.status === 'approved' || view.status === 'declined') {
      return decidedPage(c, view.status, { used: view.used })
    }
    return undefined
  }

  /** The signed-in person, if it is the grant's; else the page saying why not. */
  function owner(c: Context, view: Pending, session: PersonSession): PageAnswer | undefined {
    if (session.subject === view.grant.account) return undefined
    return problemPage(
      c,
      'Not your change',
      'This change belongs to another account, so it cannot be decided here. Nothing was ' +
        `decided. You are signed in as ${session.subject}: to decide it, sign out on the ` +
        'connections page and sign in with the account the assistant is connected to.',
      403,
      { href: '/connections', label: 'Your connected assistants' },
    )
  }

  async function pendingPage(
    c: Context,
    id: string,
    view: Pending,
    session: PersonSession,
    message?: string,
    status?: PageStatus,
  ) {
    if (!view.description) {
      return problemPage(
        c,
        'This change cannot be shown',
        'The connector could not read this request, so it cannot be approved. Nothing was ' +
          'changed: ask your assistant to try again.',
        500,
      )
    }
    return approvalPage(c, {
      id,
      clientName: await clientNameOf(deps.provider, view.grant.clientId, log),
      serviceTitle: SERVICES[view.grant.service as ServiceName]?.title ?? view.grant.service,
      description: view.description,
      expiresAt: view.expiresAt,
      now: Date.now(),
      subject: session.subject,
      csrf: formTokens.issue(csrfSubject(session, id)),
      message,
      status,
    })
  }

  const signedOut = (c: Context, id: string, message?: string, status?: PageStatus) =>
    signedOutPage(c, {
      id,
      providerName: deps.providerName,
      csrf: signIn.formToken(c),
      message,
      status,
    })

  app.get(`${APPROVALS_PATH}/:id`, async (c) => {
    const id = c.req.param('id')
    const view = await approvals.view(id)
    if (!view.found) return notFound(c)
    // Told to anyone holding the link: that it is over, nothing of what it was.
    if (view.status === 'expired' || !view.grant) return settled(c, view)!
    const session = await sessions.current(c)
    if (!session) return signedOut(c, id)
    const pending = view as Pending
    const notTheirs = owner(c, pending, session)
    if (notTheirs) return notTheirs
    return settled(c, view) ?? pendingPage(c, id, pending, session)
  })

  app.post(`${APPROVALS_PATH}/:id/sign-in`, async (c) => {
    const id = c.req.param('id')
    const form = await formFromOwnPage(c, deps.publicUrl)
    if (typeof form === 'string') {
      return refused(c, FORM_PROBLEM_MESSAGE[form], FORM_PROBLEM_STATUS[form])
    }
    if (!isApprovalId(id)) return notFound(c)
    if (!signIn.checkFormToken(c, form.get('csrf'))) {
      return signedOut(c, id, 'This form is out of date. Press Sign in again.', 400)
    }
    const target = await signIn.begin(c, approvalPath(id))
    return c.redirect(target.toString(), 303)
  })

  app.post(`${APPROVALS_PATH}/:id`, async (c) => {
    const id = c.req.param('id')
    const form = await formFromOwnPage(c, deps.publicUrl)
    if (typeof form === 'string') {
      return refused(c, FORM_PROBLEM_MESSAGE[form], FORM_PROBLEM_STATUS[form])
    }
    if (!isApprovalId(id)) return notFound(c)
    const session = await sessions.current(c)
    if (!session) {
      return refused(c, 'You are not signed in, or your session ended. Open the link again.', 403)
    }
    if (!formTokens.check(csrfSubject(session, id), form.get('csrf'))) {
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
      return decidedPage(c, result.decision)
    }
    switch (result.reason) {
      case 'decided':
        return decidedPage(c, result.decision, { already: true })
      case 'not yours': {
        const view = await approvals.view(id)
        return view.found && view.grant
          ? owner(c, view as Pending, session)!
          : refused(c, 'This change belongs to another account.', 403)
      }
      case 'not found':
        return notFound(c)
      default: {
        const view = await approvals.view(id)
        return (view.found && settled(c, view)) || notFound(c)
      }
    }
  })

  return app
}

/** The button pressed: exactly one of Approve and Decline. */
function decisionOf(form: URLSearchParams): Decision | undefined {
  const approve = form.get('Approve') === 'Approve'
  const decline = form.get('Decline') === 'Decline'
  if (approve === decline) return undefined
  return approve ? 'approve' : 'decline'
}

/** The client's name from its registration; its id when it has none or cannot be loaded. */
async function clientNameOf(provider: Provider, clientId: string, log: Logger): Promise<string> {
  try {
    const client = await provider.Client.find(clientId)
    return client?.clientName || clientId
  } catch (error) {
    log.warn({ err: error }, 'could not load a client for the approval page')
    return clientId
  }
}
