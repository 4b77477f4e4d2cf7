import { Hono } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { decideAuthorize, showAuthorize } from './authorize.js'
import { metadata } from './metadata.js'
import { revocationEndpoint } from './revocation.js'
import { tokenEndpoint } from './token-endpoint.js'
import { userinfo } from './userinfo.js'

/** The sandbox's OAuth 2.0 authorization server; any other path falls through to the 404. */
export function oauthRoutes() {
  const oauth = new Hono<SandboxEnv>()
  oauth.get('/.well-known/oauth-authorization-server', metadata)
  oauth.get('/oauth/authorize', showAuthorize)
  oauth.post('/oauth/authorize', decideAuthorize)
  oauth.post('/oauth/token', tokenEndpoint)
  oauth.post('/oauth/revoke', revocationEndpoint)
  oauth.get('/oauth/userinfo', userinfo)
  return oauth
}
