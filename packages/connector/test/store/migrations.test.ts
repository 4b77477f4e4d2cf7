import { Kysely, Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  connectorMigrations,
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
} from '../../src/store/migrations.js'
import type { Store } from '../../src/store/open.js'
import { postgresEngine } from '../../src/store/postgres.js'
import { sqliteEngine } from '../../src/store/sqlite.js'
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

  it('0007 gives each older audit event its person, assistant and service, from its grant’s link', async () => {
    const location = await engine.newLocation()
    const { dialect } =
      engine.name === 'postgres'
        ? postgresEngine(location.databaseUrl!)
        : await sqliteEngine(location.dataDir!)
    const db = new Kysely<any>({ dialect })
    const migrator = (name: string) =>
      new Migrator({
        db,
        provider: connectorMigrations,
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: MIGRATION_LOCK_TABLE,
      }).migrateTo(name)
    expect((await migrator('0006_rate_limits')).error).toBeUndefined()
    await db
      .insertInto('grant_links')
      .values({
        grant_id: 'g1',
        credential_id: 'c1',
        account: 'ann',
        client_id: 'client-1',
        service: 'tasks',
        created_at: 1,
      })
      .execute()
    for (const [id, grant] of [
      ['e1', 'g1'],
      ['e2', 'ended'],
    ])
      await db
        .insertInto('audit_events')
        .values({ id, at: 1, grant_id: grant, tool: 'create_task', decision: 'approved' })
        .execute()
    expect((await migrator('0007_audit_people')).error).toBeUndefined()
    const events = await db
      .selectFrom('audit_events')
      .select(['id', 'account', 'client_id', 'service', 'approval_id'])
      .orderBy('id')
      .execute()
    await db.destroy()
    expect(events).toEqual([
      { id: 'e1', account: 'ann', client_id: 'client-1', service: 'tasks', approval_id: null },
      { id: 'e2', account: null, client_id: null, service: null, approval_id: null },
    ])
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
