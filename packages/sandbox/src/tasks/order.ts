import { sql } from 'kysely'
import type { SandboxDb } from '../db/open.js'
import type { PathStep } from './page-tokens.js'
import { siblingsOf } from './positions.js'
import type { TaskRow } from './rows.js'

/**
 * The list order is depth first: top-level tasks by position, each followed by its subtasks by
 * position, at any depth. The walk reads siblings in batches through the sibling index and
 * asks once per batch which of them have children, so a page costs in proportion to what it
 * reads, never to the size of the list.
 */

interface Level {
  parentId: string | null
  /** The last sibling read at this level: the walk continues after it. */
  after: PathStep | null
  batch: TaskRow[]
  withChildren: Set<string>
  exhausted: boolean
  batchSize: number
}

interface WalkOptions {
  listId: string
  /** Resume after the task at the end of this path (from a page token). */
  from?: PathStep[]
  /** Leave out deleted tasks; every descendant of a deleted task is deleted, so its subtree goes too. */
  skipDeleted: boolean
  /** The first batch size; it doubles at each further read of a level, for sparse filters. */
  batchSize: number
}

interface Visit {
  task: TaskRow
  /** The path from the root down to this task: where a page that ends here resumes. */
  path: PathStep[]
}

const MAX_BATCH = 1000

export async function* walkDepthFirst(db: SandboxDb, options: WalkOptions): AsyncGenerator<Visit> {
  const level = (parentId: string | null, after: PathStep | null): Level => ({
    parentId,
    after,
    batch: [],
    withChildren: new Set(),
    exhausted: false,
    batchSize: options.batchSize,
  })
  const from = options.from ?? []
  // Resuming: every level of the path continues after its step, then the last task's children.
  const stack: Level[] = from.map((step, i) => level(i === 0 ? null : from[i - 1]!.id, step))
  stack.push(level(from.at(-1)?.id ?? null, null))

  while (stack.length > 0) {
    const top = stack.at(-1)!
    if (top.batch.length === 0 && !top.exhausted) await readBatch(db, options, top)
    const task = top.batch.shift()
    if (!task) {
      stack.pop()
      continue
    }
    top.after = { id: task.id, position: task.position }
    yield { task, path: stack.map((l) => l.after!) }
    if (top.withChildren.has(task.id)) stack.push(level(task.id, null))
  }
}

async function readBatch(db: SandboxDb, options: WalkOptions, level: Level): Promise<void> {
  let query = siblingsOf(db, options.listId, level.parentId).selectAll()
  if (level.after)
    query = query.where(sql<boolean>`(position, id) > (${level.after.position}, ${level.after.id})`)
  if (options.skipDeleted) query = query.where('deleted', '=', 0)
  const batch = await query.orderBy('position').orderBy('id').limit(level.batchSize).execute()
  level.exhausted = batch.length < level.batchSize
  level.batchSize = Math.min(level.batchSize * 2, MAX_BATCH)
  level.batch = batch
  level.withChildren = await parentsAmong(db, options, batch)
}

/** Which of these tasks have children (live ones, when deleted tasks are left out): one query. */
async function parentsAmong(
  db: SandboxDb,
  options: WalkOptions,
  tasks: TaskRow[],
): Promise<Set<string>> {
  if (tasks.length === 0) return new Set()
  const rows = await db
    .selectFrom('tasks as p')
    .select('p.id')
    .where(
      'p.id',
      'in',
      tasks.map((t) => t.id),
    )
    .where(({ exists, selectFrom }) => {
      let children = selectFrom('tasks as c')
        .select(sql`1`.as('one'))
        .where('c.list_id', '=', options.listId)
        .whereRef('c.parent_id', '=', 'p.id')
      if (options.skipDeleted) children = children.where('c.deleted', '=', 0)
      return exists(children)
    })
    .execute()
  return new Set(rows.map((r) => r.id))
}
