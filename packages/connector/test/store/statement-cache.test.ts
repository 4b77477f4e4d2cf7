import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from '@countersign/sqlite'
import { Kysely, SqliteDialect } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../src/store/open.js'
import { withStatementCache } from '../../src/store/statement-cache.js'

/** A database with a table of a few rows, and how often it prepared each SQL text. */
async function countingDatabase() {
  const database = await openSqlite(':memory:')
  database.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
  database.exec("INSERT INTO t (v) VALUES ('a'), ('b'), ('c')")
  const prepared = new Map<string, number>()
  const prepare = database.prepare.bind(database)
  database.prepare = ((sql: string) => {
    prepared.set(sql, (prepared.get(sql) ?? 0) + 1)
    return prepare(sql)
  }) as typeof database.prepare
  return { database, prepared }
}

describe('the statement cache', () => {
  it('prepares each SQL text once and hands back the same statement', async () => {
    const { database, prepared } = await countingDatabase()
    const cached = withStatementCache(database)
    const select = 'SELECT v FROM t WHERE id = ?'
    const first = cached.prepare(select)
    expect(first.all([1])).toEqual([{ v: 'a' }])
    const second = cached.prepare(select)
    expect(second).toBe(first)
    expect(second.all([2])).toEqual([{ v: 'b' }])
    expect(cached.prepare('UPDATE t SET v = ? WHERE id = ?').run(['z', 3]).changes).toBe(1)
    expect(cached.prepare(select).all([3])).toEqual([{ v: 'z' }])
    expect(prepared.get(select)).toBe(1)
  })

  it('keeps at most `capacity` statements, dropping the least recently used', async () => {
    const { database, prepared } = await countingDatabase()
    const cached = withStatementCache(database, 2)
    const [a, b, c] = [1, 2, 3].map((id) => `SELECT v FROM t WHERE id = ${id}`) as [
      string,
      string,
      string,
    ]
    cached.prepare(a)
    cached.prepare(b)
    cached.prepare(a) // a is now the most recently used
    cached.prepare(c) // drops b
    cached.prepare(a)
    cached.prepare(b)
    expect([prepared.get(a), prepared.get(b), prepared.get(c)]).toEqual([1, 2, 1])
  })

  it('never hands out a statement still being iterated: that use gets its own', async () => {
    const { database } = await countingDatabase()
    const cached = withStatementCache(database)
    const select = 'SELECT v FROM t ORDER BY id'
    const streaming = cached.prepare(select)
    const rows = streaming.iterate([])
    expect(rows.next().value).toEqual({ v: 'a' })
    const meanwhile = cached.prepare(select)
    expect(meanwhile).not.toBe(streaming)
    expect(meanwhile.all([])).toHaveLength(3)
    expect(rows.next().value).toEqual({ v: 'b' })
    rows.return?.()
    expect(cached.prepare(select)).toBe(streaming)
  })

  it('gives a failed prepare no place: the next one fails the same way', async () => {
    const { database, prepared } = await countingDatabase()
    const cached = withStatementCache(database)
    expect(() => cached.prepare('SELECT nope FROM nowhere')).toThrow(/no such table/)
    expect(() => cached.prepare('SELECT nope FROM nowhere')).toThrow(/no such table/)
    expect(prepared.get('SELECT nope FROM nowhere')).toBe(2)
  })

  it('serves kysely: reads, writes, errors, transactions and streams', async () => {
    const { database } = await countingDatabase()
    const db = new Kysely<{ t: { id: number; v: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(database) }),
    })
    try {
      const byId = (id: number) => db.selectFrom('t').select('v').where('id', '=', id)
      expect(await byId(1).executeTakeFirst()).toEqual({ v: 'a' })
      expect(await byId(2).executeTakeFirst()).toEqual({ v: 'b' })
      await expect(db.insertInto('t').values({ id: 1, v: 'dup' }).execute()).rejects.toThrow(
        /UNIQUE/,
      )
      // The statement that failed runs again, with other values.
      await db.insertInto('t').values({ id: 4, v: 'd' }).execute()
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('t').set({ v: 'x' }).where('id', '=', 4).execute()
      })
      expect(await byId(4).executeTakeFirst()).toEqual({ v: 'x' })
      const streamed: string[] = []
      for await (const row of db.selectFrom('t').select('v').orderBy('id').stream())
        streamed.push(row.v)
      expect(streamed).toEqual(['a', 'b', 'c', 'x'])
      // A stream left early releases its statement for the next query.
      for await (const row of db.selectFrom('t').select('v').orderBy('id').stream()) {
        expect(row.v).toBe('a')
        break
      }
      expect(await db.selectFrom('t').select('v').orderBy('id').execute()).toHaveLength(4)
    } finally {
      await db.destroy()
    }
  })
})

describe('the SQLite store', () => {
  let store: Store | undefined
  let dataDir: string | undefined
  afterEach(async () => {
    await store?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('reads what it wrote after a row changed under a cached statement', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-statements-'))
    store = await openStore({ dataDir })
    const { db } = store
    const read = () =>
      db.selectFrom('grant_links').select('credential_id').where('grant_id', '=', 'g').execute()
    await db
      .insertInto('grant_links')
      .values({
        grant_id: 'g',
        credential_id: 'c1',
        account: 'a',
        client_id: 'cl',
        service: 'tasks',
        created_at: 1,
      })
      .execute()
    expect(await read()).toEqual([{ credential_id: 'c1' }])
    await db
      .updateTable('grant_links')
      .set({ credential_id: 'c2' })
      .where('grant_id', '=', 'g')
      .execute()
    expect(await read()).toEqual([{ credential_id: 'c2' }])
    await db.deleteFrom('grant_links').where('grant_id', '=', 'g').execute()
    expect(await read()).toEqual([])
  })
})
