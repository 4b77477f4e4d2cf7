import type { Bindings, SqliteDatabase, SqliteStatement } from './database.js'

/**
 * What of `node:sqlite` is used here, typed by hand: the project's Node types are Node 20's,
 * which has no such module, so nothing newer can slip into code that Node 20 runs.
 */
export interface NodeSqlite {
  DatabaseSync: new (path: string) => DatabaseSync
}

interface DatabaseSync {
  prepare(sql: string): StatementSync
  exec(sql: string): void
  close(): void
}

interface StatementSync {
  /** Node 22.16 and 23.11 on: the columns a statement returns. */
  columns?(): unknown[]
  get(...values: unknown[]): Record<string, unknown> | undefined
  all(...values: unknown[]): unknown[]
  run(...values: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint }
  iterate(...values: unknown[]): IterableIterator<unknown>
}

/** Node's own SQLite, as a SqliteDatabase. */
export function nodeSqliteDatabase(database: DatabaseSync): SqliteDatabase {
  return {
    prepare: (sql) => new NodeStatement(database.prepare(sql)),
    exec: (sql) => database.exec(sql),
    pragma: (text) => {
      const row = database.prepare(`PRAGMA ${text}`).get()
      return row && Object.values(row)[0]
    },
    close: () => database.close(),
  }
}

/** Spreads positional values; hands named ones over as they are (`{ 1: v }` binds `$1`). */
const bind = (parameters: Bindings): unknown[] =>
  Array.isArray(parameters) ? parameters : [parameters]

class NodeStatement implements SqliteStatement {
  readonly reader: boolean
  #iterating = 0

  constructor(private readonly statement: StatementSync) {
    this.reader = statement.columns!().length > 0
  }

  get busy() {
    return this.#iterating > 0
  }

  get(parameters: Bindings) {
    return this.statement.get(...bind(parameters))
  }

  all(parameters: Bindings) {
    return this.statement.all(...bind(parameters))
  }

  run(parameters: Bindings) {
    return this.statement.run(...bind(parameters))
  }

  *iterate(parameters: Bindings) {
    this.#iterating++
    try {
      yield* this.statement.iterate(...bind(parameters))
    } finally {
      this.#iterating--
    }
  }
}
