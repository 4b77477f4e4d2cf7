import { Hono } from 'hono'
import type { InteractionDeps } from '../auth/interaction-deps.js'
import { CONNECTIONS_PATH } from '../pages/connections-page.js'
import { problemPage } from '../pages/problem-page.js'
import { coverageRoutes } from './coverage-routes.js'
import { disconnectRoutes } from './disconnect-routes.js'
import { accountPage } from './page-context.js'
import type { NotificationsOffer } from '../pages/devices-section.js'
import { deviceRoutes } from './device-routes.js'
import type { PersonSession, PersonSessions } from './sessions.js'
import type { AccountDeps } from './account-deps.js'
import { SignIn } from './sign-in.js'
import { sessionRoutes } from './session-routes.js'

/**
 * The person's own page on the connector, `/connections`:
 *
 *   GET  /connections             signed out: what it is, and Sign in; signed in: their assistants
 *   POST /connections/sign-in     off to the provider (identity only), back through /upstream/callback
 *   POST /connections/disconnect  ends one of their grants (its upstream token revoked and erased)
 *   GET  /connections/{grant}/coverage   what one of their grants may use, read live, to change
 *   POST /connections/{grant}/coverage   Save: from the grant's next call on, on every replica
 *   POST /connections/devices, /connections/devices/remove   turning notifications on and off
 *   POST /connections/sign-out
 *
 * Every post is refused when sent from another site or without the form's CSRF token (a MAC of
 * the session, or of the sign-in nonce); a disconnect acts only on a grant of the signed-in person.
 */

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
  /** The button that turns notifications on, for the signed-in person; undefined without push. */
  notificationsOffer(session: PersonSession): NotificationsOffer | undefined
}

/** Each group of routes in its own file, all on one app. */
export function accountRoutes(deps: AccountDeps): AccountPages {
  const page = accountPage(deps)
  const app = new Hono()
  sessionRoutes(app, page)
  disconnectRoutes(app, page)
  coverageRoutes(app, page)
  deviceRoutes(app, page)

  const onSignIn: AccountPages['onSignIn'] = async (c, callbackUrl) => {
    const result = await page.signIn.complete(c, callbackUrl)
    if (!result.ok) {
      return problemPage(c, 'Not signed in', result.message, result.status, {
        href: CONNECTIONS_PATH,
        label: 'Sign in again',
      })
    }
    await page.sessions.start(c, result.signedIn.subject)
    return c.redirect(result.signedIn.returnTo, 303)
  }

  const signInFor = (pagePath: string) =>
    new SignIn(deps.upstream, deps.formTokens, deps.publicUrl, pagePath)

  return {
    routes: app,
    onSignIn,
    sessions: page.sessions,
    signInFor,
    notificationsOffer: page.notificationsOffer,
  }
}
