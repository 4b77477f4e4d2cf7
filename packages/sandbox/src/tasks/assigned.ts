import type { SandboxDb } from '../db/open.js'
import { failedPrecondition } from '../http/errors.js'
import { assertRoomForUser, assertRoomInList } from './limits.js'
import { findList, findLiveTask, reload } from './lookup.js'
import { positionFor } from './positions.js'
import { newId, type StoredAssignment, type SurfaceType, type TaskRow } from './rows.js'
import { hasChildren } from './subtree.js'
import { now } from './timestamps.js'

/**
 * Tasks the API cannot make: assigned tasks come from a document or a chat space, and recurring
 * tasks from first-party clients. The control API makes them so the rules about them can be tested.
 */

/**
 * An assigned task, first at the top level, with its original in the source surface. It is
 * never a parent nor a child, and list_tasks leaves it out unless showAssigned is true.
 */
export async function createAssignedTask(
  db: SandboxDb,
  req: { user: string; tasklist: string; title: string; surfaceType: SurfaceType },
): Promise<TaskRow> {
  return db.transaction().execute(async (trx) => {
    const list = await findList(trx, req.user, req.tasklist)
    await assertRoomInList(trx, list.id, 1)
    await assertRoomForUser(trx, req.user, 1)
    const at = now()
    const surfaceItemId = newId()
    await trx
      .insertInto('surface_items')
      .values({
        id: surfaceItemId,
        user_id: req.user,
        surface_type: req.surfaceType,
        title: req.title,
        deleted: 0,
        created: at,
      })
      .execute()
    const assignment: StoredAssignment =
      req.surfaceType === 'DOCUMENT'
        ? { surfaceType: 'DOCUMENT', surfaceItemId, driveResourceInfo: { driveFileId: newId() } }
        : { surfaceType: 'SPACE', surfaceItemId, spaceInfo: { space: `spaces/${newId()}` } }
    const task: TaskRow = {
      id: newId(),
      user_id: req.user,
      list_id: list.id,
      parent_id: null,
      position: await positionFor(trx, { listId: list.id, parentId: null, after: null }),
      title: req.title,
      notes: null,
      status: 'needsAction',
      due: null,
      completed: null,
      updated: at,
      hidden: 0,
      deleted: 0,
      deleted_at: null,
      recurring: 0,
      assignment: JSON.stringify(assignment),
      links: null,
    }
    await trx.insertInto('tasks').values(task).execute()
    return task
  })
}

/** Marks a task recurring. A recurring task is never a subtask nor a parent, so neither may be one already. */
export async function markRecurring(
  db: SandboxDb,
  req: { user: string; tasklist: string; task: string },
): Promise<TaskRow> {
  return db.transaction().execute(async (trx) => {
    const list = await findList(trx, req.user, req.tasklist)
    const task = await findLiveTask(trx, list, req.task)
    if (task.parent_id !== null)
      throw failedPrecondition(`Task "${task.id}" is a subtask, and a subtask cannot be recurring.`)
    if (await hasChildren(trx, task))
      throw failedPrecondition(
        `Task "${task.id}" has subtasks, and a recurring task cannot have subtasks.`,
      )
    await trx
      .updateTable('tasks')
      .set({ recurring: 1, updated: now() })
      .where('id', '=', task.id)
      .execute()
    return reload(trx, task.id)
  })
}
