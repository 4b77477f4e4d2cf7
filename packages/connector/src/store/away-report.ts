import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'

/** However many requests meet the database away, the log says so at most this often. */
const SAY_EVERY_MS = 10_000

/**
 * What the database going away costs, told and said: each request told to try again (503) and
 * each connection lost is told on `events`, for packages/connector/src/metrics to count; the log
 * says it once, then every 10 s with how many since, where an outage would otherwise write a line
 * for every request.
 */
export class StoreAwayReport {
  readonly events = new EventEmitter<StoreAwayEvents>()
  #lastSaid = Number.NEGATIVE_INFINITY
  #unsaid = { requests: 0, connections: 0 }

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** A request met the database away, and was answered 503. */
  request(surface: StoreAwaySurface, error: unknown): void {
    this.events.emit('request', surface)
    this.#unsaid.requests += 1
    this.#sayNowAndThen(error)
  }

  /** A connection to the database failed or was ended; it is replaced. */
  connectionLost(error: unknown): void {
    this.events.emit('connectionLost')
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

export interface StoreAwayEvents {
  /** A request met the database away and was answered 503, from `surface`. */
  request: [surface: StoreAwaySurface]
  /** A database connection failed or was ended. */
  connectionLost: []
}

/** Where a request met the database away and was told to try again. */
export const STORE_AWAY_SURFACE_MEANINGS = {
  mcp: 'the MCP endpoints',
  oauth: "the authorization server's endpoints",
  page: "the person's pages",
} as const
export type StoreAwaySurface = keyof typeof STORE_AWAY_SURFACE_MEANINGS
