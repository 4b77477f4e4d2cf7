import type BetterSqlite3 from 'better-sqlite3'
import type { SqliteDatabase } from './database.js'

/**
 * better-sqlite3 (its 12 line, on Node 20) as a SqliteDatabase: its statements already are
 * SqliteStatements (positional values as an array, named ones as an object).
 */
export function betterSqliteDatabase(database: BetterSqlite3.Database): SqliteDatabase {
  return {
    prepare: (sql) => database.prepare(sql),
    exec: (sql) => void database.exec(sql),
    pragma: (text) => database.pragma(text, { simple: true }),
    close: () => void database.close(),
  }
}
