import type { IncomingMessage, ServerResponse } from 'node:http'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { ROUTES } from './provider.js'

/**
 * Rate limits in front of the authorization server's registration and token endpoints, by client
 * address. They are far above what any client needs (DESIGN §5 asks for at least 60
 * registrations and 300 token requests a minute) and only stop floods.
 *
 * The counters live in each replica's memory: behind a load balancer spreading requests over N
 * replicas, one address gets up to N times the limit. That is acceptable for limits meant to
 * stop floods, and keeps a database write off every token request.
 */

export interface RateLimitSettings {
  /** Registrations a minute from one address. */
  registrationsPerMinute: number
  /** Token requests (code exchanges and refreshes) a minute from one address. */
  tokenRequestsPerMinute: number
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  registrationsPerMinute: 120,
  tokenRequestsPerMinute: 600,
}

export class OAuthRateLimits {
  readonly #limiters: ReadonlyMap<string, RateLimiterMemory>

  constructor(settings: RateLimitSettings = DEFAULT_RATE_LIMITS) {
    this.#limiters = new Map([
      [
        ROUTES.registration,
        new RateLimiterMemory({ points: settings.registrationsPerMinute, duration: 60 }),
      ],
      [
        ROUTES.token,
        new RateLimiterMemory({ points: settings.tokenRequestsPerMinute, duration: 60 }),
      ],
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
    const address = req.socket.remoteAddress ?? 'unknown'
    try {
      await limiter.consume(address)
      return false
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
      const body = JSON.stringify({
        error: 'temporarily_unavailable',
        error_description: `Too many requests from this address: try again in ${retryAfter} seconds.`,
      })
      res.writeHead(429, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'Retry-After': String(retryAfter),
        'Content-Length': Buffer.byteLength(body),
      })
      res.end(body)
      return true
    }
  }
}
