import type { KoaContextWithOIDC, Provider } from 'oidc-provider'
import type { GrantRevocation } from '../metrics/labels.js'
import type { Metrics } from '../metrics/metrics.js'

/**
 * What the authorization server counts, from oidc-provider's events (its docs/events.md):
 *
 * - `grant.success`: the token endpoint issued an access token, by the request's grant type
 *   (`authorization_code`, or `refresh_token`: a refresh, which also rotates the refresh token);
 * - `grant.error`: it refused, by OAuth error code;
 * - `grant.revoked`: a grant ended at the authorization server, at the revocation endpoint
 *   (RFC 7009) or at the token endpoint (a code or a refresh token used twice);
 * - `registration_create.success`: a client registered itself.
 *
 * Only the grant type, the error code and the route become labels: never a token, a client or a
 * grant id.
 */
export function countTokens(provider: Provider, metrics: Metrics): void {
  provider.on('grant.success', (ctx: KoaContextWithOIDC) =>
    metrics.tokenIssued(ctx.oidc.params?.grant_type),
  )
  provider.on('grant.error', (_ctx: KoaContextWithOIDC, error: { error?: unknown }) =>
    metrics.tokenRefused(error.error),
  )
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC) =>
    metrics.grantRevoked(revokedBy(ctx.oidc.route)),
  )
  provider.on('registration_create.success', () => metrics.clientRegistered())
}

const revokedBy = (route: string): GrantRevocation =>
  route === 'revocation' ? 'revocation' : route === 'token' ? 'replay' : 'other'
