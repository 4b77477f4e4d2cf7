import { Kysely, Migrator } from 'kysely'
import { engineFor, type StoreEngine } from './engine.js'
import { connectorMigrations, MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from './migrations.js'
import type { ConnectorDatabase } from './schema.js'

export interface StoreState {
  engine: StoreEngine
  /** The schema's migrations the next start applies, by name, oldest first. */
  pending: string[]
}

/**
 * The store as a setup check reads it (`countersign doctor`): reached, and how far its schema
 * is, applying nothing. Throws what the driver throws when the database cannot be reached.
 */
export async function inspectStore({
  databaseUrl,
  dataDir,
}: {
  databaseUrl?: string
  dataDir: string
}): Promise<StoreState> {
  const engine = engineFor(databaseUrl)
  const dialect =
    engine === 'postgres'
      ? await postgresDialect(databaseUrl!)
      : (await (await import('./sqlite.js')).sqliteEngine(dataDir)).dialect
  const db = new Kysely<ConnectorDatabase>({ dialect })
  try {
    const migrator = new Migrator({
      db,
      provider: connectorMigrations,
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
    })
    const migrations = await migrator.getMigrations()
    return {
      engine,
      pending: migrations.filter((m) => m.executedAt === undefined).map((m) => m.name),
    }
  } finally {
    await db.destroy()
  }
}

/** One pool, without the channels between replicas a running connector opens. */
async function postgresDialect(databaseUrl: string) {
  const { postgresEngine } = await import('./postgres.js')
  const { dialect, channels } = postgresEngine(databaseUrl)
  await channels.close()
  return dialect
}
