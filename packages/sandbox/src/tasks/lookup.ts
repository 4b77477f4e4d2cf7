import type { SandboxDb } from '../db/open.js'
import { notFound } from '../http/errors.js'
import type { ListRow, TaskRow } from './rows.js'

/** Names the user's default list wherever a list id is expected. */
const DEFAULT_LIST = '@default'

/**
 * A list of this user, by id or `@default` (the first list the user got, which can never be
 * deleted). Another user's list is as unknown as a list that never existed.
 */
export async function findList(db: SandboxDb, user: string, ref: string): Promise<ListRow> {
  let query = db.selectFrom('task_lists').selectAll().where('user_id', '=', user)
  query = ref === DEFAULT_LIST ? query.orderBy('seq').limit(1) : query.where('id', '=', ref)
  const list = await query.executeTakeFirst()
  if (!list) throw notFound(`Task list "${ref}" not found.`)
  return list
}

/** A task of the list, deleted or not; `role` names it in the error (a parent, a previous sibling). */
export async function findTask(
  db: SandboxDb,
  list: ListRow,
  id: string,
  role = 'Task',
): Promise<TaskRow> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', id)
    .where('list_id', '=', list.id)
    .executeTakeFirst()
  if (!task) throw notFound(`${role} "${id}" not found in task list "${list.id}".`)
  return task
}

/** A task of the list that is not deleted: what a write may target. */
export async function findLiveTask(
  db: SandboxDb,
  list: ListRow,
  id: string,
  role = 'Task',
): Promise<TaskRow> {
  const task = await findTask(db, list, id, role)
  if (task.deleted) throw notFound(`${role} "${id}" in task list "${list.id}" is deleted.`)
  return task
}

/** Re-reads a task after a write, so the answer shows exactly what was stored. */
export async function reload(db: SandboxDb, id: string): Promise<TaskRow> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}
