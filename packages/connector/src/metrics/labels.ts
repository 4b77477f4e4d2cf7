import { SHARED_QUOTA_NAMES, type SharedQuotaName } from '../config/config.js'

/**
 * Every value a metric's label can take, in small fixed sets (docs/operations.md, "Metrics": never
 * a token, a person's data or a payload in a label). Besides these, labels hold only the service
 * names (config/config.ts) and the tool names of the definitions, registered at startup. An id, a
 * URL or a text from a request never becomes a label: what is not in its set is counted as `other`.
 * docs/operations.md ("Metrics") describes each set.
 */

/**
 * How a tool call ended:
 * - `ok`: the tool's result;
 * - `tool_error`: an `isError` result the model can act on: arguments refused before anything was
 *   sent, or a provider 4xx (invalid, a rule broken, not found, no permission, changed since read);
 * - `approval_pending`: the call stopped to ask the person (in the client, or with a link to the
 *   approval page); the same call comes again once they have answered;
 * - `refused`: the change was not approved: declined, cancelled, expired, already used, or an
 *   answer that was not for this call;
 * - `upstream_error`: the provider failed: 429, 5xx, timeout, network, open circuit, an answer
 *   not understood, or the upstream token could not be renewed;
 * - `rate_limited`: refused by the connector's own per-grant tool-call limit;
 * - `over_share`: refused before anything was sent: the person is beyond their fair share of one
 *   of the provider project's daily quotas, and the project has no room left for more;
 * - `revoked`: the provider revoked the credential during the call (the answer is a 401);
 * - `internal_error`: a fault of the connector.
 */
export const TOOL_OUTCOMES = [
  'ok',
  'tool_error',
  'approval_pending',
  'refused',
  'upstream_error',
  'rate_limited',
  'over_share',
  'revoked',
  'internal_error',
] as const
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number]

/**
 * How the person was asked to approve a change: `elicitation` (a form in the assistant's own
 * interface), `url_elicitation` (the assistant opens the approval page), `link` (a result with
 * the approval page's link, for a client that cannot be asked).
 */
export const APPROVAL_CHANNELS = ['elicitation', 'url_elicitation', 'link'] as const
export type ApprovalChannel = (typeof APPROVAL_CHANNELS)[number]

/** What became of an approval: decided by the person, or run out undecided (or unused). */
export const APPROVAL_DECISIONS = ['approved', 'declined', 'expired'] as const
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number]

/**
 * The provider project's daily quotas that the connector shares out (src/quotas), as labels:
 * `tasks_queries_per_day`, ...
 */
export const quotaLabel = (name: SharedQuotaName) =>
  name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
export const QUOTA_LABELS: readonly string[] = SHARED_QUOTA_NAMES.map(quotaLabel)

/** The connector's own rate limits (`tool_call`: per grant, in the MCP layer). */
export { RATE_LIMIT_NAMES, type RateLimitName } from '../config/config.js'

/** The token endpoint's grants that issue an access token. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'other'] as const
export type GrantType = (typeof GRANT_TYPES)[number]

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

/**
 * Why the authorization server revoked a grant: `revocation` (RFC 7009, the client revoked one
 * of its tokens), `replay` (a code or refresh token used twice), `other`.
 */
export const GRANT_REVOCATIONS = ['revocation', 'replay', 'other'] as const

/** Where a request met the store away and was told to try again (503). */
export const STORE_AWAY_SURFACES = ['mcp', 'oauth', 'page'] as const
export type StoreAwaySurface = (typeof STORE_AWAY_SURFACES)[number]
export type GrantRevocation = (typeof GRANT_REVOCATIONS)[number]

/**
 * How a renewal of an upstream access token ended: `ok`; `revoked` (invalid_grant, or no refresh
 * token: the credential is erased); `unavailable` (429, 5xx, timeout, network); `refused` (any
 * other OAuth error: the connector's configuration); `error` (anything else).
 */
export const UPSTREAM_REFRESH_OUTCOMES = [
  'ok',
  'revoked',
  'unavailable',
  'refused',
  'error',
] as const
export type UpstreamRefreshOutcome = (typeof UPSTREAM_REFRESH_OUTCOMES)[number]

/** Why an upstream token was renewed: it was expiring, or the provider rejected it (401). */
export const UPSTREAM_REFRESH_REASONS = ['expiry', 'rejected'] as const
export type UpstreamRefreshReason = (typeof UPSTREAM_REFRESH_REASONS)[number]

/** The states of a circuit breaker (cockatiel's, by name). */
export const CIRCUIT_STATES = ['closed', 'open', 'half_open', 'isolated'] as const
export type CircuitStateName = (typeof CIRCUIT_STATES)[number]

/**
 * The HTTP statuses of the provider's answers counted by their own code; any other is counted by
 * its class (`2xx` ... `5xx`, and `other` outside 100-599).
 */
export const UPSTREAM_STATUS_CODES = [
  200, 201, 204, 304, 400, 401, 403, 404, 409, 410, 412, 413, 422, 429, 500, 502, 503, 504,
] as const
export const UPSTREAM_STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'] as const

/**
 * How a call to the provider ended without an answer: `timeout` (its deadline passed),
 * `network` (no connection, or it broke), `circuit_open` (not sent: the breaker is open),
 * `no_token` (not sent: the grant could give no upstream token).
 */
export const UPSTREAM_NO_ANSWER = ['timeout', 'network', 'circuit_open', 'no_token'] as const
export type UpstreamNoAnswer = (typeof UPSTREAM_NO_ANSWER)[number]

/**
 * What a failed call to the provider ended in, by the kind the tool layer acts on
 * (upstream/api/errors.ts): the provider refused the arguments (`invalid`, `failed_precondition`,
 * `not_found`, `permission`, `conflict`), limited the rate (`rate_limited`), has used up a quota
 * for the day or the hour (`quota_exhausted`), has not enabled the service's API for the
 * connector's client (`api_disabled`), is not available (`unavailable`: 5xx, timeout, network,
 * calls paused), lost the answer to a change (`outcome_unknown`), or answered what the connector
 * cannot read (`malformed`).
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

/** An upstream call's `status` label: its last HTTP status, or why it had none. */
export type UpstreamStatus = number | UpstreamNoAnswer

const KNOWN_CODES: ReadonlySet<number> = new Set(UPSTREAM_STATUS_CODES)

/** The label of an HTTP status: the code itself if it is one of the known ones, else its class. */
export function statusLabel(status: number): string {
  if (KNOWN_CODES.has(status)) return String(status)
  if (Number.isInteger(status) && status >= 100 && status <= 599)
    return UPSTREAM_STATUS_CLASSES[Math.floor(status / 100) - 1]!
  return 'other'
}

/** `value` if it is one of `allowed`, else `other`. */
export function oneOf<T extends string>(allowed: readonly T[], value: unknown): T {
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : ('other' as T)
}
