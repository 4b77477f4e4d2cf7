import { setTimeout } from 'node:timers/promises'
import { Kysely, Migrator, sql } from 'kysely'
import { engineFor, type StoreEngine } from './engine.js'
import { connectorMigrations, MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from './migrations.js'
import {
  memoryRateLimiter,
  postgresRateLimiters,
  type RateLimit,
  type RateLimiter,
} from './rate-limits.js'
import { processChannels, type Channel } from './channels.js'
import type { PreparedRead } from './prepared-read.js'
import type { ConnectorDatabase } from './schema.js'
import { isStoreUnreachable } from './unreachable.js'

export type { StoreEngine } from './engine.js'
export type { Channel } from './channels.js'
export type { PreparedRead } from './prepared-read.js'

/**
 * The connector's storage: one query layer over either engine. Repositories take a Store and use
 * `db` (kysely) only, so nothing above this folder knows which engine it runs on.
 */
export interface Store {
  readonly db: Kysely<ConnectorDatabase>
  /** For startup logs and operations only: repositories never branch on it. */
  readonly engine: StoreEngine
  /**
   * A rate limiter counting where the engine keeps counters: shared by every replica on
   * PostgreSQL, in this process's memory on SQLite (rate-limits.ts).
   */
  rateLimiter(limit: RateLimit): RateLimiter
  /**
   * For the read every MCP request makes (auth/access-tokens.ts) only: kysely's builder and
   * executor cost more than the read itself (docs/decisions.md, "The connector's own work").
   * The text names its columns (never `*`) and works on both engines.
   */
  prepareRead<Row>(text: string): PreparedRead<Row>
  /**
   * A channel between the replicas that share this store (channels.ts): every replica on
   * PostgreSQL, this process on SQLite.
   */
  channel(name: string): Channel
  /**
   * Whether the database answers now (a `SELECT 1` within `REACHABLE_WITHIN_MS`), for the
   * readiness probe; an answer is kept a second, so that probes never load it. Always on SQLite.
   */
  reachable(): Promise<boolean>
  close(): Promise<void>
}

/** How long the readiness check waits for the database's answer. */
export const REACHABLE_WITHIN_MS = 2000

export interface StoreOptions {
  /** A postgres:// or postgresql:// URL selects PostgreSQL; unset or empty, SQLite in dataDir. */
  databaseUrl?: string
  /** DATA_DIR: SQLite's file lives here as connector.db. */
  dataDir: string
  /** Errors of idle PostgreSQL connections, for the caller to log; the pool recovers by itself. */
  onConnectionError?: (error: Error) => void
  /** Told of every statement sent to PostgreSQL, for the caller to count; never on SQLite. */
  onStatement?: () => void
  /**
   * Told while the database cannot be reached at start (how long it has waited, and why): the
   * store waits for it, trying again every `retryMs`, rather than failing.
   */
  onWaiting?: (waitedMs: number, error: unknown) => void
  retryMs?: number
}

/** How often a store that cannot reach its database at start tries again. */
const START_RETRY_MS = 1000

/** Opens the store and brings its schema up to date. */
export async function openStore({
  databaseUrl,
  dataDir,
  onConnectionError,
  onStatement,
  onWaiting,
  retryMs = START_RETRY_MS,
}: StoreOptions): Promise<Store> {
  const engine = engineFor(databaseUrl)
  // Each engine's driver is loaded only when it is the one in use (engine.ts).
  const { pool, dialect, prepareRead, channels } =
    engine === 'postgres'
      ? (await import('./postgres.js')).postgresEngine(databaseUrl!, {
          onConnectionError,
          onStatement,
        })
      : {
          pool: undefined,
          channels: processChannels(),
          ...(await (await import('./sqlite.js')).sqliteEngine(dataDir)),
        }
  const db = new Kysely<ConnectorDatabase>({ dialect })
  try {
    // A database that is away at start (a replica started during an outage) is waited for.
    const started = Date.now()
    for (;;) {
      try {
        await migrateToLatest(db)
        break
      } catch (error) {
        if (!isStoreUnreachable(error)) throw error
        onWaiting?.(Date.now() - started, error)
        await setTimeout(retryMs)
      }
    }
  } catch (error) {
    await channels.close()
    await db.destroy()
    throw error
  }
  const rateLimiter = pool ? postgresRateLimiters(pool, db) : memoryRateLimiter
  return {
    db,
    engine,
    rateLimiter,
    prepareRead,
    channel: (name) => channels.channel(name),
    reachable: pool ? keptAnswer(() => answers(db)) : async () => true,
    async close() {
      await channels.close()
      await db.destroy()
    },
  }
}

/** Whether `SELECT 1` comes back within the bound. */
async function answers(db: Kysely<ConnectorDatabase>): Promise<boolean> {
  const timeout = new AbortController()
  const late = setTimeout(REACHABLE_WITHIN_MS, false, { signal: timeout.signal }).catch(() => false)
  const answered = sql`SELECT 1`.execute(db).then(
    () => true,
    () => false,
  )
  const reached = await Promise.race([answered, late])
  timeout.abort()
  return reached
}

/** The answer of `check`, kept a second; concurrent asks share one check. */
function keptAnswer(check: () => Promise<boolean>): () => Promise<boolean> {
  let kept: { at: number; answer: Promise<boolean> } | undefined
  return () => {
    const now = Date.now()
    if (!kept || now - kept.at >= 1000) kept = { at: now, answer: check() }
    return kept.answer
  }
}

/**
 * On PostgreSQL, kysely's Migrator holds a session advisory lock while it reads what has run and
 * applies the rest in one transaction, so replicas starting together apply each migration once.
 * On SQLite one process owns the file, and the run is one transaction too (see sqlite.ts).
 */
async function migrateToLatest(db: Kysely<ConnectorDatabase>) {
  const migrator = new Migrator({
    db,
    provider: connectorMigrations,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    const detail = error instanceof Error ? error.message : String(error)
    throw new Error(`connector store migration ${failed ?? '(setup)'} failed: ${detail}`, {
      cause: error,
    })
  }
}
