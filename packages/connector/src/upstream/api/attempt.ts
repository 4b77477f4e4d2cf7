import type { Dispatcher } from 'undici'
import { errorCode } from '../../http/outbound.js'
import {
  errorForAnswer,
  lostAnswer,
  malformedAnswer,
  noAnswerInTime,
  unreachable,
  type UpstreamApiError,
} from './errors.js'

/**
 * One request to the provider and what its answer means for the call: a result, or a failure
 * that says whether sending it again is safe and whether it speaks against the provider's health.
 */

export interface ApiResult {
  status: number
  /** The parsed JSON body, or undefined for an empty one. */
  body: unknown
  /** The body's JSON text as it came. */
  text?: string
  etag?: string
}

/**
 * An attempt that did not give a result. Internal to the client: the retry policy reads
 * `retryable` and `retryAfterMs`, the breaker reads `providerFault`, and the caller gets `outcome`.
 */
export class AttemptFailure extends Error {
  override name = 'AttemptFailure'
  /** Set by the backoff when the deadline leaves no time to try again: the call ends in this. */
  outOfTime = false
  constructor(
    /** What the call ends in when this is the last attempt. */
    readonly outcome: UpstreamApiError,
    /** Sending the same request again is safe and may succeed. */
    readonly retryable: boolean,
    /** A 5xx, a timeout or a failed connection: counts towards opening the circuit. */
    readonly providerFault: boolean,
    /** When to try again, as the provider said (Retry-After); else the policy's backoff. */
    readonly retryAfterMs: number | undefined,
    /** `performance.now()` at which the call's deadline passes: no retry waits past it. */
    readonly deadlineAt: number,
  ) {
    super(outcome.message)
  }
}

/** The provider answered 401 to this token: the caller refreshes and tries once more. */
export class TokenRejected extends Error {
  override name = 'TokenRejected'
}

/**
 * Error codes of a connection that was never made, so the request certainly did not leave:
 * the only failures after which a change (a non-idempotent call) may be sent again.
 */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])

export interface Exchange {
  /** What undici sends: origin, path with query, method, headers, body, and the deadline's signal. */
  readonly request: Dispatcher.RequestOptions & { signal: AbortSignal }
  readonly idempotent: boolean
  readonly token: string
  readonly deadlineAt: number
  readonly deadlineMs: number
  /** The provider's console's hosts: an answer's link to enable an API passes only to one. */
  readonly consoleHosts?: readonly string[]
}

/**
 * Sends the request once and reads its answer once, with undici's `request` on a pool of
 * kept-alive connections rather than with fetch, which wraps the same exchange in WHATWG
 * Request, Response, Headers and stream objects (measured in docs/decisions.md,
 * "Connector hot path").
 */
export async function attempt(exchange: Exchange, dispatcher: Dispatcher): Promise<ApiResult> {
  let res: Dispatcher.ResponseData
  let text: string
  try {
    res = await dispatcher.request(exchange.request)
    text = await res.body.text()
  } catch (error) {
    throw lostConnection(exchange, error)
  }
  return answer(exchange, res.statusCode, res.headers, text)
}

function answer(
  exchange: Exchange,
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  text: string,
): ApiResult {
  if (status >= 200 && status < 300) {
    let body: unknown = undefined
    if (text) {
      try {
        body = JSON.parse(text)
      } catch {
        throw new AttemptFailure(
          malformedAnswer(status, !exchange.idempotent),
          false,
          false,
          undefined,
          exchange.deadlineAt,
        )
      }
    }
    const etag = header(headers, 'etag')
    const result: ApiResult = { status, body }
    if (text) result.text = text
    if (etag !== undefined) result.etag = etag
    return result
  }
  if (status === 401) throw new TokenRejected('the provider answered 401')

  let body: unknown = undefined
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    // Not the provider's error shape: errorForAnswer decides from the status alone.
  }
  // A limit on the rate (a 429, or a 403 that says so) or a 503 is a refusal: nothing was done,
  // so even a change may be sent again, after the provider's Retry-After if it gave one. A quota
  // used up or an API not enabled is no refusal to wait out.
  const hinted = retryAfter(header(headers, 'retry-after'))
  const outcome = errorForAnswer(
    status,
    body,
    exchange.idempotent,
    hinted === undefined ? undefined : Math.ceil(hinted / 1000),
    exchange.token,
    exchange.consoleHosts,
  )
  const refused = status === 503 || outcome.kind === 'rate_limited'
  const retryAfterMs = refused ? hinted : undefined
  const left = exchange.deadlineAt - performance.now()
  // Told to come back after the deadline: say when, without waiting for it.
  const tooLate = retryAfterMs !== undefined && retryAfterMs >= left
  const serverFault = status === 500 || status === 502 || status === 503 || status === 504
  // After a 500, 502 or 504 only a call that is safe to repeat is sent again.
  const retryable = !tooLate && (refused || (serverFault && exchange.idempotent))
  throw new AttemptFailure(outcome, retryable, serverFault, retryAfterMs, exchange.deadlineAt)
}

/** A response header (undici gives names in lower case); the first of repeated ones. */
function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** The request failed: the deadline passed, the connection could not be made, or it broke. */
function lostConnection(exchange: Exchange, error: unknown): AttemptFailure {
  const { idempotent, deadlineAt } = exchange
  if (exchange.request.signal.aborted)
    return new AttemptFailure(
      noAnswerInTime(exchange.deadlineMs, idempotent),
      false,
      true,
      undefined,
      deadlineAt,
    )
  if (NOT_SENT.has(errorCode(error) ?? ''))
    return new AttemptFailure(withCause(unreachable(), error), true, true, undefined, deadlineAt)
  // Reset, closed, or cut mid-answer: the request may have reached the provider.
  return idempotent
    ? new AttemptFailure(withCause(unreachable(), error), true, true, undefined, deadlineAt)
    : new AttemptFailure(withCause(lostAnswer(), error), false, true, undefined, deadlineAt)
}

function withCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false, configurable: true })
  return error
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or bad. */
export function retryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  // An HTTP date starts with the day's name (all three of its formats do); Date.parse alone
  // would take "-5" for a year.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
