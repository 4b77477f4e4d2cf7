/**
 * What can go wrong between the connector and the provider, in three kinds that callers act on
 * differently. Messages never hold a token, code or secret, so every one of them is safe to log
 * and to show.
 */

export type UpstreamAuthorizationErrorCode =
  'denied' | 'expired' | 'invalid_state' | 'provider_error'

/**
 * A connection or sign-in at the provider did not complete. The message is written for the
 * person whose browser came back, and says what to do next.
 */
export class UpstreamAuthorizationError extends Error {
  override name = 'UpstreamAuthorizationError'
  constructor(
    readonly code: UpstreamAuthorizationErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/**
 * The provider says the credential is no longer valid (invalid_grant on refresh, or 401 after
 * one refresh): the credential has already been erased when this is thrown, and the grants that
 * used it are to be ended.
 */
export class CredentialRevokedError extends Error {
  override name = 'CredentialRevokedError'
  constructor(
    readonly credentialId: string,
    message = 'The provider no longer accepts this connection: connect the service again.',
    /**
     * Set when it most likely ran out rather than was revoked: the connector's app is in Testing
     * mode at the provider, which ends every connection this many days after it was made.
     */
    readonly testingTokenDays?: number,
  ) {
    super(message)
  }
}

/**
 * A provider 429, 5xx, timeout, network failure or an answer that cannot be understood: nothing
 * was erased, and trying again later may work. `retryAfterSeconds` is set when the provider said.
 */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError'
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}
