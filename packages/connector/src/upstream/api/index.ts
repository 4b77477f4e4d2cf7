/**
 * Calls to the provider's APIs for the tool layer: `new UpstreamApi({ apiBase, log })`, then
 * `api.call({ service, method, path, pathParams, query, body, ifMatch, idempotent }, grant)`.
 * Failures are UpstreamApiError with a `kind` to act on (failure-kinds.ts); see client.ts. Each
 * call's end is told on `api.events` (call-events.ts).
 */
export {
  UpstreamApi,
  DEFAULT_API_DEADLINE_MS,
  type ApiCall,
  type ApiGrant,
  type ApiMethod,
  type UpstreamApiDeps,
} from './client.js'
export type { ApiResult } from './attempt.js'
export { CIRCUIT_STATES, type BreakerOptions, type CircuitStateName } from './policy.js'
export {
  statusLabel,
  NO_ANSWER_MEANINGS,
  UPSTREAM_STATUS_CLASSES,
  UPSTREAM_STATUS_CODES,
  type UpstreamApiEvents,
  type UpstreamNoAnswer,
  type UpstreamStatus,
} from './call-events.js'
export type { QueryValue } from './request.js'
export { UpstreamApiError, type UpstreamApiErrorKind } from './errors.js'
export { UPSTREAM_FAILURES, type UpstreamFailureKind } from './failure-kinds.js'
