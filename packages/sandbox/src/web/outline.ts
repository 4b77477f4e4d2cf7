import type { SandboxDb } from '../db/open.js'
import { LIMITS } from '../tasks/limits.js'
import { readListsPage } from '../tasks/listing.js'
import { walkDepthFirst } from '../tasks/order.js'
import type { ListRow, TaskRow } from '../tasks/rows.js'

/**
 * What the web view shows of a user's tasks: each list in the user's order, its tasks in list
 * order (depth first) as a tree. Deleted tasks are left out, and so are hidden ones (completed,
 * then cleared); a subtask that is neither stays, under its nearest shown ancestor.
 */

/** The most tasks shown per list; the page says how many more there are. */
export const TASKS_SHOWN_PER_LIST = 1000

export interface OutlineTask {
  task: TaskRow
  subtasks: OutlineTask[]
}

export interface ListOutline {
  list: ListRow
  tasks: OutlineTask[]
  /** Tasks of the list that are shown nowhere because of the cap. */
  more: number
}

/** Every list of the user with its tasks, each list read in one transaction. */
export async function readOutlines(db: SandboxDb, user: string): Promise<ListOutline[]> {
  const { items: lists } = await readListsPage(db, user, { maxResults: LIMITS.listsPerUser })
  const outlines: ListOutline[] = []
  for (const list of lists)
    outlines.push(await db.transaction().execute((trx) => readListOutline(trx, list)))
  return outlines
}

async function readListOutline(
  db: SandboxDb,
  list: ListRow,
  cap = TASKS_SHOWN_PER_LIST,
): Promise<ListOutline> {
  const tasks: OutlineTask[] = []
  // By depth in the list: the task on the walk's current path, or undefined where it is hidden.
  const path: (OutlineTask | undefined)[] = []
  let shown = 0
  const walk = walkDepthFirst(db, { listId: list.id, skipDeleted: true, batchSize: 100 })
  for await (const visit of walk) {
    path.length = visit.path.length - 1
    if (visit.task.hidden) {
      path.push(undefined)
      continue
    }
    if (shown === cap) return { list, tasks, more: (await countShowable(db, list)) - shown }
    const node: OutlineTask = { task: visit.task, subtasks: [] }
    const parent = path.findLast((ancestor) => ancestor !== undefined)
    ;(parent?.subtasks ?? tasks).push(node)
    path.push(node)
    shown++
  }
  return { list, tasks, more: 0 }
}

/** The tasks the web view would show without a cap: neither deleted nor hidden. */
async function countShowable(db: SandboxDb, list: ListRow): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('list_id', '=', list.id)
    .where('deleted', '=', 0)
    .where('hidden', '=', 0)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** Whether the outline shows the task (it may be past the cap, hidden or deleted). */
export function outlineShows(outlines: ListOutline[], taskId: string): boolean {
  const inTree = (nodes: OutlineTask[]): boolean =>
    nodes.some((n) => n.task.id === taskId || inTree(n.subtasks))
  return outlines.some((o) => inTree(o.tasks))
}
