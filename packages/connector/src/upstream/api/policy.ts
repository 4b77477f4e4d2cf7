import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
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
import type { CircuitStateName } from '../../metrics/labels.js'
import { AttemptFailure } from './attempt.js'

/**
 * The resilience of calls to one provider origin, built once and shared by every call to it:
 *
 * - retry (outermost): only an AttemptFailure marked `retryable` is tried again, after an
 *   exponential backoff with jitter, or after the provider's Retry-After when it gave one, and
 *   never waiting past the call's deadline;
 * - circuit breaker (around each attempt): consecutive provider faults (5xx, timeouts, failed
 *   connections) open it, and calls then fail at once without reaching the provider until a
 *   half-open probe succeeds. Answers of 4xx never count: the provider is answering.
 */

export interface BreakerOptions {
  /** Consecutive failed attempts that open the circuit; 5 unless told. */
  consecutiveFailures?: number
  /** How long it stays open before one probe may go through; 30 s unless told. */
  halfOpenAfterMs?: number
}

/** Retries of one call after its first attempt, if the deadline allows them. */
export const MAX_RETRIES = 3

/** An attempt is not worth starting with less time than this left before the deadline. */
const MIN_ATTEMPT_MS = 20

export class ProviderPolicy {
  readonly #retry: RetryPolicy
  readonly #breaker: CircuitBreakerPolicy

  constructor(options: BreakerOptions = {}) {
    this.#retry = retry(
      handleWhen((error) => error instanceof AttemptFailure && error.retryable),
      { maxAttempts: MAX_RETRIES, backoff: new DeadlineBackoff() },
    )
    this.#breaker = circuitBreaker(
      handleWhen((error) => error instanceof AttemptFailure && error.providerFault),
      {
        halfOpenAfter: options.halfOpenAfterMs ?? 30_000,
        breaker: new ConsecutiveBreaker(options.consecutiveFailures ?? 5),
      },
    )
  }

  /**
   * Runs `attempt` under both policies. It throws the last AttemptFailure when retries end, a
   * BrokenCircuitError when the circuit is open, and anything else `attempt` throws untouched.
   */
  execute<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
    return this.#retry.execute(() => this.#breaker.execute(attempt), signal)
  }

  /**
   * The breaker's state. An open circuit turns half-open only when a call comes after its wait
   * (cockatiel moves on when asked to execute): until then it reads as open.
   */
  get state(): CircuitStateName {
    return CIRCUIT_STATE_NAMES[this.#breaker.state]
  }
}

const CIRCUIT_STATE_NAMES: Record<CircuitState, CircuitStateName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'isolated',
}

export const isCircuitOpen = (error: unknown) => error instanceof BrokenCircuitError

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
