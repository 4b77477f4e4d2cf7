import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachEngine } from '../support/engines.js'

const credential = (id: string, subject: string, updatedAt: number) => ({
  id,
  subject,
  scope: 'tasks',
  ciphertext: `sealed-${id}`,
  key_id: 'k1',
  created_at: 1,
  updated_at: updatedAt,
})

const BY_SUBJECT_AND_TIME = `
  SELECT id, updated_at FROM upstream_credentials WHERE subject = $1 AND updated_at > $2`

describeEachEngine('prepareRead', (engine) => {
  it('reads one row with its values bound in order, and undefined when none matches', async () => {
    const store = await engine.openStore()
    await store.db
      .insertInto('upstream_credentials')
      .values([credential('pr-a', 'pr-alice', 10), credential('pr-b', 'pr-bob', 20)])
      .execute()
    const read = store.prepareRead<{ id: string; updated_at: number }>(BY_SUBJECT_AND_TIME)

    expect(await read('pr-bob', 5)).toEqual({ id: 'pr-b', updated_at: 20 })
    expect(await read('pr-alice', 5)).toEqual({ id: 'pr-a', updated_at: 10 })
    expect(await read('pr-alice', 10)).toBeUndefined()
    expect(await read('pr-nobody', 0)).toBeUndefined()
  })

  it('answers many reads at once, each with its own values', async () => {
    const store = await engine.openStore()
    const ids = Array.from({ length: 30 }, (_, i) => `pr-many-${i}`)
    await store.db
      .insertInto('upstream_credentials')
      .values(ids.map((id, i) => credential(id, `pr-many-${i}`, i + 1)))
      .execute()
    const read = store.prepareRead<{ id: string }>(BY_SUBJECT_AND_TIME)

    const rows = await Promise.all(ids.map((_, i) => read(`pr-many-${i}`, 0)))
    expect(rows.map((row) => row?.id)).toEqual(ids)
  })

  it('still reads after a migration adds a column to the table it reads', async () => {
    const store = await engine.openStore()
    await store.db
      .insertInto('upstream_credentials')
      .values(credential('pr-c', 'pr-carol', 30))
      .execute()
    const read = store.prepareRead<{ id: string }>(
      'SELECT id FROM upstream_credentials WHERE subject = $1',
    )
    expect(await read('pr-carol')).toEqual({ id: 'pr-c' })

    await sql`ALTER TABLE upstream_credentials ADD COLUMN pr_added text`.execute(store.db)
    try {
      expect(await read('pr-carol')).toEqual({ id: 'pr-c' })
    } finally {
      await sql`ALTER TABLE upstream_credentials DROP COLUMN pr_added`.execute(store.db)
    }
  })

  it('fails the read, not the process, when its text is wrong', async () => {
    const store = await engine.openStore()
    const read = store.prepareRead('SELECT id FROM no_such_table WHERE id = $1')
    await expect(read('x')).rejects.toThrow(/no_such_table/)
  })
})
