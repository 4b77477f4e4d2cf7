import type { SandboxDb } from '../db/open.js'
import { invalidArgument } from '../http/errors.js'
import { walkDepthFirst } from './order.js'
import { encodeListCursor, encodeTaskCursor, type PathStep } from './page-tokens.js'
import type { ListRow, TaskRow } from './rows.js'
import type { ListTasksQuery } from './schemas.js'
import { dueInstant } from './timestamps.js'

interface Page<T> {
  items: T[]
  nextPageToken?: string
}

/** Whether a task passes list_tasks' filters. Bounds are inclusive; a task without the field fails a bound on it. */
function matches(t: TaskRow, q: ListTasksQuery): boolean {
  if (t.deleted && !q.showDeleted) return false
  if (t.hidden && !q.showHidden) return false
  if (t.status === 'completed' && !q.showCompleted) return false
  if (t.assignment !== null && !q.showAssigned) return false
  const due = t.due === null ? null : dueInstant(t.due)
  const within = (value: string | null, min?: { instant: string }, max?: { instant: string }) =>
    (!min || (value !== null && value >= min.instant)) &&
    (!max || (value !== null && value <= max.instant))
  return (
    within(due, q.dueMin, q.dueMax) &&
    within(t.completed, q.completedMin, q.completedMax) &&
    within(t.updated, q.updatedMin)
  )
}

/**
 * One page of list_tasks in depth-first order. It reads one matching task past the page to
 * know whether there is a next page, and the token resumes right after the last task returned.
 */
export async function readTasksPage(
  db: SandboxDb,
  list: ListRow,
  q: ListTasksQuery,
): Promise<Page<TaskRow>> {
  if (q.pageToken && q.pageToken.listId !== list.id)
    throw invalidArgument('Invalid value for pageToken: it belongs to another task list.')
  const items: TaskRow[] = []
  let lastPath: PathStep[] = []
  const walk = walkDepthFirst(db, {
    listId: list.id,
    from: q.pageToken?.path,
    skipDeleted: !q.showDeleted,
    batchSize: q.maxResults + 1,
  })
  for await (const { task, path } of walk) {
    if (!matches(task, q)) continue
    if (items.length === q.maxResults) {
      return { items, nextPageToken: encodeTaskCursor({ listId: list.id, path: lastPath }) }
    }
    items.push(task)
    lastPath = path
  }
  return { items }
}

/** One page of list_task_lists, in creation order. */
export async function readListsPage(
  db: SandboxDb,
  user: string,
  q: { maxResults: number; pageToken?: number },
): Promise<Page<ListRow>> {
  let query = db.selectFrom('task_lists').selectAll().where('user_id', '=', user)
  if (q.pageToken !== undefined) query = query.where('seq', '>', q.pageToken)
  const rows = await query
    .orderBy('seq')
    .limit(q.maxResults + 1)
    .execute()
  if (rows.length <= q.maxResults) return { items: rows }
  const items = rows.slice(0, q.maxResults)
  return { items, nextPageToken: encodeListCursor(items.at(-1)!.seq) }
}
