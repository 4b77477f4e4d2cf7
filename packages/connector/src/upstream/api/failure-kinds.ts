/**
 * What a failed call to the provider ended in, by the kind the tool layer acts on (errors.ts
 * maps the provider's answers onto these): the provider refused the arguments (`invalid`,
 * `failed_precondition`, `not_found`, `permission`, `conflict`), limited the rate
 * (`rate_limited`), has used up a quota for the day or the hour (`quota_exhausted`), has not
 * enabled the service's API for the connector's client (`api_disabled`), is not available
 * (`unavailable`: 5xx, timeout, network, calls paused), lost the answer to a change
 * (`outcome_unknown`), or answered what the connector cannot read (`malformed`).
 */
export const UPSTREAM_FAILURE_KINDS = [
  'invalid',
  'failed_precondition',
  'not_found',
  'permission',
  'conflict',
  'rate_limited',
  'quota_exhausted',
  'api_disabled',
  'unavailable',
  'outcome_unknown',
  'malformed',
] as const
export type UpstreamFailureKind = (typeof UPSTREAM_FAILURE_KINDS)[number]
