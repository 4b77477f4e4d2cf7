import type { SandboxDb } from '../db/open.js'
import { limitExceeded } from '../http/errors.js'

/**
 * The task service's limits (docs/design.md, "The tool table"). Each is checked with one indexed
 * COUNT before the write that could break it.
 */
export const LIMITS = {
  listsPerUser: 2000,
  /** Hidden (cleared) and deleted tasks do not count. */
  tasksPerList: 20_000,
  /** Hidden tasks count; deleted ones do not. */
  tasksPerUser: 100_000,
  /** Direct subtasks that are not deleted. */
  subtasksPerTask: 2000,
} as const

const count = (n: { n: number | bigint | string } | undefined) => Number(n?.n ?? 0)

/** A COUNT of tasks that are not deleted: no limit counts deleted tasks. */
const liveTasks = (db: SandboxDb) =>
  db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted', '=', 0)

export async function assertRoomForList(db: SandboxDb, user: string): Promise<void> {
  const lists = count(
    await db
      .selectFrom('task_lists')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', user)
      .executeTakeFirst(),
  )
  if (lists >= LIMITS.listsPerUser)
    throw limitExceeded(
      `Limit reached: a user can have at most ${LIMITS.listsPerUser} task lists, and this user has ${lists}.`,
    )
}

/** Room for `adding` more tasks that are neither hidden nor deleted in the list. */
export async function assertRoomInList(
  db: SandboxDb,
  listId: string,
  adding: number,
): Promise<void> {
  const tasks = count(
    await liveTasks(db).where('list_id', '=', listId).where('hidden', '=', 0).executeTakeFirst(),
  )
  if (tasks + adding > LIMITS.tasksPerList)
    throw limitExceeded(
      `Limit reached: a task list can hold at most ${LIMITS.tasksPerList} tasks that are not hidden; this one has ${tasks} and the change adds ${adding}. Clear completed tasks or delete some first.`,
    )
}

/** Room for `adding` more tasks that are not deleted, hidden ones included, for the user. */
export async function assertRoomForUser(
  db: SandboxDb,
  user: string,
  adding: number,
): Promise<void> {
  const tasks = count(await liveTasks(db).where('user_id', '=', user).executeTakeFirst())
  if (tasks + adding > LIMITS.tasksPerUser)
    throw limitExceeded(
      `Limit reached: a user can have at most ${LIMITS.tasksPerUser} tasks in all, hidden ones included; this user has ${tasks}. Delete some first.`,
    )
}

/** Room for one more direct subtask; `except` is a task already counted that is moving. */
export async function assertRoomUnderParent(
  db: SandboxDb,
  listId: string,
  parentId: string,
  except?: string,
): Promise<void> {
  let query = liveTasks(db).where('list_id', '=', listId).where('parent_id', '=', parentId)
  if (except) query = query.where('id', '!=', except)
  const subtasks = count(await query.executeTakeFirst())
  if (subtasks >= LIMITS.subtasksPerTask)
    throw limitExceeded(
      `Limit reached: a task can have at most ${LIMITS.subtasksPerTask} subtasks, and task "${parentId}" has ${subtasks}.`,
    )
}
