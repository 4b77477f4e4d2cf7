import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'
import { betterSqliteDatabase } from './better-sqlite3.js'
import type { SqliteDatabase } from './database.js'
import { nodeSqliteDatabase, type NodeSqlite } from './node-sqlite.js'

export type { Bindings, SqliteDatabase, SqliteStatement } from './database.js'

/**
 * SQLite through the runtime's own `node:sqlite` where it has one with what kysely needs (Node
 * 22.16 and later; the production runtime, 24, included), else through better-sqlite3 12 (Node
 * 20), built at install, its one allowed install step. Why not better-sqlite3 13, and the
 * figures: docs/decisions.md, "Runtimes, installs and SQLite".
 */
const builtIn = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined

export const sqliteDriver: 'node:sqlite' | 'better-sqlite3' =
  builtIn && hasColumns(builtIn) ? 'node:sqlite' : 'better-sqlite3'

function hasColumns(sqlite: NodeSqlite): boolean {
  const probe = new sqlite.DatabaseSync(':memory:')
  try {
    return typeof probe.prepare('SELECT 1').columns === 'function'
  } finally {
    probe.close()
  }
}

const require = createRequire(import.meta.url)
let betterSqlite: Promise<typeof BetterSqlite3> | undefined

/** better-sqlite3, its native part proven loadable (it loads it at the first open). */
async function loadBetterSqlite(): Promise<typeof BetterSqlite3> {
  try {
    const { default: loaded } = (await import('better-sqlite3')) as {
      default: typeof BetterSqlite3
    }
    new loaded(':memory:').close()
    return loaded
  } catch (error) {
    throw new Error(
      `SQLite's driver for Node ${process.version} (better-sqlite3) is missing or not built: ` +
        'run `npm ci` again with a C++ toolchain, and let its install step run (package.json ' +
        'allowScripts names it)',
      { cause: error },
    )
  }
}

/**
 * Opens `file` (a path, or ':memory:') as both programs use it: write-ahead log, fsync at
 * checkpoints only, and a wait for a lock held by a backup or an admin command instead of an
 * immediate failure.
 */
export async function openSqlite(file: string): Promise<SqliteDatabase> {
  const database =
    sqliteDriver === 'node:sqlite'
      ? nodeSqliteDatabase(new builtIn!.DatabaseSync(file))
      : betterSqliteDatabase(new (await (betterSqlite ??= loadBetterSqlite()))(file))
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('busy_timeout = 5000')
  return database
}

/** The driver and SQLite versions, for startup logs and the install check. */
export function sqliteVersions(database: SqliteDatabase) {
  const driver =
    sqliteDriver === 'node:sqlite'
      ? `node:sqlite of Node ${process.version}`
      : `better-sqlite3 ${(require('better-sqlite3/package.json') as { version: string }).version}`
  const row = database.prepare('SELECT sqlite_version() AS v').get([]) as { v: string }
  return { driver, sqlite: row.v }
}
