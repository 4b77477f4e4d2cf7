import type { SandboxDb } from '../db/open.js'
import { failedPrecondition } from '../http/errors.js'
import { findLiveTask } from './lookup.js'
import type { ListRow, TaskRow } from './rows.js'
import type { TaskBody } from './schemas.js'

/**
 * The task service's rules on where a task may go (docs/design.md, "Task service rules"), shared by
 * create_task and move_task. A target that is missing or deleted is not found (404); one that
 * exists but breaks a rule is a failed precondition (400), with a message that says what to choose
 * instead.
 */

/** A task that may take a subtask: live, visible, neither assigned nor recurring. */
export async function requireParent(db: SandboxDb, list: ListRow, id: string): Promise<TaskRow> {
  const parent = await findLiveTask(db, list, id, 'Parent task')
  if (parent.hidden)
    throw failedPrecondition(
      `Parent task "${id}" is hidden (it was completed and the list cleared): choose a visible parent.`,
    )
  if (parent.assignment !== null)
    throw failedPrecondition(
      `Parent task "${id}" is an assigned task, and an assigned task cannot be a parent: choose another parent or none.`,
    )
  if (parent.recurring)
    throw failedPrecondition(
      `Parent task "${id}" is a recurring task, and a recurring task cannot be a parent: choose another parent or none.`,
    )
  return parent
}

/** A sibling to follow: live, visible, under the same parent (top level when null). */
export async function requirePrevious(
  db: SandboxDb,
  list: ListRow,
  id: string,
  parentId: string | null,
): Promise<TaskRow> {
  const previous = await findLiveTask(db, list, id, 'Previous task')
  if (previous.parent_id !== parentId)
    throw failedPrecondition(
      `Previous task "${id}" is not ${parentId === null ? 'a top-level task' : `a subtask of "${parentId}"`}: give a previous sibling under the same parent.`,
    )
  if (previous.hidden)
    throw failedPrecondition(
      `Previous task "${id}" is hidden (it was completed and the list cleared): choose a visible task.`,
    )
  return previous
}

/**
 * Status and completion after a write. The final status is the one given, else the current
 * one. Completing keeps the completion time given, else the one already held, else now;
 * going back to needsAction drops it and unhides the task, which reappears in the list.
 */
export function statusAfter(
  current: TaskRow | undefined,
  body: TaskBody,
  at: string,
): Pick<TaskRow, 'status' | 'completed'> & { hidden?: 0 } {
  const status = body.status ?? current?.status ?? 'needsAction'
  if (status === 'needsAction') return { status, completed: null, hidden: 0 }
  const kept = current?.status === 'completed' ? current.completed : null
  return { status, completed: body.completed?.instant ?? kept ?? at }
}
