import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  QueryCounter,
  expectNotFound,
  expectPrecondition,
  newUser,
  type TestUser,
} from './client.js'

const counter = new QueryCounter()
const sandbox = sandboxForSuite({ plugins: [counter] })

/** Top-level a, b, c in that order. */
async function abc(u: TestUser) {
  const c = await u.createTask({ title: 'c' })
  const b = await u.createTask({ title: 'b' })
  const a = await u.createTask({ title: 'a' })
  return { a, b, c }
}

async function assigned(u: TestUser, title = 'assigned') {
  const res = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
    body: { user: u.name, tasklist: '@default', title, surfaceType: 'SPACE' },
  })
  return res.body
}

async function recurring(u: TestUser, id: string, tasklist = '@default') {
  return (
    await sandbox.request('POST', '/_sandbox/recurring', {
      body: { user: u.name, tasklist, task: id },
    })
  ).body
}

describe('move_task', () => {
  it('without previous a task moves to the first position', async () => {
    const u = await newUser(sandbox)
    const { c } = await abc(u)
    expect((await u.move(c.id)).status).toBe(200)
    expect(await u.titles()).toEqual(['c', 'a', 'b'])
  })

  it('with previous a task moves right after it', async () => {
    const u = await newUser(sandbox)
    const { a, b, c } = await abc(u)
    await u.move(a.id, { previous: b.id })
    expect(await u.titles()).toEqual(['b', 'a', 'c'])
    await u.move(a.id, { previous: c.id })
    expect(await u.titles()).toEqual(['b', 'c', 'a'])
  })

  it('a move within a list writes only the moved task', async () => {
    const u = await newUser(sandbox)
    const { a, c } = await abc(u)
    await u.createTask({ title: 'a1' }, { parent: a.id })
    const before = await u.allTasks()
    counter.reset()
    const moved = (await u.move(a.id, { previous: c.id })).body
    expect(counter.written).toBe(1)
    const after = await u.allTasks()
    for (const t of before.filter((t) => t.id !== a.id))
      expect(after.find((x) => x.id === t.id)).toEqual(t)
    expect(moved.position).not.toBe(a.position)
  })

  it('a task moves under a parent with its subtasks', async () => {
    const u = await newUser(sandbox)
    const { a, b } = await abc(u)
    await u.createTask({ title: 'a1' }, { parent: a.id })
    const moved = (await u.move(a.id, { parent: b.id })).body
    expect(moved.parent).toBe(b.id)
    expect(await u.titles()).toEqual(['b', 'a', 'a1', 'c'])
  })

  it('a subtask moves back to the top level when parent is left out', async () => {
    const u = await newUser(sandbox)
    const { a, b } = await abc(u)
    const a1 = await u.createTask({ title: 'a1' }, { parent: a.id })
    const moved = (await u.move(a1.id, { previous: b.id })).body
    expect(moved.parent).toBeUndefined()
    expect(await u.titles()).toEqual(['a', 'b', 'a1', 'c'])
  })

  it('a task cannot be moved under itself or its own descendant (a cycle)', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    const a1 = await u.createTask({ title: 'a1' }, { parent: a.id })
    const a1x = await u.createTask({ title: 'a1x' }, { parent: a1.id })
    expect(expectPrecondition(await u.move(a.id, { parent: a.id })).message).toContain('cycle')
    expectPrecondition(await u.move(a.id, { parent: a1x.id }))
    expect(await u.titles()).toEqual(['a', 'a1', 'a1x', 'b', 'c'])
  })

  it('a missing, deleted or other-list parent or previous is 404', async () => {
    const u = await newUser(sandbox)
    const { a, b, c } = await abc(u)
    await u.remove(c.id)
    const other = await u.createList('other')
    const there = await u.createTask({ title: 'there' }, {}, other.id)
    expectNotFound(await u.move(a.id, { parent: 'nope' }))
    expectNotFound(await u.move(a.id, { previous: 'nope' }))
    expectNotFound(await u.move(a.id, { parent: c.id }))
    expectNotFound(await u.move(a.id, { previous: c.id }))
    expectNotFound(await u.move(a.id, { previous: there.id }))
    expectNotFound(await u.move(a.id, { parent: b.id }, other.id))
  })

  it('moving a deleted task is 404', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    await u.remove(a.id)
    expectNotFound(await u.move(a.id))
  })

  it('a hidden parent or previous is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    const done = await u.createTask({ title: 'done', status: 'completed' })
    await u.call('POST', '/lists/@default/clear')
    expectPrecondition(await u.move(a.id, { parent: done.id }))
    expectPrecondition(await u.move(a.id, { previous: done.id }))
  })

  it('previous must be a child of the new parent', async () => {
    const u = await newUser(sandbox)
    const { a, b, c } = await abc(u)
    const b1 = await u.createTask({ title: 'b1' }, { parent: b.id })
    expectPrecondition(await u.move(a.id, { parent: b.id, previous: c.id }))
    expectPrecondition(await u.move(a.id, { previous: b1.id }))
    expect((await u.move(a.id, { parent: b.id, previous: b1.id })).status).toBe(200)
    expect(await u.titles()).toEqual(['b', 'b1', 'a', 'c'])
  })

  it('a task cannot be its own previous', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    expectPrecondition(await u.move(a.id, { previous: a.id }))
  })

  it('a completed and hidden task can only go to position 0: previous or parent is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const { b } = await abc(u)
    const done = await u.createTask({ title: 'done', status: 'completed' }, { previous: b.id })
    await u.call('POST', '/lists/@default/clear')
    expectPrecondition(await u.move(done.id, { previous: b.id }))
    expectPrecondition(await u.move(done.id, { parent: b.id }))
    expect((await u.move(done.id)).status).toBe(200)
    expect(await u.titles({ showHidden: true })).toEqual(['done', 'a', 'b', 'c'])
  })

  it('an assigned task cannot be moved under a parent, nor be one', async () => {
    const u = await newUser(sandbox)
    const { a, b } = await abc(u)
    const task = await assigned(u)
    expectPrecondition(await u.move(task.id, { parent: a.id }))
    expectPrecondition(await u.move(b.id, { parent: task.id }))
    expect((await u.move(task.id, { previous: a.id })).status).toBe(200)
  })

  it('a recurring task cannot be moved under a parent, nor be one', async () => {
    const u = await newUser(sandbox)
    const { a, b } = await abc(u)
    await recurring(u, a.id)
    expectPrecondition(await u.move(a.id, { parent: b.id }))
    expectPrecondition(await u.move(b.id, { parent: a.id }))
  })

  it('a recurring task cannot move between lists', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    await recurring(u, a.id)
    const other = await u.createList('other')
    expect(
      expectPrecondition(await u.move(a.id, { destinationTasklist: other.id })).message,
    ).toContain('recurring')
    expect((await u.move(a.id, { destinationTasklist: '@default' })).status).toBe(200)
  })

  it('a move to another list takes the subtasks along, deleted ones too', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    const a1 = await u.createTask({ title: 'a1' }, { parent: a.id })
    const a1x = await u.createTask({ title: 'a1x' }, { parent: a1.id })
    const gone = await u.createTask({ title: 'gone' }, { parent: a.id })
    await u.remove(gone.id)
    const other = await u.createList('other')
    const existing = await u.createTask({ title: 'existing' }, {}, other.id)
    const moved = (await u.move(a.id, { destinationTasklist: other.id, previous: existing.id }))
      .body
    expect(moved.selfLink).toBe(`${sandbox.url}/tasks/v1/lists/${other.id}/tasks/${a.id}`)
    expect(await u.titles({}, other.id)).toEqual(['existing', 'a', 'a1', 'a1x'])
    expect(await u.titles()).toEqual(['b', 'c'])
    expect((await u.getTask(a1x.id, other.id)).parent).toBe(a1.id)
    expect((await u.getTask(gone.id, other.id)).deleted).toBe(true)
    expectNotFound(await u.call('GET', `/lists/@default/tasks/${a1.id}`))
  })

  it('a move to another list can go under a parent there', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    const other = await u.createList('other')
    const p = await u.createTask({ title: 'p' }, {}, other.id)
    expect((await u.move(a.id, { destinationTasklist: other.id, parent: p.id })).body.parent).toBe(
      p.id,
    )
    expect(await u.titles({}, other.id)).toEqual(['p', 'a'])
  })

  it('the parent and previous of a move to another list are looked up in the destination', async () => {
    const u = await newUser(sandbox)
    const { a, b } = await abc(u)
    const other = await u.createList('other')
    expectNotFound(await u.move(a.id, { destinationTasklist: other.id, parent: b.id }))
    expectNotFound(await u.move(a.id, { destinationTasklist: other.id, previous: b.id }))
  })

  it('an unknown destination list is 404', async () => {
    const u = await newUser(sandbox)
    const { a } = await abc(u)
    expectNotFound(await u.move(a.id, { destinationTasklist: 'nope' }))
  })
})
