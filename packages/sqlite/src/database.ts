/**
 * SQLite as the connector and the sandbox use it, whichever driver runs it (index.ts): what
 * kysely's SqliteDialect takes, and the few calls of their own (a pragma, a prepared read).
 */

/** Positional values (`?`), or named ones by their name without its `$` (`{ 1: value }`). */
export type Bindings = readonly unknown[] | Readonly<Record<string, unknown>>

export interface SqliteStatement {
  /** It returns rows (a SELECT, or a statement with RETURNING). */
  readonly reader: boolean
  /** A `.iterate()` of it is still open: running it again would end that one. */
  readonly busy: boolean
  get(parameters: Bindings): unknown
  all(parameters: Bindings): unknown[]
  run(parameters: Bindings): { changes: number | bigint; lastInsertRowid: number | bigint }
  iterate(parameters: Bindings): IterableIterator<unknown>
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement
  exec(sql: string): void
  /** `PRAGMA <text>`: its first value (the setting after an assignment). */
  pragma(text: string): unknown
  close(): void
}
