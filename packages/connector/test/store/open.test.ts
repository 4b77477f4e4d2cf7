import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openStore } from '../../src/store/open.js'
import { SQLITE_FILE } from '../../src/store/sqlite.js'
import { describeEachEngine } from '../support/engines.js'

describeEachEngine('openStore', (engine) => {
  it('opens the engine that the location names', async () => {
    const store = await engine.openStore()
    expect(store.engine).toBe(engine.name)
  })

  it('reads epoch-millisecond instants and counts back as numbers', async () => {
    const store = await engine.openStore()
    const latest = Number.MAX_SAFE_INTEGER
    await store.db
      .insertInto('audit_events')
      .values([
        {
          id: 'n1',
          at: latest,
          grant_id: 'g',
          tool: 't',
          decision: 'approved',
          upstream_status: 200,
        },
        { id: 'n2', at: 0, grant_id: 'g', tool: 't', decision: 'declined', upstream_status: null },
      ])
      .execute()
    const rows = await store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('id', 'in', ['n1', 'n2'])
      .orderBy('id')
      .execute()
    expect(rows.map((row) => [row.at, row.upstream_status])).toEqual([
      [latest, 200],
      [0, null],
    ])
    const { count } = await store.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('grant_id', '=', 'g')
      .executeTakeFirstOrThrow()
    expect(count).toBe(2)
  })

  if (engine.name === 'sqlite') {
    it('keeps SQLite in DATA_DIR/connector.db with WAL, a busy timeout and foreign keys', async () => {
      const location = await engine.location()
      const store = await engine.openStore(location)
      expect(existsSync(join(location.dataDir, SQLITE_FILE))).toBe(true)
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`PRAGMA ${name}`).execute(store.db)).rows[0] as object)[0]
      expect(await pragma('journal_mode')).toBe('wal')
      expect(await pragma('busy_timeout')).toBe(5000)
      expect(await pragma('foreign_keys')).toBe(1)
    })
  }

  if (engine.name === 'postgres') {
    it('sizes the pool by ?max=', async () => {
      const location = await engine.newLocation()
      const store = await engine.openStore({
        ...location,
        databaseUrl: `${location.databaseUrl}?max=2`,
      })
      await Promise.all(
        Array.from({ length: 6 }, () => sql`SELECT pg_sleep(0.05)`.execute(store.db)),
      )
      const { rows } = await sql<{ connections: number }>`
        SELECT count(*) AS connections FROM pg_stat_activity WHERE datname = current_database()
      `.execute(store.db)
      expect(rows[0]?.connections).toBe(2)
    })
  }
})

describe('openStore configuration errors', () => {
  it('refuses a DATABASE_URL that is not PostgreSQL, without echoing it', async () => {
    const attempt = openStore({
      databaseUrl: 'mysql://root:hunter2@db/app',
      dataDir: '/nonexistent',
    })
    await expect(attempt).rejects.toThrow(/DATABASE_URL must be a postgres:\/\/ or postgresql:\/\//)
    await expect(attempt).rejects.not.toThrow(/hunter2/)
  })

  it.each(['0', '-1', '1.5', 'many', '100000'])('refuses ?max=%s', async (max) => {
    const attempt = openStore({
      databaseUrl: `postgres://app:hunter2@127.0.0.1:1/app?max=${max}`,
      dataDir: '/nonexistent',
    })
    await expect(attempt).rejects.toThrow(`DATABASE_URL ?max= must be a whole number`)
    await expect(attempt).rejects.not.toThrow(/hunter2/)
  })
})
