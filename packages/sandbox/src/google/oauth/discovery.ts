import type { Context } from 'hono'
import { SHORT_SCOPES, fullScope } from '../../auth/scopes.js'
import type { SandboxEnv } from '../../core/state.js'

/** Where G's OAuth endpoints are, as Google's own paths. */
export const GOOGLE_OAUTH_PATHS = {
  token: '/token',
  revoke: '/revoke',
  userinfo: '/v1/userinfo',
  jwks: '/oauth2/v3/certs',
  pems: '/oauth2/v1/certs',
} as const

/**
 * `GET /.well-known/openid-configuration`: G's OpenID Connect discovery document, shaped as
 * Google's (docs/sandbox.md, "OAuth"), with G's origin as issuer. PKCE is S256 only, as at S.
 */
export function openidConfiguration(c: Context<SandboxEnv>) {
  const { origin, scopePrefix, oauth } = c.var.dialect
  return c.json({
    issuer: origin,
    authorization_endpoint: origin + oauth.authorizePath,
    token_endpoint: origin + GOOGLE_OAUTH_PATHS.token,
    userinfo_endpoint: origin + GOOGLE_OAUTH_PATHS.userinfo,
    revocation_endpoint: origin + GOOGLE_OAUTH_PATHS.revoke,
    jwks_uri: origin + GOOGLE_OAUTH_PATHS.jwks,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: SHORT_SCOPES.map((s) => fullScope(s, scopePrefix)),
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    claims_supported: ['aud', 'azp', 'exp', 'iat', 'iss', 'nonce', 'sub', 'at_hash'],
    code_challenge_methods_supported: ['S256'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
  })
}
