import type { Logger } from 'pino'
import type { StoreAwaySurface } from './labels.js'
import type { Metrics } from './metrics.js'

/** However many requests meet the database away, the log says so at most this often. */
const SAY_EVERY_MS = 10_000

/**
 * What the database going away costs, counted and said: each request told to try again (503)
 * and each connection lost is counted in the metrics; the log says it once, then every 10 s with
 * how many since, where an outage would otherwise write a line for every request.
 */
export class StoreAwayReport {
  #lastSaid = Number.NEGATIVE_INFINITY
  #unsaid = { requests: 0, connections: 0 }

  constructor(
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A request met the database away, and was answered 503. */
  request(surface: StoreAwaySurface, error: unknown): void {
    this.metrics.storeAway(surface)
    this.metrics.storeReachable(false)
    this.#unsaid.requests += 1
    this.#sayNowAndThen(error)
  }

  /** A connection to the database failed or was ended; it is replaced. */
  connectionLost(error: unknown): void {
    this.metrics.storeConnectionError()
    this.#unsaid.connections += 1
    this.#sayNowAndThen(error)
  }

  #sayNowAndThen(error: unknown) {
    const now = this.now()
    if (now - this.#lastSaid < SAY_EVERY_MS) return
    this.#lastSaid = now
    const { requests, connections } = this.#unsaid
    this.#unsaid = { requests: 0, connections: 0 }
    this.log.warn(
      { err: error, requests, connections },
      'the database cannot be reached: requests are told to try again',
    )
  }
}
