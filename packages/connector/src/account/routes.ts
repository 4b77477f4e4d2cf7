import { Hono } from 'hono'
import type { SignInReturn } from '../auth/interaction-parts.js'
import { CONNECTIONS_PATH } from '../pages/connections-page.js'
import { problemPage } from '../pages/problem-page.js'
import { coverageRoutes } from './coverage-routes.js'
import { disconnectRoutes } from './disconnect-routes.js'
import { accountPage } from './page-context.js'
import { deviceRoutes } from './device-routes.js'
import type { AccountParts } from './account-parts.js'
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
  /** For interactionRoutes: the provider's return from a sign-in started on a page of the connector. */
  onSignIn: SignInReturn
}

/** Each group of routes in its own file, all on one app. */
export function accountRoutes(connector: AccountParts): AccountPages {
  const page = accountPage({ ...connector, log: connector.log.child({ component: 'connections' }) })
  const app = new Hono()
  sessionRoutes(app, page)
  disconnectRoutes(app, page)
  coverageRoutes(app, page)
  deviceRoutes(app, page)

  const onSignIn: SignInReturn = async (c, callbackUrl) => {
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

  return { routes: app, onSignIn }
}
