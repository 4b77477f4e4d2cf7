import type { SqliteDatabase, SqliteStatement } from '@countersign/sqlite'
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely'

/**
 * kysely's SQLite driver prepares every query afresh (`db.prepare(sql)` each time); preparing
 * costs several times what running a small indexed query does. This hands kysely the database
 * with one prepared statement kept per SQL text, the least recently used dropped past
 * `capacity`. kysely's queries are parameterised, so the texts are few (one per query shape).
 *
 * A prepared statement is reusable: each run binds its own parameters. Only kysely sees these
 * statements, and it never changes their modes (better-sqlite3's `raw`, `pluck`, `safeIntegers`;
 * node:sqlite's `setReadBigInts` and the like). The one state that matters is `busy` (a
 * `.iterate()` still open, as in a stream): a busy statement is never handed out again, a fresh
 * one is prepared for that use instead.
 */
export function withStatementCache(database: SqliteDatabase, capacity = 500): KyselySqliteDatabase {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => database.close(),
    prepare(sql: string) {
      const cached = statements.get(sql)
      if (cached !== undefined) {
        if (cached.busy) return database.prepare(sql)
        // Most recently used last: the first key is the one to drop.
        statements.delete(sql)
        statements.set(sql, cached)
        return cached
      }
      const statement = database.prepare(sql)
      statements.set(sql, statement)
      if (statements.size > capacity) statements.delete(statements.keys().next().value!)
      return statement
    },
  }
}
