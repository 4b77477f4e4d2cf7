import type { Context } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { SHORT_SCOPES, fullScope } from './scopes.js'

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none']

/** RFC 8414 authorization server metadata; the issuer is the origin that answers. */
export function metadata(c: Context<SandboxEnv>) {
  const { origin: base, scopePrefix: prefix } = c.var.dialect
  return c.json({
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    revocation_endpoint: `${base}/oauth/revoke`,
    userinfo_endpoint: `${base}/oauth/userinfo`,
    scopes_supported: SHORT_SCOPES.map((s) => fullScope(s, prefix)),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    authorization_response_iss_parameter_supported: true,
  })
}
