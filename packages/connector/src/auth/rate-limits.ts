import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RateLimiter } from '../store/rate-limits.js'
import { ROUTES } from './provider.js'

/**
 * Rate limits in front of the authorization server's registration and token endpoints, by client
 * address (the TCP peer: a forwarded address is not trusted). They are far above what any client
 * needs (docs/design.md, "The authorization server": at least 60 registrations and 300 token
 * requests a minute; the defaults are 120 and 600, RATE_LIMIT_* change them) and only stop floods.
 *
 * The counters are the store's (src/store/rate-limits.ts): on PostgreSQL one shared count for
 * every replica, so N replicas together allow what one does, at one statement per request; on
 * SQLite, in memory. A limit is checked before the request's body is read.
 */

export interface OAuthLimiters {
  registration: RateLimiter
  token: RateLimiter
}

export class OAuthRateLimits {
  readonly #limiters: ReadonlyMap<string, RateLimiter>

  constructor(limiters: OAuthLimiters) {
    this.#limiters = new Map([
      [ROUTES.registration, limiters.registration],
      [ROUTES.token, limiters.token],
    ])
  }

  /**
   * Counts the request if it is a POST to a limited endpoint; beyond the limit, answers it
   * (429 with Retry-After) and returns true.
   */
  async refuse(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (req.method !== 'POST') return false
    const limiter = this.#limiters.get(path)
    if (!limiter) return false
    const verdict = await limiter.take(req.socket.remoteAddress ?? 'unknown')
    if (verdict.allowed) return false
    const { retryAfterSeconds } = verdict
    const body = JSON.stringify({
      error: 'temporarily_unavailable',
      error_description: `Too many requests from this address: try again in ${retryAfterSeconds} seconds.`,
    })
    res.writeHead(429, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'Retry-After': String(retryAfterSeconds),
      'Content-Length': Buffer.byteLength(body),
    })
    res.end(body)
    return true
  }
}
