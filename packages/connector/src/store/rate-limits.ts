import { sql, type Kysely } from 'kysely'
import type pg from 'pg'
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimitName } from '../config/config.js'
import { keyedDigests } from './keyed-digests.js'
import type { ConnectorDatabase } from './schema.js'

/**
 * Rate limit counters (rate-limiter-flexible), kept where the store's engine says:
 *
 * - PostgreSQL: in the shared table `rate_limits`, so every replica on the database counts
 *   against one limit (two replicas together allow what one does). `RateLimiterPostgres` runs one
 *   statement per request, an upsert that adds one and returns the count and the window's end.
 *   The table is the store's migration 0006, never created by the limiter (`tableCreated`).
 *   A key is counted as `{limit}:{HMAC-SHA-256 of the key}` under a secret derived from the vault
 *   key: the table holds no client address and no grant id, and a copy of it cannot be turned
 *   back into them (an IPv4 address would fall to a plain hash by trying all 2^32).
 * - SQLite (one process): in this process's memory (`RateLimiterMemory`), keys as given; nothing
 *   is written, and the hot path does no more than a map update.
 *
 * - PostgreSQL, leased (`leased`, the limit on tool calls): a replica takes a block of a key's
 *   points from the same table in one statement (a sixteenth of the limit, 1 to 16) and spends
 *   it from memory, so a key calling steadily costs a statement every block rather than every
 *   request. The blocks are counted in the table, so the replicas together never allow more
 *   than the limit: the shared count stays exact. What a replica leased and did not use when the
 *   window ends is lost, so a key may be refused up to (replicas - 1) x (block - 1) points early.
 *
 * When PostgreSQL cannot count (unreachable, or a failed statement), the request is counted in
 * this process's memory instead, against the same limit, and `onStoreError` hears of it: the
 * limits hold per replica, as they did before they were shared, and the request is answered,
 * never with a 5xx. The next request tries PostgreSQL again.
 *
 * A window starts with a key's first request and lasts `durationSeconds`; each replica reads its
 * own clock, so replicas should keep theirs in step (NTP) for the windows to line up.
 */

export interface RateLimit {
  name: RateLimitName
  /** Requests one key may make in a window. */
  points: number
  durationSeconds: number
  /** The secret of the keyed digest of keys in the shared table (unused in memory). */
  keySecret: Buffer
  /** PostgreSQL could not count a request, which was counted in this process's memory instead. */
  onStoreError?: (error: unknown) => void
  /** A request was refused: beyond the limit (the metrics count it). */
  onRefused?: () => void
  /**
   * On PostgreSQL, take a key's points from the table in blocks (leaseSize) rather than one
   * statement a request: for the limit on every tool call.
   */
  leased?: boolean
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export interface RateLimiter {
  readonly name: RateLimitName
  readonly points: number
  readonly durationSeconds: number
  /** Counts one request of `key`; beyond the limit, refuses it and says when to retry. */
  take(key: string): Promise<RateLimitVerdict>
}

/** The shared table, in the layout `RateLimiterPostgres` reads and writes (store/migrations.ts). */
export const RATE_LIMIT_TABLE = 'rate_limits'

const ALLOWED: RateLimitVerdict = Object.freeze({ allowed: true })

/** rate-limiter-flexible rejects a request beyond the limit with its RateLimiterRes. */
function refused(limit: RateLimit, outcome: unknown): RateLimitVerdict {
  if (!(outcome instanceof RateLimiterRes)) throw outcome
  limit.onRefused?.()
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) }
}

/** SQLite's limiters, and the fallback of PostgreSQL's. */
export function memoryRateLimiter(limit: RateLimit): RateLimiter {
  const counters = new RateLimiterMemory({
    keyPrefix: limit.name,
    points: limit.points,
    duration: limit.durationSeconds,
  })
  return {
    name: limit.name,
    points: limit.points,
    durationSeconds: limit.durationSeconds,
    take: (key) =>
      counters.consume(key).then(
        () => ALLOWED,
        (outcome: unknown) => refused(limit, outcome),
      ),
  }
}

/** Expired counters are deleted this often at most, by each replica. */
const SWEEP_INTERVAL_MS = 5 * 60_000
/**
 * How long after its window a row is kept. Any expired row may go (the upsert starts a new window
 * over it), but replicas' clocks differ a little: an hour, as rate-limiter-flexible's own sweep.
 */
const KEPT_AFTER_WINDOW_MS = 60 * 60_000

/**
 * PostgreSQL's limiters, all on the store's own pool. One sweep of expired rows every five
 * minutes at most, started by a request (as the authorization server's purge is), so nothing
 * runs while the connector is idle and nothing outlives the store.
 */
export function postgresRateLimiters(pool: pg.Pool, db: Kysely<ConnectorDatabase>) {
  let lastSweep = Date.now()
  const sweepSoon = () => {
    const now = Date.now()
    if (now - lastSweep < SWEEP_INTERVAL_MS) return
    lastSweep = now
    void db
      .deleteFrom(RATE_LIMIT_TABLE)
      .where('expire', '<', now - KEPT_AFTER_WINDOW_MS)
      .execute()
      // A failed sweep is retried by the next one; nothing depends on it.
      .catch(() => {})
  }

  return (limit: RateLimit): RateLimiter => {
    if (limit.leased) return leasingLimiter(limit, db, sweepSoon)
    const shared = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: limit.name,
      points: limit.points,
      duration: limit.durationSeconds,
      // A key refused here is refused from memory until its window ends: a flood from one
      // address costs the database at most one statement beyond the limit per replica.
      inMemoryBlockOnConsumed: limit.points + 1,
    })
    const fallback = memoryRateLimiter(limit)
    const digestOf = keyedDigests(limit.keySecret)
    return {
      name: limit.name,
      points: limit.points,
      durationSeconds: limit.durationSeconds,
      async take(key) {
        sweepSoon()
        const digest = digestOf(key)
        try {
          await shared.consume(digest)
          return ALLOWED
        } catch (outcome) {
          if (outcome instanceof RateLimiterRes) return refused(limit, outcome)
          limit.onStoreError?.(outcome)
          return fallback.take(digest)
        }
      },
    }
  }
}

/**
 * How many of a key's points a replica takes at once: a sixteenth of the limit, from 1 (every
 * request counted in the table, as an unbatched limiter does) to 16.
 */
export const leaseSize = (points: number) => Math.min(16, Math.max(1, Math.floor(points / 16)))

interface Lease {
  /** Points taken from the table and not yet used by this process. */
  left: number
  /** When the key's window ends, epoch ms. */
  expire: number
  /** The table granted less than a block: the window has no points left for anyone. */
  spent: boolean
}

/**
 * A leasing limiter on the shared table (see the top of this file): the same rows and windows,
 * counted in blocks.
 */
function leasingLimiter(
  limit: RateLimit,
  db: Kysely<ConnectorDatabase>,
  sweepSoon: () => void,
): RateLimiter {
  const durationMs = limit.durationSeconds * 1000
  const size = leaseSize(limit.points)
  const leases = new Map<string, Lease>()
  /** Blocks being taken, by key. */
  const leasing = new Map<string, Promise<Lease>>()
  const fallback = memoryRateLimiter(limit)
  const digestOf = keyedDigests(limit.keySecret)

  /** Takes a block of the key's window: what the table grants of it, and when the window ends. */
  async function lease(digest: string, now: number): Promise<Lease> {
    sweepSoon()
    // The block is counted whole; what it takes beyond the limit is granted to nobody, as a
    // refused request is counted by the unbatched limiter. A window that has ended starts anew.
    const table = sql.table(RATE_LIMIT_TABLE)
    const counted = sql.ref(`${RATE_LIMIT_TABLE}.points`)
    const ends = sql.ref(`${RATE_LIMIT_TABLE}.expire`)
    const { rows } = await sql<{ points: number | string; expire: number | string }>`
      INSERT INTO ${table} (key, points, expire) VALUES (${`${limit.name}:${digest}`}, ${size}, ${now + durationMs})
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN ${ends} <= ${now} THEN excluded.points ELSE ${counted} + excluded.points END,
        expire = CASE WHEN ${ends} <= ${now} THEN excluded.expire ELSE ${ends} END
      RETURNING points, expire
    `.execute(db)
    const total = Number(rows[0]!.points)
    const granted = Math.max(0, Math.min(size, limit.points - (total - size)))
    return { left: granted, expire: Number(rows[0]!.expire), spent: granted < size }
  }

  /** Leases of windows that ended go, checked at most once a window. */
  let lastForgotten = Date.now()
  function forgetEnded(now: number) {
    if (now - lastForgotten < durationMs) return
    lastForgotten = now
    for (const [digest, held] of leases) if (held.expire <= now) leases.delete(digest)
  }

  return {
    name: limit.name,
    points: limit.points,
    durationSeconds: limit.durationSeconds,
    async take(key) {
      const digest = digestOf(key)
      for (;;) {
        const now = Date.now()
        const held = leases.get(digest)
        if (held && held.expire > now) {
          if (held.left > 0) {
            held.left--
            return ALLOWED
          }
          if (held.spent) {
            // Every point of the window is taken: refused from memory until it ends.
            limit.onRefused?.()
            return {
              allowed: false,
              retryAfterSeconds: Math.max(1, Math.ceil((held.expire - now) / 1000)),
            }
          }
        }
        // One block at a time per key: concurrent requests wait for it, then share it.
        const asked = leasing.get(digest)
        if (asked) {
          // The store failed it: counted in memory, as the one who asked is.
          if (
            !(await asked.then(
              () => true,
              () => false,
            ))
          )
            return fallback.take(digest)
          continue
        }
        const next = lease(digest, now)
        leasing.set(digest, next)
        try {
          leases.set(digest, await next)
          forgetEnded(now)
        } catch (error) {
          limit.onStoreError?.(error)
          return fallback.take(digest)
        } finally {
          leasing.delete(digest)
        }
      }
    },
  }
}
