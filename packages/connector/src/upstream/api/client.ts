import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import { Agent, type Dispatcher } from 'undici'
import type { ApiName, SharedQuotaName } from '../../config/config.js'
import { SERVICE_NAMES, type ServiceName } from '../../services/catalog.js'
import { attempt, AttemptFailure, TokenRejected, type ApiResult, type Exchange } from './attempt.js'
import type { UpstreamApiEvents, UpstreamNoAnswer, UpstreamStatus } from './call-events.js'
import { circuitOpen, noAnswerInTime, UpstreamApiError } from './errors.js'
import {
  CallsPaused,
  ProviderPolicy,
  type BreakerOptions,
  type CircuitStateName,
} from './policy.js'
import { RequestTargets, type ApiBases, type QueryValue } from './request.js'

/**
 * Calls to the provider's APIs for the tool layer (docs/architecture.md,
 * "The connector's parts"; docs/design.md, "Reliability").
 *
 * Each call: a bearer token from the grant; one deadline over everything (token, attempts and
 * backoff); retries only where sending again is safe (see attempt.ts and policy.ts); a 401
 * answered by one refresh and one more try; a circuit breaker per provider origin, which opens
 * when the provider is down for everyone, never for one person's trouble (policy.ts); and the
 * provider's error shape mapped to an UpstreamApiError whose `kind` the tool layer acts on.
 * Whatever the grant throws (CredentialRevokedError, UpstreamUnavailableError) passes untouched.
 * Each call's end is told on `events` (call-events.ts), for src/metrics to count.
 *
 * Connections: an undici Agent keeps them alive and pools them per origin; `close()` ends them.
 */

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ApiCall {
  /** Picks the base URL, and names the call in what is told of it (call-events.ts). */
  service: ServiceName
  /** The provider project's daily quota it spends, when one is shared out (src/quotas). */
  quota?: SharedQuotaName
  /** The API whose base URL the path is relative to, where not the service's own. */
  api?: ApiName
  method: ApiMethod
  /** Template relative to the base, e.g. '/lists/{tasklist}/tasks/{task}'. */
  path: string
  pathParams?: Record<string, string>
  query?: Record<string, QueryValue>
  /** JSON. */
  body?: unknown
  /** Sends If-Match. */
  ifMatch?: string
  /** Safe to send again when the outcome is unknown (GET, and PUT/DELETE/PATCH the caller declares idempotent). */
  idempotent: boolean
}

/** How a call gets its upstream token: RequestGrant (src/mcp/grant-access.ts) is one. */
export interface ApiGrant {
  upstreamAccessToken(): Promise<string>
  upstreamTokenAfterUnauthorized(token: string): Promise<string>
  /**
   * Whose calls these are: the person, as the provider knows them. Their failures are evidence
   * of their own trouble before the provider's (policy.ts); never logged, never a label.
   */
  readonly person?: string
}

export interface UpstreamApiDeps {
  apiBase: ApiBases
  /** Query parameters every call carries: the provider profile's (src/services/profiles). */
  systemQuery?: Readonly<Record<string, string>>
  /** The provider's console's hosts (the profile's): where an API not enabled may be linked to. */
  consoleHosts?: readonly string[]
  log: Logger
  /** The whole of one call, retries included; 10 s unless told. */
  deadlineMs?: number
  /** Sends the requests: a kept-alive undici Agent unless told (tests wrap one). */
  dispatcher?: Dispatcher
  breaker?: BreakerOptions
  /**
   * Hears of every call that sent requests, with how many it sent (retries and the try after a
   * 401 included): the provider counts each against its quotas, and so does src/quotas.
   */
  onSent?: (call: ApiCall, grant: ApiGrant, requests: number) => void
}

export const DEFAULT_API_DEADLINE_MS = 10_000

export class UpstreamApi {
  /** Each call's end, told as it happens (call-events.ts). */
  readonly events = new EventEmitter<UpstreamApiEvents>()
  /** The services it has a base URL for. */
  readonly services: readonly ServiceName[]
  readonly #targets: RequestTargets
  readonly #policies: Partial<Record<ApiName, ProviderPolicy>>
  readonly #log: Logger
  readonly #deadlineMs: number
  readonly #dispatcher: Dispatcher
  readonly #onSent: UpstreamApiDeps['onSent']
  readonly #consoleHosts: readonly string[]

  constructor({
    apiBase,
    systemQuery,
    consoleHosts,
    log,
    deadlineMs,
    dispatcher,
    breaker,
    onSent,
  }: UpstreamApiDeps) {
    this.#onSent = onSent
    this.#consoleHosts = consoleHosts ?? []
    this.#targets = new RequestTargets(apiBase, systemQuery)
    this.services = SERVICE_NAMES.filter((service) => service in apiBase)
    this.#log = log.child({ component: 'upstream-api' })
    this.#deadlineMs = deadlineMs ?? DEFAULT_API_DEADLINE_MS
    this.#dispatcher = dispatcher ?? new Agent()
    // One policy, and so one breaker, per provider origin: services on one origin share it.
    const byOrigin = new Map<string, ProviderPolicy>()
    const policies: Partial<Record<ApiName, ProviderPolicy>> = {}
    const apis = [...new Set([...Object.keys(apiBase), 'analyticsAdmin'])] as ApiName[]
    for (const api of apis) {
      const { origin } = this.#targets.base(api)
      let policy = byOrigin.get(origin)
      if (!policy) {
        byOrigin.set(origin, (policy = new ProviderPolicy(breaker)))
        // The breaker's moves are what an operator watches in an outage: one line each, where
        // the calls it pauses are logged at debug only.
        policy.onChange((state) =>
          state === 'open'
            ? this.#log.warn(
                { origin },
                'the provider is down for everyone: calls to it are paused',
              )
            : this.#log.warn({ origin }, 'the provider answers again: calls to it resume'),
        )
      }
      policies[api] = policy
    }
    this.#policies = policies
  }

  /** The state of the breaker in front of each service's provider origin. */
  circuitStates(): Record<ServiceName, CircuitStateName> {
    const states = {} as Record<ServiceName, CircuitStateName>
    for (const service of this.services) states[service] = this.#policies[service]!.state
    return states
  }

  /**
   * Makes the call. Throws UpstreamApiError for every failure of the call itself, and whatever
   * the grant throws when it cannot give a token (never wrapped).
   */
  async call(call: ApiCall, grant: ApiGrant): Promise<ApiResult> {
    const started = performance.now()
    const { origin, path } = this.#targets.target(
      call.api ?? call.service,
      call.path,
      call.pathParams,
      call.query,
    )
    const policy = this.#policies[call.api ?? call.service]!
    const body = call.body === undefined ? undefined : JSON.stringify(call.body)
    const deadline = new AbortController()
    const timer = setTimeout(abortAtDeadline, this.#deadlineMs, deadline)
    const run: Run = { attempts: 0, retries: 0, status: 0, lost: undefined, last: undefined }
    try {
      const send = (token: string) => {
        run.last = undefined
        // undici follows no redirect: a 3xx is an answer like any other that is not a 2xx.
        const exchange: Exchange = {
          request: {
            origin,
            path,
            method: call.method,
            headers: headers(token, body !== undefined, call.ifMatch),
            body,
            signal: deadline.signal,
          },
          idempotent: call.idempotent,
          token,
          deadlineAt: started + this.#deadlineMs,
          deadlineMs: this.#deadlineMs,
          consoleHosts: this.#consoleHosts,
        }
        return policy.execute(
          grant.person ?? '',
          () => this.#attempt(exchange, run),
          deadline.signal,
        )
      }
      const token = await grant.upstreamAccessToken()
      let result: ApiResult
      try {
        result = await send(token)
      } catch (error) {
        if (!(error instanceof TokenRejected)) throw error
        // A 401 is a refusal, so even a change may be sent again, once, with a fresh token.
        const fresh = await grant.upstreamTokenAfterUnauthorized(token)
        try {
          result = await send(fresh)
        } catch (again) {
          if (!(again instanceof TokenRejected)) throw again
          // Rejected right after a refresh: the grant side decides that the credential is
          // revoked, and throws so. Should it hand out yet another token, we stop here anyway.
          await grant.upstreamTokenAfterUnauthorized(fresh)
          throw new UpstreamApiError(
            'unavailable',
            'The provider refused the connection’s token twice; try again in a minute.',
            { status: 401 },
          )
        }
      }
      this.events.emit(
        'call',
        call.service,
        run.status,
        run.attempts,
        run.retries,
        started,
        undefined,
      )
      if (this.#log.isLevelEnabled('debug')) this.#logCall(call, run, started, undefined)
      return result
    } catch (error) {
      const failure = translate(error)
      const kind = failure instanceof UpstreamApiError ? failure.kind : undefined
      const status = statusOf(run, error)
      this.events.emit('call', call.service, status, run.attempts, run.retries, started, kind)
      this.#logCall(call, run, started, failure)
      throw failure
    } finally {
      clearTimeout(timer)
      if (run.attempts > 0) this.#onSent?.(call, grant, run.attempts)
    }
  }

  /**
   * One attempt. When no time is left for it (the backoff found the deadline too close, or the
   * grant's refresh took the time) nothing is sent: the call ends in the last failure, or in a
   * timeout.
   */
  async #attempt(exchange: Exchange, run: Run): Promise<ApiResult> {
    if (exchange.request.signal.aborted || run.last?.outOfTime) {
      const outcome = run.last?.outcome ?? noAnswerInTime(exchange.deadlineMs, true)
      if (run.last === undefined) run.lost = 'timeout'
      throw new AttemptFailure(outcome, false, false, undefined, exchange.deadlineAt)
    }
    // After a failed attempt of this exchange (not the one more try after a 401): a retry.
    if (run.last !== undefined) run.retries++
    run.attempts++
    try {
      const result = await attempt(exchange, this.#dispatcher)
      run.status = result.status
      return result
    } catch (error) {
      if (error instanceof AttemptFailure) {
        run.last = error
        run.status = error.outcome.status ?? 0
        run.lost =
          run.status !== 0 ? undefined : exchange.request.signal.aborted ? 'timeout' : 'network'
      } else if (error instanceof TokenRejected) run.status = 401
      throw error
    }
  }

  /**
   * Ends the connections: a call still running is cut off (the connector closes this once its
   * calls in flight are answered, or the drain deadline has passed), and calls after this fail.
   */
  close(): Promise<void> {
    return this.#dispatcher.destroy()
  }

  /** Method, path template, status, duration and attempts: never the filled path, query, token or body. */
  #logCall(call: ApiCall, run: Run, started: number, failure: unknown) {
    const fields = {
      service: call.service,
      method: call.method,
      path: call.path,
      status: run.status,
      attempts: run.attempts,
      durationMs: Math.round(performance.now() - started),
    }
    if (failure === undefined) return this.#log.debug(fields, 'upstream call')
    if (failure instanceof UpstreamApiError && failure.cause instanceof CallsPaused)
      return this.#log.debug({ ...fields, kind: failure.kind }, 'upstream call paused')
    if (failure instanceof UpstreamApiError) {
      const kind = failure.kind
      // What the operator, not the person, must fix or wait out: said in the log's own words.
      if (kind === 'api_disabled') return this.#logApiDisabled(fields, call, failure)
      if (kind === 'quota_exhausted')
        return this.#log.error(
          { ...fields, kind, period: failure.quotaPeriod },
          `a quota at the provider is used up for the ${failure.quotaPeriod}: ${call.service} calls fail until it renews`,
        )
      return this.#log.warn({ ...fields, kind }, 'upstream call failed')
    }
    this.#log.warn(
      { ...fields, error: failure instanceof Error ? failure.name : typeof failure },
      'upstream call failed',
    )
  }

  /** An API not enabled: named, with the provider's link to enable it when it gave one. */
  #logApiDisabled(fields: Record<string, unknown>, call: ApiCall, failure: UpstreamApiError) {
    const { apiTitle, activationUrl } = failure
    const api = apiTitle ? `the ${apiTitle}` : `the ${call.service} service's API`
    this.#log.error(
      { ...fields, kind: failure.kind, api: apiTitle, activationUrl },
      activationUrl
        ? `${api} is not enabled in the Google Cloud project of the connector's OAuth client: enable it at ${activationUrl}, then wait a few minutes`
        : `the provider has not enabled ${api} for the connector's OAuth client: enable it (for Google, under APIs & Services in the client's Google Cloud project)`,
    )
  }
}

interface Run {
  attempts: number
  /** Attempts sent again after a failed one (see #attempt). */
  retries: number
  /** The last HTTP status, 0 when there was no answer. */
  status: number
  /** Why the last attempt had no answer. */
  lost: 'timeout' | 'network' | undefined
  last: AttemptFailure | undefined
}

/** A failed call's status: its last answer's, or why it had none. */
function statusOf(run: Run, error: unknown): UpstreamStatus {
  if (error instanceof CallsPaused) return 'circuit_open'
  if (run.attempts === 0) return run.lost ?? noAnswer(error)
  return run.status || (run.lost ?? 'network')
}

/** Nothing was sent: the deadline passed first, or the grant could give no token. */
const noAnswer = (error: unknown): UpstreamNoAnswer =>
  error instanceof AttemptFailure ? 'timeout' : 'no_token'

function abortAtDeadline(controller: AbortController) {
  controller.abort(new DOMException('The upstream call reached its deadline.', 'TimeoutError'))
}

function headers(
  token: string,
  json: boolean,
  ifMatch: string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {
    authorization: `Bearer ${token}`,
    accept: 'application/json',
  }
  if (json) out['content-type'] = 'application/json'
  if (ifMatch !== undefined) out['if-match'] = ifMatch
  return out
}

/** What the caller sees: UpstreamApiError for the call's own failures, the grant's errors as they are. */
function translate(error: unknown): unknown {
  if (error instanceof AttemptFailure) return error.outcome
  if (error instanceof CallsPaused) return circuitOpen(error)
  return error
}
