import { Hono, type Context } from 'hono'
import type { Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import type { CoverageSeal } from '../auth/coverage.js'
import {
  FORM_PROBLEM_MESSAGE,
  FORM_PROBLEM_STATUS,
  formBound,
  formFromOwnPage,
} from '../auth/form-post.js'
import type { Grants } from '../auth/grants.js'
import type { InteractionDeps } from '../auth/interaction-deps.js'
import type { FormTokens } from '../auth/keys.js'
import type { Offers } from '../auth/offer.js'
import { readChoice } from '../auth/posted-choice.js'
import type { ChoiceForm } from '../pages/choice-page.js'
import {
  CONNECTIONS_PATH,
  coveragePage,
  coveragePath,
  coverageWords,
  signedInPage,
  signedOutPage,
} from '../pages/connections-page.js'
import type { PageStatus } from '../pages/page.js'
import { problemPage } from '../pages/problem-page.js'
import type { Store } from '../store/open.js'
import { Connections } from './connections.js'
import { PersonSessions, type PersonSession } from './sessions.js'
import { SignIn, type UpstreamSignIn } from './sign-in.js'

/**
 * The person's own page on the connector, `/connections`:
 *
 *   GET  /connections             signed out: what it is, and Sign in; signed in: their assistants
 *   POST /connections/sign-in     off to the provider (identity only), back through /upstream/callback
 *   POST /connections/disconnect  ends one of their grants (its upstream token revoked and erased)
 *   GET  /connections/{grant}/coverage   what one of their grants may use, read live, to change
 *   POST /connections/{grant}/coverage   Save: from the grant's next call on, on every replica
 *   POST /connections/sign-out
 *
 * Every post is refused when sent from another site or without the form's CSRF token (a MAC of
 * the session, or of the sign-in nonce); a disconnect acts only on a grant of the signed-in person.
 */

export interface AccountDeps {
  publicUrl: string
  store: Store
  provider: Provider
  grants: Grants
  /** What each grant covers, sealed. */
  coverage: CoverageSeal
  /** The person's lists, sites or properties, read live to change what a grant covers. */
  offers: Offers
  upstream: UpstreamSignIn
  formTokens: FormTokens
  /** For "Sign in with ...". */
  providerName: string
  log: Logger
}

export interface AccountPages {
  routes: Hono
  /** For interactionRoutes: the provider's return from a sign-in started here. */
  onSignIn: NonNullable<InteractionDeps['onSignIn']>
  /** The person's sessions, for the connector's other pages (the approval page). */
  sessions: PersonSessions
  /**
   * The sign-in for another page of the connector (its forms at `pagePath`): the same sign-in
   * through the provider, completed by onSignIn, which starts the session and returns there.
   */
  signInFor(pagePath: string): SignIn
}

export function accountRoutes(deps: AccountDeps): AccountPages {
  const { formTokens, log } = deps
  const sessions = new PersonSessions(deps.store, deps.publicUrl)
  const connections = new Connections(deps)
  const signIn = new SignIn(deps.upstream, formTokens, deps.publicUrl, CONNECTIONS_PATH)
  const sessionToken = (session: PersonSession) => formTokens.issue(`connections ${session.id}`)
  const app = new Hono()

  const signedOut = (c: Context, message?: string, status?: PageStatus) =>
    signedOutPage(c, {
      providerName: deps.providerName,
      csrf: signIn.formToken(c),
      message,
      status,
    })

  async function signedIn(c: Context, session: PersonSession, message?: string) {
    return signedInPage(c, {
      subject: session.subject,
      connections: await connections.of(session.subject),
      csrf: sessionToken(session),
      message: message ?? c.req.query('saved'),
    })
  }

  /** The form of a post that may act: from this site, readable; undefined after answering. */
  async function formOf(c: Context): Promise<URLSearchParams | Response> {
    const form = await formFromOwnPage(c, deps.publicUrl)
    return typeof form === 'string'
      ? refused(c, FORM_PROBLEM_MESSAGE[form], FORM_PROBLEM_STATUS[form])
      : form
  }

  const refused = (c: Context, message: string, status: PageStatus = 400) =>
    problemPage(c, 'Nothing was changed', message, status, {
      href: CONNECTIONS_PATH,
      label: 'Back to your connected assistants',
    })

  app.get(CONNECTIONS_PATH, async (c) => {
    const session = await sessions.current(c)
    return session ? signedIn(c, session) : signedOut(c)
  })

  app.post(`${CONNECTIONS_PATH}/sign-in`, async (c) => {
    const form = await formOf(c)
    if (form instanceof Response) return form
    if (!signIn.checkFormToken(c, form.get('csrf'))) {
      return signedOut(c, 'This form is out of date. Press Sign in again.', 400)
    }
    const target = await signIn.begin(c, CONNECTIONS_PATH)
    return c.redirect(target.toString(), 303)
  })

  app.post(`${CONNECTIONS_PATH}/sign-out`, async (c) => {
    const form = await formOf(c)
    if (form instanceof Response) return form
    const session = await sessions.current(c)
    if (session && !formTokens.check(`connections ${session.id}`, form.get('csrf'))) {
      return refused(c, 'This form is out of date or did not come from this page.')
    }
    await sessions.end(c)
    return c.redirect(CONNECTIONS_PATH, 303)
  })

  app.post(`${CONNECTIONS_PATH}/disconnect`, async (c) => {
    const form = await formOf(c)
    if (form instanceof Response) return form
    const session = await sessions.current(c)
    if (!session) return refused(c, 'You are not signed in, or your session ended.', 403)
    if (!formTokens.check(`connections ${session.id}`, form.get('csrf'))) {
      return refused(c, 'This form is out of date or did not come from this page.')
    }
    const grantId = form.get('grant') ?? ''
    const outcome = grantId ? await connections.disconnect(session.subject, grantId) : 'not found'
    if (outcome === 'not found') {
      return refused(c, 'There is no such connection in your account (it may have ended).', 404)
    }
    log.info('assistant disconnected from the connections page')
    return c.redirect(CONNECTIONS_PATH, 303)
  })

  /** The signed-in person's grant of the URL, and what may be chosen for it; else the answer. */
  async function coverageOf(c: Context) {
    const session = await sessions.current(c)
    if (!session) return refused(c, 'You are not signed in, or your session ended.', 403)
    const link = await connections.one(session.subject, c.req.param('grant') ?? '')
    if (!link)
      return refused(c, 'There is no such connection in your account (it may have ended).', 404)
    const clientName = (await connections.of(session.subject)).find(
      (one) => one.grantId === link.grantId,
    )!.clientName
    const read = await deps.offers.read(link.service, link.credentialId, link.account)
    const form = (state: Pick<ChoiceForm, 'access' | 'chosen'>): ChoiceForm => {
      const query = c.req.query('q')?.slice(0, 200) || undefined
      const path = coveragePath(link.grantId)
      return {
        service: link.service,
        action: query ? `${path}?${new URLSearchParams({ q: query })}` : path,
        unfiltered: path,
        csrf: formTokens.issue(`coverage ${session.id} ${link.grantId}`),
        offer: read.offer,
        unavailable: read.unavailable,
        query,
        buttons: ['Save'],
        ...state,
      }
    }
    return { session, link, clientName, read, form }
  }

  app.get(`${CONNECTIONS_PATH}/:grant/coverage`, async (c) => {
    const at = await coverageOf(c)
    if (at instanceof Response) return at
    const { link, clientName, form } = at
    const now = link.coverage
    return coveragePage(c, {
      clientName,
      service: link.service,
      form: form(
        now.all ? { access: 'all', chosen: new Set() } : { access: 'chosen', chosen: now.ids },
      ),
    })
  })

  app.post(`${CONNECTIONS_PATH}/:grant/coverage`, async (c) => {
    const at = await coverageOf(c)
    if (at instanceof Response) return at
    const { session, link, clientName, read, form } = at
    const again = (
      message: string,
      state: Pick<ChoiceForm, 'access' | 'chosen'>,
      status: PageStatus = 400,
    ) =>
      coveragePage(c, { clientName, service: link.service, form: form(state) }, { message, status })
    // What this page drew of the person's items is all its form can name.
    const offered = read.offer?.groups.flatMap((group) => group.items.map((item) => item.id))
    const posted = await formFromOwnPage(c, deps.publicUrl, formBound('resource', offered ?? []))
    if (typeof posted === 'string')
      return again(
        FORM_PROBLEM_MESSAGE[posted],
        { access: 'chosen', chosen: new Set() },
        FORM_PROBLEM_STATUS[posted],
      )
    if (!formTokens.check(`coverage ${session.id} ${link.grantId}`, posted.get('csrf')))
      return refused(c, 'This form is out of date or did not come from this page.')
    if (!posted.has('Save'))
      return again('Choose, then press Save.', { access: 'chosen', chosen: new Set() })
    const chosen = readChoice(link.service, posted, read.offer)
    if ('problem' in chosen) return again(chosen.problem, chosen)
    if ((await connections.cover(link, chosen.coverage)) === 'not found')
      return refused(c, 'There is no such connection in your account (it may have ended).', 404)
    log.info(
      { service: link.service, coverage: chosen.coverage.all ? 'all' : 'chosen' },
      'grant coverage changed',
    )
    const saved = `Saved: ${clientName} may now use ${coverageWords(link.service, chosen.coverage)}.`
    return c.redirect(`${CONNECTIONS_PATH}?${new URLSearchParams({ saved })}`, 303)
  })

  const onSignIn: AccountPages['onSignIn'] = async (c, callbackUrl) => {
    const result = await signIn.complete(c, callbackUrl)
    if (!result.ok) {
      return problemPage(c, 'Not signed in', result.message, result.status, {
        href: CONNECTIONS_PATH,
        label: 'Sign in again',
      })
    }
    await sessions.start(c, result.signedIn.subject)
    return c.redirect(result.signedIn.returnTo, 303)
  }

  const signInFor = (pagePath: string) =>
    new SignIn(deps.upstream, formTokens, deps.publicUrl, pagePath)

  return { routes: app, onSignIn, sessions, signInFor }
}
