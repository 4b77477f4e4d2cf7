/**
 * The upstream client's OAuth side: the connector as a client of the provider, and the life of the
 * upstream credentials it holds (docs/architecture.md, "The connector's parts"; docs/design.md,
 * "The authorization server").
 *
 * The callback route `GET /upstream/callback` serves both flows that return there. It asks
 * `upstream.kindOf(url)` which one the state belongs to, then calls `complete(url)` for
 * 'authorization' or `completeSignIn(url)` for 'sign-in'; for undefined (a missing, forged or used
 * state), calling `complete(url)` throws the UpstreamAuthorizationError ('invalid_state') to show.
 * An expired state still has its kind, so that the call then says 'expired'. `kindOf` only reads;
 * the state is used up by `complete`/`completeSignIn`, exactly once, whatever the outcome.
 *
 * The route should also check that the browser bringing the callback is the one that started the
 * interaction (its interaction cookie matches the returned `interactionUid`): the state proves the
 * request came from the provider, not who carried it back.
 *
 * Errors: UpstreamAuthorizationError (a message for the person; codes 'denied', 'expired',
 * 'invalid_state', 'provider_error'), CredentialRevokedError (already erased: end the grants that
 * used it and answer 401 invalid_token), UpstreamUnavailableError (429/5xx/timeout/network or an
 * answer not understood: nothing erased; `retryAfterSeconds` when the provider said).
 */
export { Upstream, type UpstreamDeps } from './upstream.js'
export {
  REFRESH_OUTCOME_MEANINGS,
  REFRESH_REASON_MEANINGS,
  type UpstreamEvents,
  type UpstreamRefreshOutcome,
  type UpstreamRefreshReason,
} from './refresh-events.js'
export { CALLBACK_PATH, redirectUriOf } from './redirect-uri.js'
export { OAuthClient, ProviderRefusal } from './oauth-client.js'
export type { CompletedAuthorization } from './authorization.js'
export type { CompletedSignIn } from './sign-in.js'
export type { CallbackKind } from './pending.js'
export {
  CredentialRevokedError,
  UpstreamAuthorizationError,
  UpstreamUnavailableError,
  type UpstreamAuthorizationErrorCode,
} from './errors.js'
export * from './api/index.js'
