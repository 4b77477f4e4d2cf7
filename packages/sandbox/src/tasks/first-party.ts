import type { SandboxDb } from '../db/open.js'
import { reload } from './lookup.js'
import { assignmentOf, type TaskRow } from './rows.js'
import { deleteSubtree } from './subtree.js'
import { now } from './timestamps.js'

/**
 * What the provider's own clients do that the task API cannot: its web view completes a task,
 * and a document or chat space unassigns one. Both act for the signed-in person on their own
 * tasks only; another user's is as unknown as one that never existed. Each says what became of
 * the request, for the page to put in words.
 */

export type Outcome<T = undefined> =
  { done: true; value: T } | { done: false; why: 'unknown' | 'deleted' }

/**
 * Completes a task the way first-party clients do: done and hidden at once, so list_tasks
 * leaves it out unless showHidden is true (showCompleted alone is not enough). Completing it
 * again changes nothing.
 */
export async function completeInWebView(
  db: SandboxDb,
  user: string,
  taskId: string,
): Promise<Outcome<TaskRow>> {
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .where('user_id', '=', user)
      .executeTakeFirst()
    if (!task) return { done: false, why: 'unknown' }
    if (task.deleted) return { done: false, why: 'deleted' }
    if (task.status === 'completed' && task.hidden) return { done: true, value: task }
    const at = now()
    await trx
      .updateTable('tasks')
      .set({
        status: 'completed',
        completed: task.status === 'completed' ? task.completed : at,
        hidden: 1,
        updated: at,
      })
      .where('id', '=', task.id)
      .execute()
    return { done: true, value: await reload(trx, task.id) }
  })
}

/**
 * Unassigns the original task in its document or chat space: the assigned task leaves the
 * person's lists (deleted, as delete_task leaves it) and the original stays where it is;
 * delete_task instead removes both. Unassigning again changes nothing.
 */
export async function unassign(
  db: SandboxDb,
  user: string,
  surfaceItemId: string,
): Promise<Outcome> {
  return db.transaction().execute(async (trx) => {
    const item = await trx
      .selectFrom('surface_items')
      .select(['id', 'deleted'])
      .where('id', '=', surfaceItemId)
      .where('user_id', '=', user)
      .executeTakeFirst()
    if (!item) return { done: false, why: 'unknown' }
    if (item.deleted) return { done: false, why: 'deleted' }
    const assigned = await assignedTaskOf(trx, user, item.id)
    if (assigned && !assigned.deleted) await deleteSubtree(trx, assigned, now())
    return { done: true, value: undefined }
  })
}

/** The assigned task made from a surface item, deleted or not. */
export async function assignedTaskOf(
  db: SandboxDb,
  user: string,
  surfaceItemId: string,
): Promise<TaskRow | undefined> {
  // A coarse match on the stored JSON (`_` of base64url is a LIKE wildcard), then the exact one.
  const candidates = await db
    .selectFrom('tasks')
    .selectAll()
    .where('user_id', '=', user)
    .where('assignment', 'like', `%"surfaceItemId":"${surfaceItemId}"%`)
    .execute()
  return candidates.find((t) => assignmentOf(t)?.surfaceItemId === surfaceItemId)
}
