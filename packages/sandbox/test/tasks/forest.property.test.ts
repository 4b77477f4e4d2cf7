import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { QueryCounter, expectPrecondition, newUser, type TestUser } from './client.js'

const counter = new QueryCounter()
const sandbox = sandboxForSuite({ plugins: [counter] })

/**
 * A model of the forest: ordered children per parent (or per list for the top level), deleted
 * tasks keeping their place. Random creates, moves and deletes go to both the API and the
 * model; the API must then list exactly the model's depth-first order, however it is paged.
 */
class Forest {
  readonly tasks = new Map<string, { list: string; parent: string | null; deleted: boolean }>()
  readonly children = new Map<string, string[]>()

  static key = (list: string, parent: string | null) => parent ?? `list:${list}`

  siblings(list: string, parent: string | null) {
    const key = Forest.key(list, parent)
    if (!this.children.has(key)) this.children.set(key, [])
    return this.children.get(key)!
  }

  place(id: string, list: string, parent: string | null, previous?: string) {
    const siblings = this.siblings(list, parent)
    siblings.splice(previous ? siblings.indexOf(previous) + 1 : 0, 0, id)
  }

  live(list: string) {
    return [...this.tasks].filter(([, t]) => t.list === list && !t.deleted).map(([id]) => id)
  }

  liveChildren(list: string, parent: string | null) {
    return this.siblings(list, parent).filter((id) => !this.tasks.get(id)!.deleted)
  }

  subtree(id: string): string[] {
    return [id, ...(this.children.get(id) ?? []).flatMap((c) => this.subtree(c))]
  }

  order(list: string, withDeleted: boolean, parent: string | null = null): string[] {
    return this.siblings(list, parent)
      .filter((id) => withDeleted || !this.tasks.get(id)!.deleted)
      .flatMap((id) => [id, ...this.order(list, withDeleted, id)])
  }
}

type Op =
  | { kind: 'create'; list: number; parent: number | null; previous: number | null }
  | {
      kind: 'move'
      task: number
      dest: number | null
      parent: number | null
      previous: number | null
    }
  | { kind: 'delete'; task: number }

const pick = fc.option(fc.nat(), { nil: null })
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      list: fc.nat(1),
      parent: pick,
      previous: pick,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      task: fc.nat(),
      dest: fc.option(fc.nat(1), { nil: null }),
      parent: pick,
      previous: pick,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), task: fc.nat() }) },
)

const choose = <T>(items: T[], index: number | null) =>
  index === null || items.length === 0 ? undefined : items[index % items.length]

async function apply(u: TestUser, forest: Forest, lists: string[], o: Op) {
  if (o.kind === 'create') {
    const list = lists[o.list]!
    const parent = choose(forest.live(list), o.parent) ?? null
    const previous = choose(forest.liveChildren(list, parent), o.previous)
    const task = await u.createTask(
      { title: `t${forest.tasks.size}` },
      { parent: parent ?? undefined, previous },
      list,
    )
    forest.tasks.set(task.id, { list, parent, deleted: false })
    forest.place(task.id, list, parent, previous)
    return
  }
  const all = [...lists.flatMap((l) => forest.live(l))]
  const id = choose(all, o.task)
  if (!id) return
  const task = forest.tasks.get(id)!
  if (o.kind === 'delete') {
    await u.remove(id, task.list)
    for (const d of forest.subtree(id)) forest.tasks.get(d)!.deleted = true
    return
  }
  const dest = o.dest === null ? task.list : lists[o.dest]!
  const parent = choose(forest.live(dest), o.parent) ?? null
  const previous = choose(forest.liveChildren(dest, parent), o.previous)
  counter.reset()
  const res = await u.move(
    id,
    {
      destinationTasklist: o.dest === null ? undefined : dest,
      parent: parent ?? undefined,
      previous,
    },
    task.list,
  )
  if ((parent && forest.subtree(id).includes(parent)) || previous === id) {
    expectPrecondition(res)
    return
  }
  expect(res.status, res.text).toBe(200)
  if (dest === task.list) expect(counter.written).toBe(1)
  const old = forest.siblings(task.list, task.parent)
  old.splice(old.indexOf(id), 1)
  for (const d of forest.subtree(id)) forest.tasks.get(d)!.list = dest
  task.parent = parent
  forest.place(id, dest, parent, previous)
}

async function paged(u: TestUser, list: string, sizes: number[], showDeleted: boolean) {
  const ids: string[] = []
  let pageToken: string | undefined
  let i = 0
  do {
    const page = await u.page(
      { maxResults: sizes[i++ % sizes.length], pageToken, showDeleted },
      list,
    )
    ids.push(...page.items.map((t: { id: string }) => t.id))
    pageToken = page.nextPageToken
  } while (pageToken)
  return ids
}

/** Every parent is a task of the same list, no task is its own ancestor, and descendants of a deleted task are deleted. */
async function assertValidForest(user: string) {
  const rows = await sandbox.db
    .selectFrom('tasks')
    .selectAll()
    .where('user_id', '=', user)
    .execute()
  const byId = new Map(rows.map((r) => [r.id, r]))
  const siblings = new Map<string, typeof rows>()
  for (const row of rows) {
    const seen = new Set<string>()
    for (let at = row; at.parent_id !== null; at = byId.get(at.parent_id)!) {
      const parent = byId.get(at.parent_id)
      expect(parent?.list_id).toBe(row.list_id)
      if (parent!.deleted) expect(row.deleted).toBe(1)
      expect(seen.has(at.id)).toBe(false)
      seen.add(at.id)
    }
    const key = `${row.list_id}/${row.parent_id}`
    siblings.set(key, [...(siblings.get(key) ?? []), row])
  }
  for (const group of siblings.values()) {
    const positions = group.map((r) => r.position).sort()
    for (let i = 1; i < positions.length; i++) expect(positions[i - 1]! < positions[i]!).toBe(true)
  }
}

describe('the task forest under random creates, moves and deletes', () => {
  it('stays a valid forest, listed depth first, and every page size returns each visible task exactly once in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }),
        async (ops, sizes) => {
          const u = await newUser(sandbox)
          const lists = [await u.defaultList(), (await u.createList('second')).id]
          const forest = new Forest()
          for (const o of ops) await apply(u, forest, lists, o)

          await assertValidForest(u.name)
          for (const list of lists) {
            const onePage = (await u.page({ maxResults: 100 }, list)).items.map(
              (t: { id: string }) => t.id,
            )
            expect(onePage).toEqual(forest.order(list, false))
            expect(await paged(u, list, sizes, false)).toEqual(onePage)
            expect(await paged(u, list, sizes, true)).toEqual(forest.order(list, true))
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})
