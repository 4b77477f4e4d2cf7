import type { ContentfulStatusCode } from 'hono/utils/http-status'

/** The canonical statuses of the provider's JSON error shape (docs/design.md, "Error shapes"). */
type ProviderStatus =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'RESOURCE_EXHAUSTED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'

interface ProviderErrorBody {
  error: {
    code: number
    message: string
    status: ProviderStatus
    errors: { reason: string; message: string; domain: string }[]
    details?: ErrorInfo[]
  }
}

/** google.rpc.ErrorInfo, which Google's APIs add to errors about quotas and setup. */
interface ErrorInfo {
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo'
  reason: string
  domain: 'googleapis.com'
  metadata: Record<string, string>
}

/** A failure the provider reports to its caller, in the provider's JSON shape. */
export class ProviderError extends Error {
  constructor(
    readonly code: ContentfulStatusCode,
    readonly status: ProviderStatus,
    readonly reason: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Where the reason belongs: `global`, or `usageLimits` for quotas and setup. */
    readonly domain = 'global',
    readonly details?: ErrorInfo[],
  ) {
    super(message)
    this.name = 'ProviderError'
  }

  body(): ProviderErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        status: this.status,
        errors: [{ reason: this.reason, message: this.message, domain: this.domain }],
        ...(this.details && { details: this.details }),
      },
    }
  }

  /** The error as an HTTP answer; a dialect may word the body its own way. */
  response(body: object = this.body()): Response {
    return Response.json(body, {
      status: this.code,
      headers: { 'Cache-Control': 'no-store', ...this.headers },
    })
  }
}

export const invalidArgument = (message: string) =>
  new ProviderError(400, 'INVALID_ARGUMENT', 'invalid', message)

export const failedPrecondition = (message: string) =>
  new ProviderError(400, 'FAILED_PRECONDITION', 'failedPrecondition', message)

export const limitExceeded = (message: string) =>
  new ProviderError(400, 'FAILED_PRECONDITION', 'limitExceeded', message)

export const unauthenticated = (message: string) =>
  new ProviderError(401, 'UNAUTHENTICATED', 'authError', message, {
    'WWW-Authenticate': 'Bearer error="invalid_token"',
  })

export const insufficientPermissions = (message: string) =>
  new ProviderError(403, 'PERMISSION_DENIED', 'insufficientPermissions', message, {
    'WWW-Authenticate': 'Bearer error="insufficient_scope"',
  })

export const forbidden = (message: string) =>
  new ProviderError(403, 'PERMISSION_DENIED', 'forbidden', message)

export const notFound = (message: string) =>
  new ProviderError(404, 'NOT_FOUND', 'notFound', message)

export const conditionNotMet = (message: string) =>
  new ProviderError(412, 'FAILED_PRECONDITION', 'conditionNotMet', message)

export const payloadTooLarge = (message: string) =>
  new ProviderError(413, 'INVALID_ARGUMENT', 'invalid', message)

export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ProviderError(429, 'RESOURCE_EXHAUSTED', 'rateLimitExceeded', message, {
    'Retry-After': String(retryAfterSeconds),
  })

/** The status and reason that go with an HTTP code, for injected faults. */
export function errorForStatus(code: number, message: string): ProviderError {
  switch (code) {
    case 400:
      return invalidArgument(message)
    case 401:
      return unauthenticated(message)
    case 403:
      return forbidden(message)
    case 404:
      return notFound(message)
    case 412:
      return conditionNotMet(message)
    case 429:
      return new ProviderError(429, 'RESOURCE_EXHAUSTED', 'rateLimitExceeded', message)
    case 503:
      return new ProviderError(503, 'UNAVAILABLE', 'backendError', message)
    case 504:
      return new ProviderError(504, 'DEADLINE_EXCEEDED', 'backendError', message)
    default:
      return new ProviderError(
        (code >= 400 && code <= 599 ? code : 500) as ContentfulStatusCode,
        code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT',
        code >= 500 ? 'backendError' : 'invalid',
        message,
      )
  }
}

/**
 * The usage limits Google's APIs answer with (docs/sandbox.md, "Quotas"), which the control
 * API's faults can inject: limits on the rate (per minute), quotas used up for the day, and the
 * API not enabled in the caller's Google Cloud project. The Apiary-era APIs (Tasks, webmasters
 * v3) send them with 403 and a reason in `errors[]`; newer ones with 429, or 403 for a disabled
 * API, and an ErrorInfo in `details`. Both are in the body; each dialect keeps what it sends.
 */
export const USAGE_LIMIT_REASONS = [
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'dailyLimitExceeded',
  'quotaExceeded',
  'accessNotConfigured',
] as const
export type UsageLimitReason = (typeof USAGE_LIMIT_REASONS)[number]

export function usageLimit(reason: UsageLimitReason, code: number, service: string): ProviderError {
  const make = (message: string, infoReason: string) =>
    usageLimitError(code, reason, message, service, infoReason)
  const quota = (limit: string) => quotaExceededMessage('Queries', limit, service)
  switch (reason) {
    case 'rateLimitExceeded':
      return make(quota('Queries per minute'), 'RATE_LIMIT_EXCEEDED')
    case 'userRateLimitExceeded':
      return make('User Rate Limit Exceeded', 'RATE_LIMIT_EXCEEDED')
    case 'dailyLimitExceeded':
      return make('Daily Limit Exceeded', 'RATE_LIMIT_EXCEEDED')
    case 'quotaExceeded':
      return make(quota('Queries per day'), 'RATE_LIMIT_EXCEEDED')
    case 'accessNotConfigured':
      return make(
        `${SERVICE_TITLES[service] ?? `The API ${service}`} has not been used in project 0 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/${service}/overview?project=0 then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.`,
        'SERVICE_DISABLED',
      )
  }
}

/** Google's message for a spent quota: its metric and limit, as Google names them, of `service`. */
export function quotaExceededMessage(metric: string, limit: string, service: string): string {
  return `Quota exceeded for quota metric '${metric}' and limit '${limit}' of service '${service}' for consumer 'project_number:0'.`
}

/** The names Google's messages give its services (a disabled API is named by its title). */
const SERVICE_TITLES: Readonly<Record<string, string>> = {
  'tasks.googleapis.com': 'Google Tasks API',
  'searchconsole.googleapis.com': 'Google Search Console API',
  'analyticsdata.googleapis.com': 'Google Analytics Data API',
  'analyticsadmin.googleapis.com': 'Google Analytics Admin API',
}

/**
 * One usage limit in both of Google's ways of saying it: `reason` in `errors[]` (domain
 * `usageLimits`) and an ErrorInfo of `infoReason` for `service` in `details`.
 */
export function usageLimitError(
  code: number,
  reason: string,
  message: string,
  service: string,
  infoReason: string,
): ProviderError {
  const info: ErrorInfo = {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: infoReason,
    domain: 'googleapis.com',
    metadata: { service, consumer: 'projects/0' },
  }
  return new ProviderError(
    (code >= 400 && code <= 599 ? code : 403) as ContentfulStatusCode,
    code === 429 ? 'RESOURCE_EXHAUSTED' : 'PERMISSION_DENIED',
    reason,
    message,
    {},
    'usageLimits',
    [info],
  )
}
