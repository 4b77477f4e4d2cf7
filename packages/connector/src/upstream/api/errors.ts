/**
 * What a call to the provider's API can end in, other than a result, and how the provider's
 * answers map onto it (DESIGN §4: `{"error":{"code","message","status","errors":[{"reason"}]}}`).
 *
 * `message` is always our own words and holds nothing from the request or the answer, so it is
 * safe to log. The provider's own message, which may echo ids or titles, is kept apart in
 * `providerMessage`: for a model to read, never for the logs.
 */

export type UpstreamApiErrorKind =
  | 'invalid'
  | 'failed_precondition'
  | 'not_found'
  | 'permission'
  /** 412 (If-Match) and 409: the resource changed since it was read. */
  | 'conflict'
  | 'rate_limited'
  | 'unavailable'
  /** A change was sent and no answer came back: it may or may not have been carried out. */
  | 'outcome_unknown'
  | 'malformed'

export interface UpstreamApiErrorDetails {
  status?: number
  reason?: string
  retryAfterSeconds?: number
  providerMessage?: string
}

export class UpstreamApiError extends Error {
  override name = 'UpstreamApiError'
  readonly status?: number
  readonly reason?: string
  readonly retryAfterSeconds?: number
  /** The provider's own message, safe to show a model (never a token or our internals). */
  readonly providerMessage?: string

  constructor(
    readonly kind: UpstreamApiErrorKind,
    message: string,
    details: UpstreamApiErrorDetails = {},
    options?: ErrorOptions,
  ) {
    super(message, options)
    if (details.status !== undefined) this.status = details.status
    if (details.reason !== undefined) this.reason = details.reason
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds
    if (details.providerMessage !== undefined) this.providerMessage = details.providerMessage
  }
}

/** The fields of the provider's error shape that we use; undefined when the body is not it. */
export interface ProviderErrorBody {
  message: string
  status?: string
  reason?: string
}

/** A provider message longer than this is cut: it is meant for a model, not a dump. */
const MAX_PROVIDER_MESSAGE = 1_000

function readProviderError(body: unknown): ProviderErrorBody | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const error = (body as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return undefined
  const { message, status, errors } = error as {
    message?: unknown
    status?: unknown
    errors?: unknown
  }
  if (typeof message !== 'string') return undefined
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined
  const reason =
    typeof first === 'object' && first !== null ? (first as { reason?: unknown }).reason : undefined
  return {
    message:
      message.length > MAX_PROVIDER_MESSAGE ? message.slice(0, MAX_PROVIDER_MESSAGE) : message,
    status: typeof status === 'string' ? status : undefined,
    reason: typeof reason === 'string' ? reason : undefined,
  }
}

/**
 * The error for an answer that is not a success (nor a 401, which the client handles itself).
 *
 * The HTTP status decides the kind; the body refines a 400 (INVALID_ARGUMENT or
 * FAILED_PRECONDITION) and supplies the provider's message and reason. A 400 or an unexpected
 * status whose body is not the provider's shape is `malformed`: we cannot tell what went wrong.
 * A 404, 403, 412, 429 or 5xx keeps its kind whatever the body (a proxy's HTML 502 is still the
 * provider being unavailable, and must be retried as such).
 *
 * `token` is the bearer token the request carried: it never reaches `providerMessage`.
 *
 * `idempotent` matters for 500, 502 and 504 only: for a change, such an answer does not say
 * whether the change was made (the provider may have failed after making it, a gateway may have
 * passed it on), so it is `outcome_unknown`. A 503 or 429 is a refusal: nothing was done.
 */
export function errorForAnswer(
  status: number,
  body: unknown,
  idempotent: boolean,
  retryAfterSeconds: number | undefined,
  token: string,
): UpstreamApiError {
  const provider = readProviderError(body)
  const details: UpstreamApiErrorDetails = {
    status,
    reason: provider?.reason,
    // A provider has no reason to echo the bearer token, but if one did, it stops here.
    providerMessage: token ? provider?.message.replaceAll(token, '[token]') : provider?.message,
    retryAfterSeconds,
  }
  if (status === 400) {
    if (!provider) return malformedAnswer(status)
    if (provider.status === 'FAILED_PRECONDITION')
      return new UpstreamApiError(
        'failed_precondition',
        'The provider refused the request: one of its rules does not allow it (HTTP 400).',
        details,
      )
    return new UpstreamApiError(
      'invalid',
      'The provider rejected the request as invalid (HTTP 400).',
      details,
    )
  }
  if (status === 413 || status === 422)
    return new UpstreamApiError(
      'invalid',
      `The provider rejected the request as invalid (HTTP ${status}).`,
      details,
    )
  if (status === 403)
    return new UpstreamApiError(
      'permission',
      'The provider refused access (HTTP 403): the connection lacks the permission, or the resource is not the user’s.',
      details,
    )
  if (status === 404 || status === 410)
    return new UpstreamApiError(
      'not_found',
      `The provider has no such resource (HTTP ${status}).`,
      details,
    )
  if (status === 409 || status === 412)
    return new UpstreamApiError(
      'conflict',
      `The resource changed since it was read (HTTP ${status}): read it again before changing it.`,
      details,
    )
  if (status === 429)
    return new UpstreamApiError(
      'rate_limited',
      retryAfterSeconds !== undefined
        ? `The provider is limiting the rate of requests (HTTP 429): try again in ${retryAfterSeconds} s.`
        : 'The provider is limiting the rate of requests (HTTP 429): try again later.',
      details,
    )
  if (!idempotent && (status === 500 || status === 502 || status === 504))
    return new UpstreamApiError(
      'outcome_unknown',
      `The provider failed while handling the change (HTTP ${status}): it may or may not have been made. Check before trying again.`,
      details,
    )
  if (status >= 500 && status <= 599)
    return new UpstreamApiError(
      'unavailable',
      `The provider is not available (HTTP ${status}): try again in a minute.`,
      details,
    )
  return malformedAnswer(status)
}

/**
 * An answer we cannot read. A success to a change (`changeMade`) still means the change was
 * made: the message says so, so that nobody sends it again.
 */
export const malformedAnswer = (status: number, changeMade = false) =>
  new UpstreamApiError(
    'malformed',
    changeMade
      ? `The provider carried out the change (HTTP ${status}) but its answer cannot be understood: do not send it again; read the result instead.`
      : `The provider gave an answer the connector does not understand (HTTP ${status}).`,
    { status },
  )

export const circuitOpen = (cause: unknown) =>
  new UpstreamApiError(
    'unavailable',
    'The provider is not answering; try again in a minute.',
    {},
    { cause },
  )

export const noAnswerInTime = (deadlineMs: number, idempotent: boolean) =>
  idempotent
    ? new UpstreamApiError(
        'unavailable',
        `The provider did not answer within ${deadlineMs} ms; try again in a minute.`,
      )
    : lostAnswer(`The provider did not answer within ${deadlineMs} ms`)

export const unreachable = () =>
  new UpstreamApiError(
    'unavailable',
    'The provider cannot be reached (the connection failed); try again in a minute.',
  )

/** A change was sent and the answer was lost: never sent again by the client. */
export const lostAnswer = (what = 'The connection to the provider was lost') =>
  new UpstreamApiError(
    'outcome_unknown',
    `${what} after the change was sent: it may or may not have been made. Check before trying again.`,
  )
