import type { UpstreamFailureKind } from './failure-kinds.js'

/**
 * What a call to the provider's API can end in, other than a result, and how the provider's answers
 * map onto it (docs/design.md, "Error shapes":
 * `{"error":{"code","message","status","errors":[{"reason"}]}}`).
 *
 * `message` is always our own words and holds nothing from the request or the answer, so it is
 * safe to log. The provider's own message, which may echo ids or titles, is kept apart in
 * `providerMessage`: for a model to read, never for the logs. An API not enabled is named, and
 * linked to, from the answer too (`apiTitle`, `activationUrl`), but only once checked to be the
 * provider's words about its own setup (disabledApiOf).
 */

/** The kinds of failure: failure-kinds.ts says what each one means. */
export type UpstreamApiErrorKind = UpstreamFailureKind

export interface UpstreamApiErrorDetails {
  status?: number
  reason?: string
  retryAfterSeconds?: number
  providerMessage?: string
  /** For `quota_exhausted`: the quota's period, when the provider said it. */
  quotaPeriod?: QuotaPeriod
  /** For `api_disabled`: the API, as the provider titles it ("Google Tasks API"). */
  apiTitle?: string
  /** For `api_disabled`: the provider's link to enable it, on its console (disabledApiOf). */
  activationUrl?: string
}

export type QuotaPeriod = 'day' | 'hour'

export class UpstreamApiError extends Error {
  override name = 'UpstreamApiError'
  readonly status?: number
  readonly reason?: string
  readonly retryAfterSeconds?: number
  /** The provider's own message, safe to show a model (never a token or our internals). */
  readonly providerMessage?: string
  readonly quotaPeriod?: QuotaPeriod
  readonly apiTitle?: string
  readonly activationUrl?: string

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
    if (details.quotaPeriod !== undefined) this.quotaPeriod = details.quotaPeriod
    if (details.apiTitle !== undefined) this.apiTitle = details.apiTitle
    if (details.activationUrl !== undefined) this.activationUrl = details.activationUrl
  }
}

/** The fields of the provider's error shape that we use; undefined when the body is not it. */
export interface ProviderErrorBody {
  message: string
  status?: string
  /** The first `errors[].reason` (Google's Apiary-era APIs: Tasks, webmasters v3). */
  reason?: string
  /** Every reason it gives: `errors[].reason`, and `details[]` ErrorInfo reasons (all of Google's APIs). */
  reasons: string[]
  /** The first few `details[]` (ErrorInfo, Help, ...), as they came. */
  details: unknown[]
}

/** A provider message longer than this is cut: it is meant for a model, not a dump. */
const MAX_PROVIDER_MESSAGE = 1_000

function readProviderError(body: unknown): ProviderErrorBody | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const error = (body as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return undefined
  const { message, status, errors, details } = error as {
    message?: unknown
    status?: unknown
    errors?: unknown
    details?: unknown
  }
  if (typeof message !== 'string') return undefined
  const listed = reasonsOf(errors)
  return {
    message:
      message.length > MAX_PROVIDER_MESSAGE ? message.slice(0, MAX_PROVIDER_MESSAGE) : message,
    status: typeof status === 'string' ? status : undefined,
    reason: listed[0],
    reasons: [...listed, ...reasonsOf(details)],
    details: Array.isArray(details) ? details.slice(0, 10) : [],
  }
}

/** The string `reason`s of a list of objects (a few at most: nothing else is read). */
function reasonsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return []
  return list
    .slice(0, 10)
    .map((item: unknown) =>
      typeof item === 'object' && item !== null ? (item as { reason?: unknown }).reason : undefined,
    )
    .filter((reason): reason is string => typeof reason === 'string')
}

/**
 * What a 403 or a 429 says beyond its status (docs/sandbox.md, "Quotas"). Google's Apiary-era
 * APIs (Tasks, webmasters v3) answer quota and setup problems with 403, not 429:
 * - a limit on the rate (per second or minute, per user or per project): retried with backoff,
 *   as a 429 is;
 * - a quota used up for the day or the hour (Tasks' 50,000 queries a day per project, a GA
 *   property's tokens): not retried, said for what it is;
 * - the service's API not enabled in the project of the connector's OAuth client: not retried,
 *   said so, for the operator to fix.
 * Otherwise a 403 is the provider refusing the person access, and a 429 a limit on the rate.
 */
type Limit =
  { kind: 'api_disabled' | 'rate_limited' } | { kind: 'quota_exhausted'; period: QuotaPeriod }

function limitOf(provider: ProviderErrorBody | undefined): Limit | undefined {
  if (!provider) return undefined
  const reasons = new Set(provider.reasons)
  if (DISABLED_REASONS.some((reason) => reasons.has(reason))) return { kind: 'api_disabled' }
  const period = quotaPeriodOf(provider)
  if (period) return { kind: 'quota_exhausted', period }
  if (RATE_REASONS.some((reason) => reasons.has(reason))) return { kind: 'rate_limited' }
  return undefined
}

const DISABLED_REASONS = ['accessNotConfigured', 'SERVICE_DISABLED', 'API_DISABLED']
const RATE_REASONS = [
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'RATE_LIMIT_EXCEEDED',
  'RESOURCE_QUOTA_EXCEEDED',
]

/**
 * Which API is not enabled, and where to enable it, from Google's answer: its title from the
 * ErrorInfo's `serviceTitle`, else the "X API" its message begins with, else the ErrorInfo's
 * `service`; the link from the ErrorInfo's `activationUrl`, a Help link, or the message.
 *
 * Both reach the model, the operator's log and a person's page, and the answer is the provider's:
 * a title passes only as plain words, a link only over https to a host of the provider's console
 * (`consoleHosts`: the profile's; none, and no link passes).
 */
function disabledApiOf(
  provider: ProviderErrorBody,
  consoleHosts: readonly string[],
  token: string,
): Pick<UpstreamApiErrorDetails, 'apiTitle' | 'activationUrl'> {
  const metadata = serviceMetadata(provider.details)
  const apiTitle =
    plainTitle(metadata.serviceTitle) ??
    plainTitle(LEADING_API.exec(provider.message)?.[1]) ??
    (typeof metadata.service === 'string' && SERVICE_NAME.test(metadata.service)
      ? `${metadata.service} API`
      : undefined)
  const activationUrl = [
    metadata.activationUrl,
    ...helpLinks(provider.details),
    ...linksIn(provider.message),
  ]
    .map((candidate) => consoleLink(candidate, consoleHosts))
    .find((link) => link !== undefined && !(token && link.includes(token)))
  return { ...(apiTitle && { apiTitle }), ...(activationUrl && { activationUrl }) }
}

/** "Google Analytics Admin API has not been used in project 0 before or it is disabled." */
const LEADING_API = /^(?!The )((?:[A-Z0-9][\w-]*\s){1,7}API)\b/
const SERVICE_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/
const MAX_LINK = 500

/** The metadata of the ErrorInfo that says the service is disabled (or of the first one). */
function serviceMetadata(details: unknown[]): Record<string, unknown> {
  const infos = details.filter(
    (d): d is { reason?: unknown; metadata: Record<string, unknown> } =>
      typeof d === 'object' &&
      d !== null &&
      typeof (d as { metadata?: unknown }).metadata === 'object' &&
      (d as { metadata?: unknown }).metadata !== null,
  )
  const info = infos.find((d) => DISABLED_REASONS.includes(d.reason as string)) ?? infos[0]
  return info?.metadata ?? {}
}

/** The `links[].url` of google.rpc.Help details. */
function helpLinks(details: unknown[]): unknown[] {
  return details.flatMap((detail) => {
    const links = (detail as { links?: unknown } | null)?.links
    return Array.isArray(links)
      ? links.slice(0, 5).map((link) => (link as { url?: unknown } | null)?.url)
      : []
  })
}

/** The https URLs in a message, without the full stop or comma that may end them. */
const linksIn = (message: string) =>
  (message.match(/https:\/\/[^\s"'<>]+/g) ?? []).map((url) => url.replace(/[.,;:)]+$/, ''))

/** A title of plain words, such as "Google Analytics Admin API". */
function plainTitle(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const title = value.trim()
  return /^[\p{L}\p{N}][\p{L}\p{N} .&()'’-]{0,99}$/u.test(title) ? title : undefined
}

/** `candidate` as a link to the provider's console: https, one of `hosts`, nothing else. */
function consoleLink(candidate: unknown, hosts: readonly string[]): string | undefined {
  if (typeof candidate !== 'string' || candidate.length > MAX_LINK) return undefined
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return undefined
  if (!hosts.includes(url.hostname)) return undefined
  url.hash = ''
  return url.href
}

/**
 * The period of a quota the provider says is used up: a daily limit by its reason, or any quota
 * whose message names its day or hour ("Queries per day", "Exhausted property tokens per hour").
 * A limit per minute or second is a limit on the rate, and has none.
 */
function quotaPeriodOf(provider: ProviderErrorBody): QuotaPeriod | undefined {
  if (provider.reasons.includes('dailyLimitExceeded')) return 'day'
  const limited =
    provider.status === 'RESOURCE_EXHAUSTED' ||
    provider.reasons.some((reason) => RATE_REASONS.includes(reason))
  if (!limited) return undefined
  if (/\bper day\b|\bdaily\b/i.test(provider.message)) return 'day'
  if (/\bper hour\b|\bhourly\b/i.test(provider.message)) return 'hour'
  return undefined
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
 * `consoleHosts` are the provider's console's, where an API not enabled may be linked to.
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
  consoleHosts: readonly string[] = [],
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
  const limit = status === 403 || status === 429 ? limitOf(provider) : undefined
  if (limit?.kind === 'api_disabled')
    return new UpstreamApiError(
      'api_disabled',
      `The provider has not enabled this service's API for the connector's client (HTTP ${status}): its operator must enable it.`,
      { ...details, ...disabledApiOf(provider!, consoleHosts, token) },
    )
  if (limit?.kind === 'quota_exhausted')
    return new UpstreamApiError(
      'quota_exhausted',
      `The provider's quota for the ${limit.period} is used up (HTTP ${status}): calls fail until it renews.`,
      { ...details, quotaPeriod: limit.period },
    )
  if (status === 403 && limit?.kind !== 'rate_limited')
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
  if (status === 429 || status === 403)
    return new UpstreamApiError(
      'rate_limited',
      retryAfterSeconds !== undefined
        ? `The provider is limiting the rate of requests (HTTP ${status}): try again in ${retryAfterSeconds} s.`
        : `The provider is limiting the rate of requests (HTTP ${status}): try again later.`,
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

/** The provider is down: the connector sends it nothing until its pause ends. */
export const circuitOpen = (paused: { retryAfterSeconds: number }) =>
  new UpstreamApiError(
    'unavailable',
    `The provider is not answering: the connector has paused its calls to it for ${paused.retryAfterSeconds} s.`,
    { retryAfterSeconds: paused.retryAfterSeconds },
    { cause: paused },
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
