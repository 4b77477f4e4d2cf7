import type { SandboxDb } from '../db/open.js'
import { failedPrecondition, invalidArgument } from '../http/errors.js'
import { assertIfMatch } from './if-match.js'
import { assertRoomForUser, assertRoomInList, assertRoomUnderParent } from './limits.js'
import { findList, findTask, reload } from './lookup.js'
import { positionFor } from './positions.js'
import { taskEtag } from './representation.js'
import { assignmentOf, newId, type TaskRow } from './rows.js'
import { requireParent, requirePrevious, statusAfter } from './rules.js'
import type { TaskBody } from './schemas.js'
import { deleteSubtree, deletedWith, restoreTasks } from './subtree.js'
import { now } from './timestamps.js'

/** Identifies a task of one user by the path of the call. */
export interface TaskRef {
  user: string
  tasklist: string
  task: string
}

/** create_task: first among its siblings, or right after `previous`. Writes one row. */
export async function createTask(
  db: SandboxDb,
  user: string,
  tasklist: string,
  where: { parent?: string; previous?: string },
  body: TaskBody,
): Promise<TaskRow> {
  if (body.deleted === true)
    throw invalidArgument('Invalid value for deleted: a new task cannot be deleted; leave it out.')
  return db.transaction().execute(async (trx) => {
    const list = await findList(trx, user, tasklist)
    const parent = where.parent ? await requireParent(trx, list, where.parent) : null
    const parentId = parent?.id ?? null
    const previous = where.previous
      ? await requirePrevious(trx, list, where.previous, parentId)
      : null
    await assertRoomInList(trx, list.id, 1)
    await assertRoomForUser(trx, user, 1)
    if (parent) await assertRoomUnderParent(trx, list.id, parent.id)
    const at = now()
    const task: TaskRow = {
      id: newId(),
      user_id: user,
      list_id: list.id,
      parent_id: parentId,
      position: await positionFor(trx, { listId: list.id, parentId, after: previous }),
      title: body.title ?? '',
      notes: body.notes || null,
      ...statusAfter(undefined, body, at),
      due: body.due?.day ?? null,
      updated: at,
      hidden: 0,
      deleted: 0,
      deleted_at: null,
      recurring: 0,
      assignment: null,
      links: null,
    }
    await trx.insertInto('tasks').values(task).execute()
    return task
  })
}

/**
 * update_task, with patch semantics: fields left out keep their value, null clears notes and
 * due. `deleted: true` deletes like delete_task; `deleted: false` restores what that delete removed.
 */
export async function updateTask(
  db: SandboxDb,
  ref: TaskRef,
  body: TaskBody,
  ifMatch: string | undefined,
): Promise<TaskRow> {
  return db.transaction().execute(async (trx) => {
    const list = await findList(trx, ref.user, ref.tasklist)
    const task = await findTask(trx, list, ref.task)
    assertIfMatch(ifMatch, taskEtag(task))
    const deleting = body.deleted === true && !task.deleted
    const restoring = body.deleted === false && task.deleted === 1
    const assignment = assignmentOf(task)
    // For an assigned task `deleted` is read-only: sent unchanged it is ignored like other read-only fields.
    if (assignment && (deleting || restoring))
      throw failedPrecondition(
        'The deleted field of an assigned task cannot be changed: use the delete operation, which also deletes the original in its source surface.',
      )
    if (assignment?.surfaceType === 'DOCUMENT' && body.notes)
      throw failedPrecondition(
        'A task assigned from a document cannot have notes: leave notes out.',
      )

    const at = now()
    if (restoring) await restore(trx, task, at)
    await trx
      .updateTable('tasks')
      .set({
        updated: at,
        ...statusAfter(task, body, at),
        ...(body.title !== undefined && { title: body.title }),
        ...(body.notes !== undefined && { notes: body.notes || null }),
        ...(body.due !== undefined && { due: body.due?.day ?? null }),
      })
      .where('id', '=', task.id)
      .execute()
    if (deleting) await deleteSubtree(trx, task, at)
    return reload(trx, task.id)
  })
}

/** Restores a task and the descendants deleted with it, within the limits they count toward. */
async function restore(db: SandboxDb, task: TaskRow, at: string): Promise<void> {
  if (task.parent_id !== null) {
    const parent = await reload(db, task.parent_id)
    if (parent.deleted)
      throw failedPrecondition(
        `The parent task "${parent.id}" is deleted: restore the parent first, which brings back the subtasks deleted with it.`,
      )
    await assertRoomUnderParent(db, task.list_id, parent.id)
  }
  const tasks = await deletedWith(db, task)
  await assertRoomInList(db, task.list_id, tasks.filter((t) => !t.hidden).length)
  await assertRoomForUser(db, task.user_id, tasks.length)
  await restoreTasks(
    db,
    tasks.map((t) => t.id),
    at,
  )
}

/**
 * delete_task: the task and all its subtasks, with one shared `deleted_at`. Deleting again
 * succeeds and changes nothing. An assigned task's original in its source surface goes too.
 */
export async function deleteTask(
  db: SandboxDb,
  ref: TaskRef,
  ifMatch: string | undefined,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const list = await findList(trx, ref.user, ref.tasklist)
    const task = await findTask(trx, list, ref.task)
    assertIfMatch(ifMatch, taskEtag(task))
    if (task.deleted) return
    await deleteSubtree(trx, task, now())
    const assignment = assignmentOf(task)
    if (assignment)
      await trx
        .updateTable('surface_items')
        .set({ deleted: 1 })
        .where('id', '=', assignment.surfaceItemId)
        .execute()
  })
}

/** clear: hides the list's completed tasks (they stay readable, and reappear if reopened). */
export async function clearList(db: SandboxDb, user: string, tasklist: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const list = await findList(trx, user, tasklist)
    await trx
      .updateTable('tasks')
      .set({ hidden: 1, updated: now() })
      .where('list_id', '=', list.id)
      .where('hidden', '=', 0)
      .where('deleted', '=', 0)
      .where('status', '=', 'completed')
      .execute()
  })
}
