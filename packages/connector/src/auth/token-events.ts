import type { KoaContextWithOIDC } from 'oidc-provider'

/**
 * What the authorization server tells of its tokens: oidc-provider's own events (its
 * docs/events.md), which packages/connector/src/metrics listens to, and the words they are
 * counted in. Only the grant type, the error code and the route become labels: never a token, a
 * client or a grant id.
 *
 * - `grant.success`: the token endpoint issued an access token, by the request's grant type;
 * - `grant.error`: it refused, by OAuth error code;
 * - `grant.revoked`: a grant ended at the authorization server, at the revocation endpoint
 *   (RFC 7009) or at the token endpoint (a code or a refresh token used twice);
 * - `registration_create.success`: a client registered itself.
 */

/** The token endpoint's grants that issue an access token. */
export const GRANT_TYPE_MEANINGS = {
  authorization_code: 'a connection',
  refresh_token: 'a refresh, which also rotates the refresh token',
  other: 'any other',
} as const
export type GrantType = keyof typeof GRANT_TYPE_MEANINGS

/**
 * The token endpoint's refusals (RFC 6749 §5.2, RFC 8707), as oidc-provider names them; any
 * other code is `other`.
 */
export const TOKEN_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'other',
] as const
export type TokenError = (typeof TOKEN_ERRORS)[number]

/** Why the authorization server revoked a grant. */
export const GRANT_REVOCATION_MEANINGS = {
  revocation: 'a client revoked one of its tokens (RFC 7009)',
  replay: 'a code or refresh token used twice',
  other: 'anything else',
} as const
export type GrantRevocation = keyof typeof GRANT_REVOCATION_MEANINGS

/** The grant type of a `grant.success`, as the request named it; one not of the set is `other`. */
export const grantTypeOf = (ctx: KoaContextWithOIDC): GrantType =>
  oneOf(Object.keys(GRANT_TYPE_MEANINGS) as GrantType[], ctx.oidc.params?.grant_type)

/** The OAuth error code of a `grant.error`; one not of the set is `other`. */
export const tokenErrorOf = (error: { error?: unknown }): TokenError =>
  oneOf(TOKEN_ERRORS, error.error)

/** What revoked a grant, from the route of a `grant.revoked`. */
export const revokedBy = (ctx: KoaContextWithOIDC): GrantRevocation =>
  ctx.oidc.route === 'revocation' ? 'revocation' : ctx.oidc.route === 'token' ? 'replay' : 'other'

/** `value` if it is one of `allowed`, else `other`. */
function oneOf<T extends string>(allowed: readonly T[], value: unknown): T {
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : ('other' as T)
}
