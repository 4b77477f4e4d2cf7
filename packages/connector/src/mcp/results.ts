import type { CallToolResult } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import type { ShareRefusal } from '../quotas/fair-shares.js'
import type { RateLimiter } from '../store/rate-limits.js'
import { UpstreamUnavailableError, type UpstreamApiError } from '../upstream/index.js'
import { GrantRevokedError } from './grant-access.js'

/**
 * The two shapes a tool call ends in. A success carries the upstream resource or page as
 * `structuredContent` and the same JSON as text, for clients that read only text. A failure a
 * model can do something about is a result with `isError: true` whose one text says what to
 * change or when to come back: never a JSON-RPC error, which a client shows as a crash.
 */

export function success(
  structuredContent: Record<string, unknown>,
  /** The provider's own text of exactly this JSON, if it has one: used when it is compact. */
  providerText?: string,
): CallToolResult {
  // Compact JSON has no line break outside its strings, where a break is escaped: the text is
  // then what serializing the content would give, but for spacing, and one pass over a large
  // page is spared. Indented text is serialized anew, so the model never reads the indentation.
  const text =
    providerText !== undefined && !providerText.includes('\n')
      ? providerText
      : JSON.stringify(structuredContent)
  return { content: [{ type: 'text', text }], structuredContent }
}

export function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/**
 * Without Retry-After, how long to tell a model to wait: after a limit on the rate, what Google
 * advises; after the provider failed a call (its retries spent), the connector would try again at
 * once, and a few seconds is what its breaker pauses for when the provider is down for everyone.
 */
const BUSY_RETRY_SECONDS = 30
const UNAVAILABLE_RETRY_SECONDS = 5

/**
 * Arguments the input schema refused: every issue, each naming its field (the schemas' own
 * messages already say what to send instead), and that nothing reached the provider.
 */
export function invalidArguments(
  tool: string,
  error: z.ZodError,
  /** What the grant covers, where a field that names one is wrong (tools.ts). */
  covered?: string,
): CallToolResult {
  const issues = error.issues.map((issue) => {
    const field = issue.path.map(String).join('.')
    return field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message
  })
  // Naming the grant's own may have read their names from the provider: nothing was done there.
  const nothing = covered ? 'Nothing was done at the provider' : 'Nothing was sent to the provider'
  return failure(
    `Invalid arguments for ${tool}: ${issues.join('; ')}. ${nothing}; fix the arguments and call again.${covered ? ` ${covered}` : ''}`,
  )
}

/** Arguments a definition's preflight refused, with its words on what to change. */
export const preflightRefusal = (tool: string, problem: string): CallToolResult =>
  failure(
    `Invalid arguments for ${tool}: ${sentence(problem)} Nothing else was sent to the provider; fix the arguments and call again.`,
  )

/**
 * A failed upstream call, in words for the model: for each kind of failure (what it means:
 * upstream/api/failure-kinds.ts), what to do about it. `ids` are the tool's path parameters,
 * which a "not found" is about.
 */
export function upstreamFailure(error: UpstreamApiError, ids: readonly string[]): CallToolResult {
  const said = error.providerMessage ? ` The provider says: ${sentence(error.providerMessage)}` : ''
  switch (error.kind) {
    case 'invalid':
      return failure(
        `The provider rejected the arguments as invalid.${said} Change them and try again.`,
      )
    case 'failed_precondition':
      return failure(
        `The provider refused: one of its rules does not allow this.${said} Change the request so that it keeps to that rule.`,
      )
    case 'not_found': {
      const check = ids.length
        ? ` Check ${ids.join(' and ')}: read the current ids again and use one of them.`
        : ''
      return failure(`Not found: the provider has no such resource.${said}${check}`)
    }
    case 'permission':
      return failure(
        `The provider refused access.${said} The connection lacks the permission, or the resource is not the person’s.`,
      )
    case 'conflict':
      return failure(
        `The resource changed since it was read.${said} Read it again, then retry with what it is now.`,
      )
    case 'quota_exhausted':
      return failure(
        `The provider's quota for ${error.quotaPeriod === 'hour' ? 'this hour' : 'today'} is used up.${said} Nothing was done; calls like this will fail until it renews${error.quotaPeriod === 'hour' ? ' within the hour' : ' (Google renews daily quotas at midnight Pacific time)'}. Tell the person; retrying sooner will not help.`,
      )
    case 'api_disabled':
      return apiNotEnabled(error)
    case 'rate_limited':
      return failure(
        `The provider is busy (it is limiting the rate of requests); retry in ${Math.max(1, error.retryAfterSeconds ?? BUSY_RETRY_SECONDS)} seconds.`,
      )
    case 'unavailable':
      return failure(
        `The provider is unavailable right now; retry in ${Math.max(1, error.retryAfterSeconds ?? UNAVAILABLE_RETRY_SECONDS)} seconds.`,
      )
    case 'outcome_unknown':
      return failure(
        'The change may or may not have been made: the provider’s answer was lost. Check with a read before trying again.',
      )
    case 'malformed':
      return failure(`${error.message} Nothing is wrong with the arguments.`)
  }
}

/**
 * An API not enabled for the connector's OAuth client: which, and where the operator enables it
 * when the provider linked to it (a link passes only to its console: upstream/api/errors.ts).
 */
function apiNotEnabled({ apiTitle, activationUrl }: UpstreamApiError): CallToolResult {
  const api = apiTitle ? `the ${apiTitle}` : 'this service’s API'
  return failure(
    activationUrl
      ? `Google says ${api} is not enabled in the Google Cloud project of the connector’s OAuth client, so nothing was done. Nothing in the arguments can fix it: tell the person that the connector’s operator must enable it at ${activationUrl}, then wait a few minutes and try again.`
      : `The provider has not enabled ${api} for the connector’s OAuth client, so nothing was done. Nothing in the arguments can fix it: tell the person that the connector’s operator must enable it (for Google, in the Google Cloud project of the connector’s OAuth client).`,
  )
}

/** The provider's message as a sentence of ours: trimmed, with its full stop. */
const sentence = (text: string) => {
  const trimmed = text.trim()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

/** A call beyond the grant's rate limit, refused before anything was sent. */
export function tooManyCalls(
  limit: Pick<RateLimiter, 'points' | 'durationSeconds'>,
  retryAfterSeconds: number,
): CallToolResult {
  const window = limit.durationSeconds === 60 ? 'a minute' : `in ${limit.durationSeconds} seconds`
  return failure(
    `Too many tool calls on this connection: at most ${limit.points} ${window}, to keep within the provider's quota. Nothing was sent to the provider; retry in ${retryAfterSeconds} seconds.`,
  )
}

/**
 * A call beyond the person's fair share of a provider project's daily quota, refused before
 * anything was sent: what they spent, what is kept for whom, and when it renews.
 */
export function shareSpent(refusal: ShareRefusal, now = Date.now()): CallToolResult {
  const { counts, used, share, limit, people, renewsAt } = refusal
  const n = (value: number) => value.toLocaleString('en-US')
  const others =
    people > 1
      ? `the provider allows this connector's ${n(people)} people ${n(limit)} a day together, and what is left today is kept for the others`
      : `the provider allows this connector ${n(limit)} a day, and none is left today`
  return failure(
    `Your share of today's ${counts} is spent: you have made ${n(used)} of your ${n(share)} (${others}). It renews at midnight Pacific time, ${untilThen(renewsAt - now)}. Nothing was sent; do not call again before then, and tell the person.`,
  )
}

/** "in 7 h 5 min". */
function untilThen(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000))
  const hours = Math.floor(minutes / 60)
  return hours > 0 ? `in ${hours} h ${minutes % 60} min` : `in ${minutes} min`
}

/** A successful answer that does not fit the tool's output schema. */
export function unexpectedAnswer(changeMade: boolean): CallToolResult {
  return failure(
    changeMade
      ? 'The provider carried out the change but its answer is not what the connector expects: do not send it again; read the result instead.'
      : 'The provider’s answer is not what the connector expects; nothing is wrong with the arguments. Try again later.',
  )
}

/** What the grant can throw while getting the upstream token, as a result (or undefined). */
export function grantFailure(error: unknown): CallToolResult | undefined {
  // The endpoint answers 401 instead (endpoint.ts); this result is never seen by the client.
  if (error instanceof GrantRevokedError) return failure(error.message)
  if (error instanceof UpstreamUnavailableError)
    return failure(
      `The provider is unavailable right now; retry in ${error.retryAfterSeconds ?? UNAVAILABLE_RETRY_SECONDS} seconds.`,
    )
  return undefined
}

/** Anything else: a fault of the connector, logged where it happened; no details for the model. */
export const internalFailure = () =>
  failure(
    'The connector could not carry out this call because of an internal error; try again later.',
  )

/**
 * A call naming a list, site or property the person did not let this assistant use: refused
 * before anything was sent, saying which and where the person can add it.
 */
export function outsideGrant(
  service: ServiceName,
  value: string,
  connectionsUrl: string,
  /** The grant's own, in words (grant-names.ts), where known. */
  covered?: string,
): CallToolResult {
  const { noun, nouns, listedBy } = SERVICES[service].resource
  const where =
    covered ?? (listedBy ? `Use one that ${listedBy} shows.` : 'Use one the tool’s schema names.')
  return failure(
    `The ${noun} "${value.slice(0, 200)}" is not one the person lets this assistant use (they chose its ${nouns}). Nothing was sent to the provider. ${where} Or ask the person to add it at ${connectionsUrl}.`,
  )
}
