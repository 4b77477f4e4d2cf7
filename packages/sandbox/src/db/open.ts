import { dirname } from 'node:path'
import { ownerOnlyDatabase, ownerOnlyFolder } from '@countersign/environment'
import { openSqlite } from '@countersign/sqlite'
import { Kysely, Migrator, SqliteDialect, type KyselyPlugin } from 'kysely'
import { sandboxMigrations } from './migrations.js'
import type { SandboxDatabase } from './schema.js'

export type SandboxDb = Kysely<SandboxDatabase>

interface OpenOptions {
  /** A file path, or ':memory:'. */
  file: string
  /** Extra query-layer plugins (the benchmark counts rows written with one). */
  plugins?: KyselyPlugin[]
}

/**
 * Opens the sandbox's SQLite database and brings its schema up to date; its folder and files are
 * for the sandbox's user only (packages/environment/src/owner-only.ts).
 */
export async function openSandboxDb({ file, plugins = [] }: OpenOptions): Promise<SandboxDb> {
  if (file !== ':memory:') {
    ownerOnlyFolder(dirname(file))
    ownerOnlyDatabase(file)
  }
  const db = new Kysely<SandboxDatabase>({
    dialect: new SqliteDialect({ database: await openSqlite(file) }),
    plugins,
  })
  const { error, results } = await new Migrator({
    db,
    provider: sandboxMigrations,
  }).migrateToLatest()
  if (error) {
    await db.destroy()
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`sandbox database migration ${failed} failed: ${String(error)}`)
  }
  return db
}
