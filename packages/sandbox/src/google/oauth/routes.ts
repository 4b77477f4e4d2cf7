import { Hono } from 'hono'
import { decideAuthorize, showAuthorize } from '../../auth/authorize.js'
import { revocationEndpoint } from '../../auth/revocation.js'
import { tokenEndpoint } from '../../auth/token-endpoint.js'
import { userinfo } from '../../auth/userinfo.js'
import type { IdTokenSigner } from '../../core/id-token.js'
import type { SandboxEnv } from '../../core/state.js'
import { AUTHORIZE_PATH } from '../dialect.js'
import { GOOGLE_OAUTH_PATHS as PATHS, openidConfiguration } from './discovery.js'

/**
 * Google's OAuth 2.0 and OpenID Connect endpoints at G (docs/sandbox.md, "OAuth"): the generic
 * dialect's handlers, behaving as Google's under the Google dialect's OAuth profile.
 */
export function googleOAuthRoutes(signer: IdTokenSigner) {
  const oauth = new Hono<SandboxEnv>()
  oauth.get('/.well-known/openid-configuration', openidConfiguration)
  oauth.get(AUTHORIZE_PATH, showAuthorize)
  oauth.post(AUTHORIZE_PATH, decideAuthorize)
  oauth.post(PATHS.token, tokenEndpoint)
  oauth.post(PATHS.revoke, revocationEndpoint)
  oauth.on(['GET', 'POST'], PATHS.userinfo, userinfo)
  // The keys ID tokens are signed with: a JWK Set, and the same key as PEM by kid, which is
  // what google-auth-library's verifyIdToken fetches on Node.
  oauth.get(PATHS.jwks, async (c) => c.json(await signer.jwks()))
  oauth.get(PATHS.pems, async (c) => c.json(await signer.pems()))
  return oauth
}
