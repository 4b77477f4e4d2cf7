import { join } from 'node:path'
import { ownerOnlyDatabase, ownerOnlyFolder } from '@countersign/environment'
import { openSqlite, type SqliteDatabase, type SqliteStatement } from '@countersign/sqlite'
import { SqliteAdapter, SqliteDialect, type DialectAdapter } from 'kysely'
import type { PreparedRead } from './prepared-read.js'
import { withStatementCache } from './statement-cache.js'

/** The embedded engine's file, inside the data folder (the sandbox's lives in its own folder). */
export const SQLITE_FILE = 'connector.db'

/**
 * SQLite runs DDL inside transactions, but kysely's adapter says it does not, which would leave a
 * failed migration half applied. Saying so lets the Migrator wrap each run in one transaction.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true
  }
}

class ConnectorSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter()
  }
}

/**
 * The embedded engine: one file in the data folder, for a single connector process. The folder
 * and the database files are for the connector's user only (`ownerOnlyDatabase`,
 * packages/environment/src/owner-only.ts).
 */
export async function sqliteEngine(dataDir: string) {
  ownerOnlyFolder(dataDir)
  const file = join(dataDir, SQLITE_FILE)
  ownerOnlyDatabase(file)
  const database = await openSqlite(file)
  database.pragma('foreign_keys = ON')
  return {
    dialect: new ConnectorSqliteDialect({ database: withStatementCache(database) }),
    prepareRead: sqliteReads(database),
  }
}

/**
 * Reads on the connection kysely uses, prepared on first use. Both drivers run a statement
 * synchronously, so a read never lands inside one of kysely's queries; `$1`, `$2`... are SQLite
 * named parameters, bound by their number.
 */
function sqliteReads(database: SqliteDatabase) {
  return <Row>(text: string): PreparedRead<Row> => {
    let statement: SqliteStatement | undefined
    return (...values) => {
      try {
        statement ??= database.prepare(text)
        const named: Record<number, string | number> = {}
        values.forEach((value, index) => (named[index + 1] = value))
        return Promise.resolve(statement.get(named) as Row | undefined)
      } catch (error) {
        return Promise.reject(error as Error)
      }
    }
  }
}
