import { generateNKeysBetween } from 'fractional-indexing'
import type { SandboxDb } from '../db/open.js'
import { findList } from './lookup.js'
import { siblingsOf } from './positions.js'
import { newId, type TaskRow } from './rows.js'
import { now } from './timestamps.js'

/**
 * Bulk seeding straight into the store, for tests at the limits and for the benchmark, where
 * thousands of tasks created one by one over HTTP would take too long. Seeded rows are exactly
 * what the API would have stored: fractional positions, hidden only when completed.
 */

interface SeedTasks {
  user: string
  /** A list id or `@default`. */
  tasklist: string
  count: number
  /** Seed subtasks of this task instead of top-level tasks. */
  parent?: string
  /** Completed and cleared: they do not count toward the per-list limit. */
  hidden?: boolean
  titlePrefix?: string
}

const BATCH = 500

/** Appends `count` tasks after the existing siblings, in order; returns their ids. */
export async function seedTasks(db: SandboxDb, seed: SeedTasks): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const list = await findList(trx, seed.user, seed.tasklist)
    const parentId = seed.parent ?? null
    const last = await siblingsOf(trx, list.id, parentId)
      .select('position')
      .orderBy('position', 'desc')
      .limit(1)
      .executeTakeFirst()
    const positions = generateNKeysBetween(last?.position ?? null, null, seed.count)
    const at = now()
    const rows: TaskRow[] = positions.map((position, i) => ({
      id: newId(),
      user_id: seed.user,
      list_id: list.id,
      parent_id: parentId,
      position,
      title: `${seed.titlePrefix ?? 'Task'} ${i + 1}`,
      notes: null,
      status: seed.hidden ? 'completed' : 'needsAction',
      due: null,
      completed: seed.hidden ? at : null,
      updated: at,
      hidden: seed.hidden ? 1 : 0,
      deleted: 0,
      deleted_at: null,
      recurring: 0,
      assignment: null,
      links: null,
    }))
    for (let i = 0; i < rows.length; i += BATCH) {
      await trx
        .insertInto('tasks')
        .values(rows.slice(i, i + BATCH))
        .execute()
    }
    return rows.map((r) => r.id)
  })
}

/** Adds `count` lists titled "List 1", "List 2", ... to a user; returns their ids. */
export async function seedLists(db: SandboxDb, user: string, count: number): Promise<string[]> {
  const at = now()
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    user_id: user,
    title: `List ${i + 1}`,
    updated: at,
  }))
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      await trx
        .insertInto('task_lists')
        .values(rows.slice(i, i + BATCH))
        .execute()
    }
  })
  return rows.map((r) => r.id)
}
