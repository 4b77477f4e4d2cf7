import type { ServiceName } from '../../services/catalog.js'
import type { UpstreamFailureKind } from './failure-kinds.js'

/**
 * What the client tells of its calls, for whoever counts them (packages/connector/src/metrics
 * listens), and the words it tells them in: a call's status, by a small fixed set of values.
 */

export interface UpstreamApiEvents {
  /**
   * A call ended: `status` is its last answer's HTTP status, or why it had none; `attempts` the
   * requests sent (retries, and the one more try after a 401, included); `retries` the requests
   * sent again after a failure the retry policy retries; `started` is `performance.now()` when it
   * began; `failure` what a failed call ended in.
   */
  call: [
    service: ServiceName,
    status: UpstreamStatus,
    attempts: number,
    retries: number,
    started: number,
    failure: UpstreamFailureKind | undefined,
  ]
}

/**
 * The HTTP statuses of the provider's answers counted by their own code; any other is counted by
 * its class (`2xx` ... `5xx`, and `other` outside 100-599).
 */
export const UPSTREAM_STATUS_CODES = [
  200, 201, 204, 304, 400, 401, 403, 404, 409, 410, 412, 413, 422, 429, 500, 502, 503, 504,
] as const
export const UPSTREAM_STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'] as const

/** How a call to the provider ended without an answer, and what each means. */
export const NO_ANSWER_MEANINGS = {
  timeout: "the call's deadline passed",
  network: 'no connection, or it broke',
  circuit_open: 'not sent, or not sent again: the breaker is open',
  no_token: 'not sent: the grant could give no upstream token',
} as const
export type UpstreamNoAnswer = keyof typeof NO_ANSWER_MEANINGS

/** A call's status: its last HTTP status, or why it had none. */
export type UpstreamStatus = number | UpstreamNoAnswer

const KNOWN_CODES: ReadonlySet<number> = new Set(UPSTREAM_STATUS_CODES)

/** The label of a status: a known code itself, else its class; a reason for no answer as it is. */
export function statusLabel(status: UpstreamStatus): string {
  if (typeof status !== 'number') return status
  if (KNOWN_CODES.has(status)) return String(status)
  if (Number.isInteger(status) && status >= 100 && status <= 599)
    return UPSTREAM_STATUS_CLASSES[Math.floor(status / 100) - 1]!
  return 'other'
}
