import { describe, expect, it } from 'vitest'
import { seedLists, seedTasks } from '../../src/tasks/seed.js'
import { sandboxForSuite } from '../support/sandbox.js'
import { QueryCounter, expectLimit, newUser } from './client.js'

const counter = new QueryCounter()
const sandbox = sandboxForSuite({ plugins: [counter] })

describe('limits, each at its exact edge', () => {
  it('a user can have 2000 task lists, the default list included; the 2001st fails', async () => {
    const u = await newUser(sandbox)
    await seedLists(sandbox.db, u.name, 1998)
    expect((await u.createList('the 2000th')).title).toBe('the 2000th')
    const error = expectLimit(await u.call('POST', '/lists', { body: { title: 'one too many' } }))
    expect(error.message).toContain('2000')
    const first = (await u.call('GET', '/lists')).body
    expect(first.items).toHaveLength(1000)
    const second = (await u.call('GET', `/lists?pageToken=${first.nextPageToken}`)).body
    expect(second.items).toHaveLength(1000)
    expect(second.nextPageToken).toBeUndefined()
    expect(second.items.at(-1).title).toBe('the 2000th')
  })

  it('a list holds 20,000 tasks that are not hidden; the next create fails, and hidden tasks do not count', async () => {
    const u = await newUser(sandbox)
    await seedTasks(sandbox.db, { user: u.name, tasklist: '@default', count: 19_999 })
    const last = await u.createTask({ title: 'the 20000th', status: 'completed' })
    const error = expectLimit(
      await u.call('POST', '/lists/@default/tasks', { body: { title: 'one too many' } }),
    )
    expect(error.message).toContain('20000')
    await u.call('POST', '/lists/@default/clear')
    expect((await u.getTask(last.id)).hidden).toBe(true)
    await u.createTask({ title: 'fits again' })
    expectLimit(await u.call('POST', '/lists/@default/tasks', { body: {} }))
  })

  it('a move to another list checks the destination for the whole subtree', async () => {
    const u = await newUser(sandbox)
    const ids = await seedTasks(sandbox.db, { user: u.name, tasklist: '@default', count: 19_999 })
    const other = await u.createList('source')
    const single = await u.createTask({ title: 'single' }, {}, other.id)
    const parent = await u.createTask({ title: 'parent' }, {}, other.id)
    await u.createTask({ title: 'child' }, { parent: parent.id }, other.id)
    const error = expectLimit(
      await u.move(parent.id, { destinationTasklist: '@default' }, other.id),
    )
    expect(error.message).toContain('20000')
    expect((await u.move(single.id, { destinationTasklist: '@default' }, other.id)).status).toBe(
      200,
    )
    await u.remove(ids[0]!)
    await u.remove(ids[1]!)
    expect((await u.move(parent.id, { destinationTasklist: '@default' }, other.id)).status).toBe(
      200,
    )
  })

  it('a user has at most 100,000 tasks that are not deleted, hidden ones included', async () => {
    const u = await newUser(sandbox)
    const archive = await u.createList('archive')
    // Hidden tasks do not fill a list, but they do count toward the user's total.
    const ids = await seedTasks(sandbox.db, {
      user: u.name,
      tasklist: archive.id,
      count: 99_999,
      hidden: true,
    })
    await u.createTask({ title: 'the 100000th' })
    const error = expectLimit(await u.call('POST', '/lists/@default/tasks', { body: {} }))
    expect(error.message).toContain('100000')
    await u.remove(ids[0]!, archive.id)
    await u.createTask({ title: 'fits after a delete' })
  })

  it('a task has at most 2,000 subtasks: create and move under it fail past the edge', async () => {
    const u = await newUser(sandbox)
    const parent = await u.createTask({ title: 'parent' })
    const children = await seedTasks(sandbox.db, {
      user: u.name,
      tasklist: '@default',
      parent: parent.id,
      count: 1999,
    })
    const outsider = await u.createTask({ title: 'outsider' })
    await u.createTask({ title: 'the 2000th' }, { parent: parent.id })
    expect(
      expectLimit(await u.call('POST', `/lists/@default/tasks?parent=${parent.id}`, { body: {} }))
        .message,
    ).toContain('2000')
    expectLimit(await u.move(outsider.id, { parent: parent.id }))
    // Reordering a subtask among its siblings adds none.
    expect((await u.move(children[0]!, { parent: parent.id, previous: children[5]! })).status).toBe(
      200,
    )
    await u.remove(children[1]!)
    expect((await u.move(outsider.id, { parent: parent.id })).body.parent).toBe(parent.id)
  })

  it('restoring a deleted task is held to the limits too', async () => {
    const u = await newUser(sandbox)
    const gone = await u.createTask({ title: 'gone' })
    await u.remove(gone.id)
    await seedTasks(sandbox.db, { user: u.name, tasklist: '@default', count: 20_000 })
    expectLimit(
      await u.call('PATCH', `/lists/@default/tasks/${gone.id}`, { body: { deleted: false } }),
    )
    expect((await u.getTask(gone.id)).deleted).toBe(true)
  })
})

describe('cost in a 20,000-task list', () => {
  it('a move within a 20,000-task list writes one row', async () => {
    const u = await newUser(sandbox)
    const ids = await seedTasks(sandbox.db, { user: u.name, tasklist: '@default', count: 20_000 })
    counter.reset()
    const res = await u.move(ids[19_999]!, { previous: ids[10]! })
    expect(res.status).toBe(200)
    expect(counter.written).toBe(1)
    counter.reset()
    expect((await u.move(ids[3]!, { parent: ids[7]! })).status).toBe(200)
    expect(counter.written).toBe(1)
    const page = await u.page({ maxResults: 12 })
    expect(page.items.map((t: { id: string }) => t.id)).toEqual([
      ...ids.slice(0, 3),
      ...ids.slice(4, 8),
      ids[3],
      ids[8],
      ids[9],
      ids[10],
      ids[19_999],
    ])
  })

  it('reading a page from a 20,000-task list needs as few queries as from a 100-task list', async () => {
    const big = await newUser(sandbox)
    const small = await newUser(sandbox)
    await seedTasks(sandbox.db, { user: big.name, tasklist: '@default', count: 20_000 })
    await seedTasks(sandbox.db, { user: small.name, tasklist: '@default', count: 201 })
    const queriesFor = async (u: typeof big, pageToken?: string) => {
      counter.reset()
      const page = await u.page({ maxResults: 100, pageToken })
      expect(page.items).toHaveLength(100)
      return { queries: counter.queries, next: page.nextPageToken as string }
    }
    const bigFirst = await queriesFor(big)
    const smallFirst = await queriesFor(small)
    expect(bigFirst.queries).toBe(smallFirst.queries)
    expect(bigFirst.queries).toBeLessThanOrEqual(6)
    const bigSecond = await queriesFor(big, bigFirst.next)
    const smallSecond = await queriesFor(small, smallFirst.next)
    expect(bigSecond.queries).toBe(smallSecond.queries)
    expect(bigSecond.queries).toBeLessThanOrEqual(8)
  })
})
