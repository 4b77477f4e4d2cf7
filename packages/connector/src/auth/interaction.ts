import { Hono } from 'hono'
import { callbackRoutes } from './callback-routes.js'
import { choiceRoutes } from './choice-routes.js'
import { consentRoutes } from './consent-routes.js'
import type { InteractionEnv, InteractionParts, SignInReturn } from './interaction-parts.js'

/**
 * The person's part of an authorization, between oidc-provider's authorization endpoint and the
 * client's redirect URI:
 *
 *   GET  /consent/{uid}          the consent page (oidc-provider's interaction)
 *   POST /consent/{uid}          Allow: off to the provider's sign-in; Deny: access_denied
 *   GET  /upstream/callback      back from the provider: keep the credential, then the choice
 *   GET  /consent/{uid}/choose   which lists, sites or properties the grant covers (read live)
 *   POST /consent/{uid}/choose   Allow: make the grant, finish; Deny: release it, access_denied
 *
 * The consent form is bound to its interaction three ways: oidc-provider's interaction cookie
 * (only the browser that started it has it), a CSRF token (a MAC of the uid) in a hidden field,
 * and a refusal of cross-site posts. The return from the provider is bound to the same browser by
 * a cookie set when the person pressed Allow (browser-binding.ts). The choice that follows is
 * bound as the consent form is (the interaction cookie covers its path), and the credential
 * waits for it in choices.ts; the form may name only what the provider offered the person, and
 * is read no further than that could take (form-post.ts, formBound).
 */

/**
 * Each group of routes in its own file, all on one app. `onSignIn` finishes a sign-in to the
 * connector's own pages that comes back through the same callback.
 */
export function interactionRoutes(connector: InteractionParts, onSignIn?: SignInReturn) {
  const parts = { ...connector, log: connector.log.child({ component: 'consent' }) }
  const app = new Hono<InteractionEnv>()
  consentRoutes(app, parts)
  callbackRoutes(app, parts, onSignIn)
  choiceRoutes(app, parts)
  return app
}
