import type { IdTokenSigner } from './id-token.js'

/**
 * How one origin's OAuth server behaves where the generic provider and Google differ
 * (docs/sandbox.md, "OAuth 2.0 server" and "OAuth"): configuration for the shared handlers, so each
 * rule lives once.
 */
export interface OAuthProfile {
  /** The path of the sign-in and consent page; its form posts back there. */
  authorizePath: string
  /** Google's callback also echoes the granted scopes, `authuser=0` and `prompt=consent`. */
  callbackEchoesGrant: boolean
  /**
   * Google issues a refresh token only for `access_type=offline`; the generic provider with every
   * code.
   */
  refreshTokenOnlyOffline: boolean
  /**
   * What revoking one token ends: its own grant (the generic provider), or every token the person
   * holds for that client across all their grants (Google).
   */
  revocationEnds: 'grant' | 'person-and-client'
  /** Google's own client sends the token to revoke in the query string, with no body. */
  revokeTokenInQuery: boolean
  /** Google's userinfo answers only a token that was granted `openid`. */
  userinfoNeedsOpenid: boolean
  /** Signs an ID token for every token answer of a grant that holds `openid`; none when absent. */
  idTokens?: IdTokenSigner
  /** The `invalid_grant` description for a refresh token that is revoked or unknown. */
  deadRefreshToken: string
}

export const GENERIC_OAUTH: OAuthProfile = {
  authorizePath: '/oauth/authorize',
  callbackEchoesGrant: false,
  refreshTokenOnlyOffline: false,
  revocationEnds: 'grant',
  revokeTokenInQuery: false,
  userinfoNeedsOpenid: false,
  deadRefreshToken: 'The refresh token is revoked, unknown, or was issued to another client.',
}
