/**
 * What the upstream client tells of its renewals of upstream access tokens at the provider, for
 * whoever counts them (packages/connector/src/metrics listens), and the words it tells them in.
 */

export interface UpstreamEvents {
  /** A renewal at the provider ended: once per renewal, however many callers wait on it. */
  refresh: [reason: UpstreamRefreshReason, outcome: UpstreamRefreshOutcome]
}

/** Why an upstream token is renewed. */
export const REFRESH_REASON_MEANINGS = {
  expiry: 'it was expiring',
  rejected: 'the provider rejected it (a 401)',
} as const
export type UpstreamRefreshReason = keyof typeof REFRESH_REASON_MEANINGS

/** How a renewal ended. */
export const REFRESH_OUTCOME_MEANINGS = {
  ok: 'a fresh token',
  revoked: '`invalid_grant`, or no refresh token: the credential is erased and its grants end',
  unavailable: '429, 5xx, timeout, network',
  refused: "another OAuth error, such as `invalid_client`: the connector's own configuration",
  error: 'anything else',
} as const
export type UpstreamRefreshOutcome = keyof typeof REFRESH_OUTCOME_MEANINGS
