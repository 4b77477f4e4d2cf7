import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  connectorMigrations,
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
} from '../../src/store/migrations.js'
import type { Store } from '../../src/store/open.js'
import { describeEachEngine } from '../support/engines.js'

const expectedMigrations = Object.keys(await connectorMigrations.getMigrations()).sort()

async function appliedMigrations(store: Store): Promise<string[]> {
  const { rows } = await sql<{
    name: string
  }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)}`.execute(store.db)
  return rows.map((row) => row.name).sort()
}

describe('migrations', () => {
  it('start with 0001_initial', () => {
    expect(expectedMigrations[0]).toBe('0001_initial')
  })
})

describeEachEngine('migrations', (engine) => {
  it('are idempotent: reopening a store applies nothing twice', async () => {
    const location = await engine.newLocation()
    const first = await engine.openStore(location)
    await first.db
      .insertInto('upstream_credentials')
      .values({
        id: 'kept',
        subject: 's',
        scope: 'tasks',
        ciphertext: 'c',
        key_id: 'k',
        created_at: 1,
        updated_at: 1,
      })
      .execute()
    await first.close()

    const second = await engine.openStore(location)
    expect(await appliedMigrations(second)).toEqual(expectedMigrations)
    const again = await new Migrator({
      db: second.db,
      provider: connectorMigrations,
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
    }).migrateToLatest()
    expect(again).toEqual({ results: [] })
    const kept = await second.db.selectFrom('upstream_credentials').select('id').execute()
    expect(kept).toEqual([{ id: 'kept' }])
  })

  if (engine.name === 'postgres') {
    it('run once when several replicas start on one empty database at the same time', async () => {
      const location = await engine.newLocation()
      const replicas = await Promise.all(
        Array.from({ length: 4 }, () => engine.openStore(location)),
      )
      for (const replica of replicas) {
        expect(await appliedMigrations(replica)).toEqual(expectedMigrations)
        await replica.db.selectFrom('audit_events').selectAll().execute()
      }
    })
  }
})
