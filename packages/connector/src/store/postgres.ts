import { createHash } from 'node:crypto'
import { PostgresDialect } from 'kysely'
import pg from 'pg'
import { postgresChannels } from './postgres-channels.js'
import type { PreparedRead } from './prepared-read.js'
import { againIfConnectionLost } from './unreachable.js'

/** Connections per replica unless the URL says `?max=`: pg's own default, ample for one process. */
const DEFAULT_POOL_SIZE = 10
const MAX_POOL_SIZE = 1000

export interface PostgresOptions {
  /** Errors of idle pooled connections (a server restart, say): the pool replaces them. */
  onConnectionError?: (error: Error) => void
  /** Told of every statement sent on the pool or on a client taken from it (for metrics). */
  onStatement?: () => void
}

/**
 * The shared engine: a connection pool to the database that DATABASE_URL names, for kysely, for
 * the rate limiters (rate-limits.ts) and for the store's prepared reads; and the channels between
 * replicas (channels.ts).
 */
export function postgresEngine(databaseUrl: string, options: PostgresOptions = {}) {
  const pool = postgresPool(databaseUrl, options)
  const channels = postgresChannels(
    pool,
    poolSettings(databaseUrl).connectionString,
    options.onConnectionError,
  )
  return {
    pool,
    dialect: new PostgresDialect({ pool }),
    prepareRead: postgresReads(pool),
    channels,
  }
}

/**
 * Reads as named statements: each pooled connection parses and plans one once, then only binds
 * its values (one round trip, where kysely's unnamed statements parse each time). A named
 * statement fails once its result's columns change ("cached plan must not change result type"),
 * which is why the texts name their columns: a migration that adds a column changes nothing.
 */
function postgresReads(pool: pg.Pool) {
  return <Row>(text: string): PreparedRead<Row> => {
    const name = `countersign_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`
    // A read, so tried again on a fresh connection when the one lent was already ended.
    return async (...values) =>
      (
        await againIfConnectionLost(() =>
          pool.query<Row & pg.QueryResultRow>({ name, text, values }),
        )
      ).rows[0]
  }
}

function postgresPool(databaseUrl: string, options: PostgresOptions): pg.Pool {
  const { connectionString, max } = poolSettings(databaseUrl)
  const pool = new pg.Pool({
    connectionString,
    max,
    ...(options.onStatement && { Client: countingClient(options.onStatement) }),
    // An unreachable server fails the call instead of waiting for ever: a connection that does
    // not open within 5 s, a statement not answered within 10 s (none of ours takes a second).
    connectionTimeoutMillis: 5_000,
    query_timeout: 10_000,
    idleTimeoutMillis: 30_000,
    types,
  })
  // Without a listener, a connection's error would crash the process: the pool listens on idle
  // ones, and every connection gets a listener of its own for the time it is lent out (a server
  // that ends its sessions mid-query, a restart, say). The pool drops a broken one on release.
  const onError = (error: Error) => options.onConnectionError?.(error)
  pool.on('error', onError)
  pool.on('connect', (client) => client.on('error', onError))
  return pool
}

/**
 * The pool's connections, each telling `onStatement` of every statement it sends: `pool.query`
 * runs on one of them, and so do kysely's queries and transactions and the rate limiters'. The
 * LISTEN connection of the channels is not the pool's and is not counted.
 */
function countingClient(onStatement: () => void) {
  return class CountingClient extends pg.Client {
    // One signature for pg's overloads: every one of them sends one statement.
    override query(...args: unknown[]): never {
      onStatement()
      return (super.query as (...args: unknown[]) => never)(...args)
    }
  }
}

/** Reads and removes `?max=`, which is ours and not a libpq parameter. */
function poolSettings(databaseUrl: string): { connectionString: string; max: number } {
  let url: URL
  try {
    url = new URL(databaseUrl)
  } catch {
    // Never echo the URL: it may hold a password.
    throw new Error(
      'DATABASE_URL is not a valid URL: expected postgres://user:password@host:port/database',
    )
  }
  const raw = url.searchParams.get('max')
  url.searchParams.delete('max')
  if (raw === null) return { connectionString: url.toString(), max: DEFAULT_POOL_SIZE }
  const max = Number(raw)
  if (!Number.isInteger(max) || max < 1 || max > MAX_POOL_SIZE) {
    throw new Error(
      `DATABASE_URL ?max= must be a whole number of connections from 1 to ${MAX_POOL_SIZE}, not "${raw}".`,
    )
  }
  return { connectionString: url.toString(), max }
}

const INT8_OID = 20

/**
 * pg returns bigint (and count(*)) as strings to avoid precision loss; SQLite returns numbers.
 * Epoch-millisecond instants and counts are far below 2^53, so both engines give numbers, and a
 * value that would lose precision fails loudly instead of silently.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
}

function parseInt8(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(
      `a bigint column holds ${text}, beyond the integers a number keeps exactly`,
    )
  }
  return value
}
