/**
 * Which engine DATABASE_URL selects. Apart from the engines' own modules (postgres.ts, sqlite.ts),
 * which the store loads only for the engine in use: a replica on SQLite never loads pg, and one
 * on PostgreSQL never loads better-sqlite3.
 */

export type StoreEngine = 'sqlite' | 'postgres'

/** Selects PostgreSQL: the only URLs DATABASE_URL accepts. */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url)

export function engineFor(databaseUrl: string | undefined): StoreEngine {
  if (databaseUrl === undefined || databaseUrl === '') return 'sqlite'
  if (isPostgresUrl(databaseUrl)) return 'postgres'
  // Never echo the value: it may hold a password.
  throw new Error(
    'DATABASE_URL must be a postgres:// or postgresql:// URL, or unset to use SQLite in DATA_DIR.',
  )
}
