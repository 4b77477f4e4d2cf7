import type { SandboxDb } from '../db/open.js'
import { failedPrecondition } from '../http/errors.js'
import { assertIfMatch } from './if-match.js'
import { assertRoomInList, assertRoomUnderParent } from './limits.js'
import { findList, findLiveTask, reload } from './lookup.js'
import { positionFor } from './positions.js'
import { taskEtag } from './representation.js'
import type { TaskRow } from './rows.js'
import { requireParent, requirePrevious } from './rules.js'
import type { MoveTaskQuery } from './schemas.js'
import { countCountedInSubtree, isInSubtree, moveDescendants } from './subtree.js'
import type { TaskRef } from './tasks.js'
import { now } from './timestamps.js'

/**
 * move_task: to the first position or right after `previous`, under `parent` or at the top
 * level, in this list or in `destinationTasklist`. Subtasks travel with the task. Within a list
 * this writes the moved task only; to another list, its subtree's list changes too.
 */
export async function moveTask(
  db: SandboxDb,
  ref: TaskRef,
  to: MoveTaskQuery,
  ifMatch: string | undefined,
): Promise<TaskRow> {
  return db.transaction().execute(async (trx) => {
    const source = await findList(trx, ref.user, ref.tasklist)
    const task = await findLiveTask(trx, source, ref.task)
    assertIfMatch(ifMatch, taskEtag(task))
    const destination = to.destinationTasklist
      ? await findList(trx, ref.user, to.destinationTasklist)
      : source
    const betweenLists = destination.id !== source.id

    if (task.status === 'completed' && task.hidden && (to.parent || to.previous))
      throw failedPrecondition(
        'A task that is completed and hidden can only go to the first position at the top level: leave out parent and previous.',
      )
    if (to.parent && task.assignment !== null)
      throw failedPrecondition('An assigned task cannot be moved under a parent: leave out parent.')
    if (to.parent && task.recurring)
      throw failedPrecondition('A recurring task cannot be moved under a parent: leave out parent.')
    if (betweenLists && task.recurring)
      throw failedPrecondition(
        'A recurring task cannot be moved to another task list: leave out destinationTasklist.',
      )

    const parent = to.parent ? await requireParent(trx, destination, to.parent) : null
    if (parent && !betweenLists && (await isInSubtree(trx, task, parent)))
      throw failedPrecondition(
        `Task "${parent.id}" is the moved task or one of its subtasks: moving under it would make a cycle. Choose another parent.`,
      )
    const parentId = parent?.id ?? null
    const previous = to.previous
      ? await requirePrevious(trx, destination, to.previous, parentId)
      : null
    if (previous?.id === task.id)
      throw failedPrecondition('A task cannot follow itself: give another previous task, or none.')
    if (parent) await assertRoomUnderParent(trx, destination.id, parent.id, task.id)
    if (betweenLists)
      await assertRoomInList(trx, destination.id, await countCountedInSubtree(trx, task))

    const at = now()
    const position = await positionFor(trx, {
      listId: destination.id,
      parentId,
      after: previous,
      moving: task.id,
    })
    await trx
      .updateTable('tasks')
      .set({ list_id: destination.id, parent_id: parentId, position, updated: at })
      .where('id', '=', task.id)
      .execute()
    if (betweenLists) await moveDescendants(trx, task, destination.id, at)
    return reload(trx, task.id)
  })
}
