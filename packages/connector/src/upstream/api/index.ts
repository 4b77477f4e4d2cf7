/**
 * Calls to the provider's APIs for the tool layer: `new UpstreamApi({ apiBase, log })`, then
 * `api.call({ service, method, path, pathParams, query, body, ifMatch, idempotent }, grant)`.
 * Failures are UpstreamApiError with a `kind` to act on; see client.ts.
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
export type { BreakerOptions } from './policy.js'
export type { QueryValue } from './request.js'
export { UpstreamApiError, type UpstreamApiErrorKind } from './errors.js'
