import { sql } from 'kysely'
import type { SandboxDb } from '../db/open.js'
import { newId, type TaskRow } from './rows.js'

/**
 * A task together with its descendants, found with a recursive query over the sibling index.
 * Which descendants: `live` ones (not deleted), the ones `deletedAt` one delete, or `all`.
 */
type Members = 'live' | 'all' | { deletedAt: string }

function subtree(db: SandboxDb, root: TaskRow, members: Members) {
  return db.withRecursive('subtree(id)', (qc) =>
    qc
      .selectFrom('tasks')
      .select('id')
      .where('id', '=', root.id)
      .unionAll(() => {
        let children = qc
          .selectFrom('tasks')
          .innerJoin('subtree', 'subtree.id', 'tasks.parent_id')
          .select('tasks.id')
          .where('tasks.list_id', '=', root.list_id)
        if (members === 'live') children = children.where('tasks.deleted', '=', 0)
        else if (members !== 'all')
          children = children.where('tasks.deleted_at', '=', members.deletedAt)
        return children
      }),
  )
}

/**
 * Deletes the task and every live descendant with one shared `deleted_at`, so a restore can
 * find them. It is the time plus a random mark: two deletes in one millisecond stay apart.
 */
export async function deleteSubtree(db: SandboxDb, root: TaskRow, at: string): Promise<void> {
  await subtree(db, root, 'live')
    .updateTable('tasks')
    .set({ deleted: 1, deleted_at: `${at} ${newId()}`, updated: at })
    .where('id', 'in', (eb) => eb.selectFrom('subtree').select('subtree.id'))
    .execute()
}

/** What a restore brings back: the task and the descendants deleted with it, and no others. */
export async function deletedWith(db: SandboxDb, root: TaskRow): Promise<TaskRow[]> {
  if (root.deleted_at === null) return []
  return subtree(db, root, { deletedAt: root.deleted_at })
    .selectFrom('tasks')
    .selectAll()
    .where('id', 'in', (eb) => eb.selectFrom('subtree').select('subtree.id'))
    .execute()
}

export async function restoreTasks(db: SandboxDb, ids: string[], at: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('tasks')
      .set({ deleted: 0, deleted_at: null, updated: at })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute()
  }
}

/** Tasks of the subtree that count toward a list's limit: neither hidden nor deleted. */
export async function countCountedInSubtree(db: SandboxDb, root: TaskRow): Promise<number> {
  const row = await subtree(db, root, 'live')
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('id', 'in', (eb) => eb.selectFrom('subtree').select('subtree.id'))
    .where('hidden', '=', 0)
    .where('deleted', '=', 0)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** Moves the descendants (deleted ones too) to another list: subtasks travel with their parent. */
export async function moveDescendants(
  db: SandboxDb,
  root: TaskRow,
  listId: string,
  at: string,
): Promise<void> {
  await subtree(db, root, 'all')
    .updateTable('tasks')
    .set({ list_id: listId, updated: at })
    .where('id', 'in', (eb) => eb.selectFrom('subtree').select('subtree.id'))
    .where('id', '!=', root.id)
    .execute()
}

/** Whether `candidate` is `root` or one of its descendants: walks up from the candidate. */
export async function isInSubtree(
  db: SandboxDb,
  root: TaskRow,
  candidate: TaskRow,
): Promise<boolean> {
  const found = await sql<{ id: string }>`
    WITH RECURSIVE ancestors(id, parent_id) AS (
      SELECT id, parent_id FROM tasks WHERE id = ${candidate.id}
      UNION ALL
      SELECT t.id, t.parent_id FROM tasks t JOIN ancestors a ON t.id = a.parent_id
    )
    SELECT id FROM ancestors WHERE id = ${root.id} LIMIT 1`.execute(db)
  return found.rows.length > 0
}

/** Whether the task has any child, deleted ones included. */
export async function hasChildren(db: SandboxDb, task: TaskRow): Promise<boolean> {
  const child = await db
    .selectFrom('tasks')
    .select('id')
    .where('list_id', '=', task.list_id)
    .where('parent_id', '=', task.id)
    .limit(1)
    .executeTakeFirst()
  return child !== undefined
}
