import { Hono, type Context } from 'hono'
import type { Logger } from 'pino'
import type { PersonSession, PersonSessions } from '../account/sessions.js'
import type { SignIn } from '../account/sign-in.js'
import type { ClientDirectory } from '../auth/clients.js'
import { problemPage } from '../auth/consent-page.js'
import {
  FORM_PROBLEM_MESSAGE,
  FORM_PROBLEM_STATUS,
  formBound,
  formFromOwnPage,
} from '../auth/form-post.js'
import type { FormTokens } from '../auth/keys.js'
import type { PageStatus } from '../auth/page.js'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { toolDefinition } from '../services/tools.js'
import { activityOf } from './activity.js'
import { ACTIVITY_PATH, activityPage } from './activity-page.js'
import type { AuditTrail } from './audit.js'
import { approvalKey, isApprovalId } from './digest.js'
import type { ApprovalView, Approvals, Decision, WaitingChange } from './gate.js'
import {
  APPROVALS_PATH,
  approvalPath,
  approvalsPage,
  decidedMessage,
  decidedPage,
  signedOutPage,
  type ChangeView,
} from './page.js'

/**
 * The person's approval pages (docs/design.md, "The person's pages"), and their activity:
 *
 *   GET  /approvals               every change waiting for the person, each with Approve and Decline
 *   POST /approvals               Approve all: each change the page named that may go together
 *   GET  /approvals/{id}          one change in front (signed in as the grant's person), the others below
 *   POST /approvals/{id}          Approve or Decline that one change
 *   POST /approvals/sign-in, /approvals/{id}/sign-in, /activity/sign-in
 *                                 off to the provider, through the connections page's sign-in, and back
 *   GET  /activity                what the person's assistants asked to change, and what became of it
 *
 * The connector itself checks who decides: the person signed in (their session, from a sign-in
 * through the provider) must be the grant's, for each change. A post is refused when sent from
 * another site or without its form's CSRF token, a MAC of the session and exactly what the form
 * decides (one change, or the list `Approve all` names); a refused post decides nothing.
 */

export interface ApprovalRoutesDeps {
  approvals: Approvals
  audit: Pick<AuditTrail, 'ofPerson'>
  /** How long the audit trail is kept, for the activity page to say. */
  retentionDays: number
  publicUrl: string
  /** For the assistants' names. */
  clients: ClientDirectory
  /** The connections page's sessions, and its sign-in for a page of the connector. */
  sessions: PersonSessions
  signInFor(pagePath: string): SignIn
  /** The decision forms' CSRF tokens. */
  formTokens: FormTokens
  /** For "Sign in with ...". */
  providerName: string
  log: Logger
}

type PageAnswer = Response | Promise<Response>

type Pending = Extract<ApprovalView, { found: true }> & {
  grant: NonNullable<Extract<ApprovalView, { found: true }>['grant']>
}

/** The activity page lists at most this many of the person's latest events. */
const ACTIVITY_EVENTS = 500

export function approvalRoutes(deps: ApprovalRoutesDeps): Hono {
  const { approvals, formTokens, sessions, log } = deps
  const signIns = {
    approvals: deps.signInFor(APPROVALS_PATH),
    activity: deps.signInFor(ACTIVITY_PATH),
  }
  const app = new Hono()

  /** One change's form: bound to the session and to that change. */
  const changeToken = (session: PersonSession, id: string) =>
    `approval ${session.id} ${approvalKey(id)}`
  /** Approve all's form: bound to the session and to exactly the changes it names. */
  const allToken = (session: PersonSession, ids: readonly string[]) =>
    `approve all ${session.id} ${ids.map(approvalKey).sort().join(' ')}`

  const refused = (c: Context, message: string, status: PageStatus = 400) =>
    problemPage(c, 'Nothing was decided', message, status, {
      href: APPROVALS_PATH,
      label: 'Changes waiting for you',
    })

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

  /** A waiting change as the pages show it, with its own form's token. */
  function changeView(
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
      csrf: formTokens.issue(changeToken(session, change.id)),
    }
  }

  /**
   * The person's waiting changes, with `frontId` in front when it is one of them: the page of
   * one change, or of them all, with what was just decided said at the top.
   */
  async function waitingPage(
    c: Context,
    session: PersonSession,
    { frontId, message, status }: { frontId?: string; message?: string; status?: PageStatus } = {},
  ) {
    const nameOf = deps.clients.namer()
    const changes = await Promise.all(
      (await approvals.waitingFor(session.subject)).map(async (change) =>
        changeView(change, session, await nameOf(change.clientId)),
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
          ? { ids: together, csrf: formTokens.issue(allToken(session, together)) }
          : undefined,
      message,
      status,
    })
  }

  const signedOut = (
    c: Context,
    page: { action: string; heading: string; signIn: SignIn },
    message?: string,
    status?: PageStatus,
  ) =>
    signedOutPage(c, {
      action: page.action,
      heading: page.heading,
      providerName: deps.providerName,
      csrf: page.signIn.formToken(c),
      message,
      status,
    })

  const approvalSignIn = (id: string) => ({
    action: `${approvalPath(id)}/sign-in`,
    heading: 'An assistant asks to make a change in your account',
    signIn: signIns.approvals,
  })
  const listSignIn = {
    action: `${APPROVALS_PATH}/sign-in`,
    heading: 'Changes waiting for your approval',
    signIn: signIns.approvals,
  }
  const activitySignIn = {
    action: `${ACTIVITY_PATH}/sign-in`,
    heading: 'What your assistants changed',
    signIn: signIns.activity,
  }

  type SignInPage = Parameters<typeof signedOut>[1]

  /**
   * A sign-in form's post: off to the provider, and back to the page. `target` says which page,
   * or undefined for a path that names none.
   */
  function signInRoute(
    path: string,
    target: (c: Context) => { page: SignInPage; returnTo: string } | undefined,
  ) {
    app.post(path, async (c) => {
      const form = await formFromOwnPage(c, deps.publicUrl)
      if (typeof form === 'string') {
        return refused(c, FORM_PROBLEM_MESSAGE[form], FORM_PROBLEM_STATUS[form])
      }
      const to = target(c)
      if (!to) return notFound(c)
      if (!to.page.signIn.checkFormToken(c, form.get('csrf'))) {
        return signedOut(c, to.page, 'This form is out of date. Press Sign in again.', 400)
      }
      return c.redirect((await to.page.signIn.begin(c, to.returnTo)).toString(), 303)
    })
  }

  app.get(APPROVALS_PATH, async (c) => {
    const session = await sessions.current(c)
    return session ? waitingPage(c, session) : signedOut(c, listSignIn)
  })

  signInRoute(`${APPROVALS_PATH}/sign-in`, () => ({ page: listSignIn, returnTo: APPROVALS_PATH }))

  app.post(APPROVALS_PATH, async (c) => {
    const session = await sessions.current(c)
    if (!session) {
      return refused(c, 'You are not signed in, or your session ended. Open the link again.', 403)
    }
    // The form names the changes the page showed: as many as wait for the person, and no more.
    const waiting = await approvals.waitingFor(session.subject)
    const form = await formFromOwnPage(
      c,
      deps.publicUrl,
      formBound(
        'id',
        waiting.map((change) => change.id),
      ),
    )
    if (typeof form === 'string') {
      return refused(c, FORM_PROBLEM_MESSAGE[form], FORM_PROBLEM_STATUS[form])
    }
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
    const skipped = ids.length - approved
    const message =
      `Approved ${approved} ${approved === 1 ? 'change' : 'changes'}: go back to your ` +
      'assistant and ask it to carry on; it makes each one once.' +
      (skipped
        ? ` ${skipped} could not be approved (decided or expired since, or not one to approve together).`
        : '')
    return waitingPage(c, session, { message })
  })

  app.get(`${APPROVALS_PATH}/:id`, async (c) => {
    const id = c.req.param('id')
    const view = await approvals.view(id)
    if (!view.found) return notFound(c)
    // Told to anyone holding the link: that it is over, nothing of what it was.
    if (view.status === 'expired' || !view.grant) return settled(c, view)!
    const session = await sessions.current(c)
    if (!session) return signedOut(c, approvalSignIn(id))
    const pending = view as Pending
    const notTheirs = owner(c, pending, session)
    if (notTheirs) return notTheirs
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
    return waitingPage(c, session, { frontId: id })
  })

  signInRoute(`${APPROVALS_PATH}/:id/sign-in`, (c) => {
    const id = c.req.param('id') ?? ''
    return isApprovalId(id) ? { page: approvalSignIn(id), returnTo: approvalPath(id) } : undefined
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
    if (!formTokens.check(changeToken(session, id), form.get('csrf'))) {
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
      return waitingPage(c, session, { message: decidedMessage(result.decision) })
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

  app.get(ACTIVITY_PATH, async (c) => {
    const session = await sessions.current(c)
    if (!session) return signedOut(c, activitySignIn)
    const nameOf = deps.clients.namer()
    const entries = activityOf(await deps.audit.ofPerson(session.subject, ACTIVITY_EVENTS))
    const rows = await Promise.all(
      entries.map(async (entry) => {
        const service = entry.service as ServiceName | null
        return {
          ...entry,
          clientName: entry.clientId ? await nameOf(entry.clientId) : 'An assistant',
          serviceTitle: (service && SERVICES[service]?.title) ?? 'a service',
          toolTitle: toolDefinition(service, entry.tool)?.title ?? entry.tool,
        }
      }),
    )
    return activityPage(c, {
      subject: session.subject,
      rows,
      retentionDays: deps.retentionDays,
    })
  })

  signInRoute(`${ACTIVITY_PATH}/sign-in`, () => ({ page: activitySignIn, returnTo: ACTIVITY_PATH }))

  return app
}

/** The button pressed: exactly one of Approve and Decline. */
function decisionOf(form: URLSearchParams): Decision | undefined {
  const approve = form.get('Approve') === 'Approve'
  const decline = form.get('Decline') === 'Decline'
  if (approve === decline) return undefined
  return approve ? 'approve' : 'decline'
}
