import {
  BrokenCircuitError,
  CircuitState,
  ExponentialBackoff,
  circuitBreaker,
  handleWhen,
  retry,
  type CircuitBreakerPolicy,
  type IBackoff,
  type IBackoffFactory,
  type IRetryBackoffContext,
  type RetryPolicy,
} from 'cockatiel'
import { AttemptFailure, TokenRejected } from './attempt.js'
import { OutageEvidence } from './outage-evidence.js'

/**
 * The resilience of calls to one provider origin, shared by every call to it (docs/decisions.md,
 * "Provider faults"):
 *
 * - retry (around each attempt): only an AttemptFailure marked `retryable` is tried again, after
 *   an exponential backoff with jitter (the three waits add up to well under a second), or after
 *   the provider's Retry-After when it gave one, and never waiting past the call's deadline;
 * - circuit breaker (around each call, its retries included): it opens only when the provider is
 *   down for everyone who calls it (outage-evidence.ts), never for a blip nor for one person's
 *   trouble. Open, it pauses every call for `pauseMs`, each failing at once with the time left;
 *   then one call goes through as a probe, the others still failing at once, and an answer closes
 *   it. A call caught in its retries when it opens stops there. Answers of 4xx never count
 *   against the provider: it is answering.
 */

export interface BreakerOptions {
  /** How long calls are paused once the provider is found down, before a probe; 5 s unless told. */
  pauseMs?: number
  /** How far back the evidence of an outage goes; 5 s unless told. */
  windowMs?: number
}

/** Retries of one call after its first attempt, if the deadline allows them. */
export const MAX_RETRIES = 3

/** An attempt is not worth starting with less time than this left before the deadline. */
const MIN_ATTEMPT_MS = 20

export const DEFAULT_PAUSE_MS = 5_000
const DEFAULT_WINDOW_MS = 5_000

/**
 * A call the breaker did not let through: the provider is down, and the connector sends nothing
 * to it for `retryAfterSeconds` more (or a probe is on its way).
 */
export class CallsPaused extends Error {
  override name = 'CallsPaused'
  constructor(readonly retryAfterSeconds: number) {
    super(`Calls to the provider are paused for ${retryAfterSeconds} s.`)
  }
}

export class ProviderPolicy {
  readonly #retry: RetryPolicy
  readonly #breaker: CircuitBreakerPolicy
  readonly #evidence: OutageEvidence
  readonly #pauseMs: number
  #openedAt = 0

  constructor(options: BreakerOptions = {}) {
    this.#pauseMs = options.pauseMs ?? DEFAULT_PAUSE_MS
    this.#evidence = new OutageEvidence(options.windowMs ?? DEFAULT_WINDOW_MS)
    this.#retry = retry(
      handleWhen((error) => error instanceof AttemptFailure && error.retryable),
      { maxAttempts: MAX_RETRIES, backoff: new DeadlineBackoff() },
    )
    this.#breaker = circuitBreaker(handleWhen(isProviderFault), {
      halfOpenAfter: this.#pauseMs,
      breaker: this.#evidence,
    })
    this.#breaker.onBreak(() => (this.#openedAt = Date.now()))
  }

  /**
   * Runs `attempt`, retried, as a call of `person` (whose calls are evidence of an outage, or of
   * their own trouble). It throws the last AttemptFailure when retries end, CallsPaused when the
   * breaker holds the call back, and anything else `attempt` throws untouched.
   */
  async execute<T>(person: string, attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
    // While the probe is out, cockatiel would have every other call wait for it: fail at once.
    if (this.#breaker.state === CircuitState.HalfOpen) throw this.#paused()
    try {
      return await this.#breaker.execute(() => this.#call(person, attempt, signal), signal)
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw this.#paused()
      throw error
    }
  }

  async #call<T>(person: string, attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
    try {
      const result = await this.#retry.execute(({ attempt: retries }) => {
        // Opened during this call's retries: it ends now, as the calls after it do. (A first
        // attempt is let through: a probe starts before cockatiel says half-open.)
        if (retries > 0 && this.#breaker.state === CircuitState.Open) throw this.#paused()
        return attempt()
      }, signal)
      this.#evidence.answered(person)
      return result
    } catch (error) {
      if (isProviderFault(error)) this.#evidence.failed(person)
      else if (isAnswer(error)) this.#evidence.answered(person)
      throw error
    }
  }

  #paused(): CallsPaused {
    const left = this.#openedAt + this.#pauseMs - Date.now()
    return new CallsPaused(Math.max(1, Math.ceil(left / 1000)))
  }

  /** Calls `listener` when the breaker opens (the provider is down) and when it closes again. */
  onChange(listener: (state: 'open' | 'closed') => void): void {
    this.#breaker.onBreak(() => listener('open'))
    this.#breaker.onReset(() => listener('closed'))
  }

  /**
   * The breaker's state. An open circuit turns half-open only when a call comes after its pause
   * (cockatiel moves on when asked to execute): until then it reads as open.
   */
  get state(): CircuitStateName {
    return CIRCUIT_STATE_NAMES[this.#breaker.state]
  }
}

/** A 5xx, a timeout or a failed connection: evidence against the provider's health. */
const isProviderFault = (error: unknown) => error instanceof AttemptFailure && error.providerFault

/** The provider answered, whatever it said (a 4xx, a 401, an answer not understood). */
const isAnswer = (error: unknown) =>
  (error instanceof AttemptFailure && !error.providerFault) || error instanceof TokenRejected

/** The states of a circuit breaker, by cockatiel's names. */
export const CIRCUIT_STATES = ['closed', 'open', 'half_open', 'isolated'] as const
export type CircuitStateName = (typeof CIRCUIT_STATES)[number]

const CIRCUIT_STATE_NAMES: Record<CircuitState, CircuitStateName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'isolated',
}

type RetryContext = IRetryBackoffContext<unknown>

/**
 * Exponential backoff with decorrelated jitter (cockatiel's default), replaced by the
 * provider's Retry-After when it sent one. When the wait would leave no time for the next
 * attempt before the call's deadline, the call ends at once with the last failure instead of
 * sleeping for nothing (cockatiel's backoff cannot stop a retry, so it marks the failure
 * `outOfTime` and the attempt gives up without sending).
 */
class DeadlineBackoff implements IBackoffFactory<RetryContext> {
  readonly #exponential = new ExponentialBackoff({ initialDelay: 100, maxDelay: 2_000 })

  next(context: RetryContext): IBackoff<RetryContext> {
    return step(this.#exponential.next(), context)
  }
}

function step(exponential: IBackoff<unknown>, context: RetryContext): IBackoff<RetryContext> {
  const failure = 'error' in context.result ? context.result.error : undefined
  let duration = exponential.duration
  if (failure instanceof AttemptFailure) {
    if (failure.retryAfterMs !== undefined) duration = failure.retryAfterMs
    if (failure.deadlineAt - performance.now() - duration < MIN_ATTEMPT_MS) {
      // No time for another attempt after this wait: end now rather than sleep to the deadline.
      failure.outOfTime = true
      duration = 0
    }
  }
  return { duration, next: (later) => step(exponential.next(later), later) }
}
