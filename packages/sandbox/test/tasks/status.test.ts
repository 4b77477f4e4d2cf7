import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { newUser } from './client.js'

const sandbox = sandboxForSuite()

describe('task status, completion, due date and clearing', () => {
  it('marking a task completed sets completed to now', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    expect(task.completed).toBeUndefined()
    const before = new Date().toISOString()
    const done = await u.patch(task.id, { status: 'completed' })
    expect(done.status).toBe('completed')
    expect(done.completed >= before && done.completed <= new Date().toISOString()).toBe(true)
  })

  it('marking a task completed keeps the completed time the request gives, in UTC with milliseconds', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    const done = await u.patch(task.id, {
      status: 'completed',
      completed: '2026-03-01T10:00:00+02:00',
    })
    expect(done.completed).toBe('2026-03-01T08:00:00.000Z')
  })

  it('a completed task keeps its completed time through other changes', async () => {
    const u = await newUser(sandbox)
    const done = await u.createTask({
      title: 'x',
      status: 'completed',
      completed: '2026-01-02T03:04:05.678Z',
    })
    expect((await u.patch(done.id, { title: 'y' })).completed).toBe('2026-01-02T03:04:05.678Z')
    expect((await u.patch(done.id, { status: 'completed' })).completed).toBe(
      '2026-01-02T03:04:05.678Z',
    )
    expect((await u.patch(done.id, { completed: '2026-02-02T00:00:00Z' })).completed).toBe(
      '2026-02-02T00:00:00.000Z',
    )
  })

  it('setting a task back to needsAction removes completed', async () => {
    const u = await newUser(sandbox)
    const done = await u.createTask({ title: 'x', status: 'completed' })
    const reopened = await u.patch(done.id, { status: 'needsAction' })
    expect(reopened.status).toBe('needsAction')
    expect(reopened).not.toHaveProperty('completed')
  })

  it('completed is ignored while the task stays needsAction', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x', completed: '2026-01-01T00:00:00Z' })
    expect(task).not.toHaveProperty('completed')
  })

  it('due keeps only the date part as written and reads back as midnight UTC', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ due: '2026-05-01T23:30:00-05:00' })
    expect(task.due).toBe('2026-05-01T00:00:00.000Z')
    expect((await u.patch(task.id, { due: '2026-12-31T00:30:00+14:00' })).due).toBe(
      '2026-12-31T00:00:00.000Z',
    )
  })

  it('in a PATCH, null clears notes and due; fields left out keep their value', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'keep', notes: 'n', due: '2026-05-01T00:00:00Z' })
    const cleared = await u.patch(task.id, { notes: null, due: null })
    expect(cleared).not.toHaveProperty('notes')
    expect(cleared).not.toHaveProperty('due')
    expect(cleared.title).toBe('keep')
  })

  it('updated is set on every write', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    await new Promise((r) => setTimeout(r, 5))
    const patched = await u.patch(task.id, {})
    expect(patched.updated > task.updated).toBe(true)
    await new Promise((r) => setTimeout(r, 5))
    const moved = (await u.move(task.id)).body
    expect(moved.updated > patched.updated).toBe(true)
  })

  it('clear hides the completed tasks of the list and answers 200 with an empty body', async () => {
    const u = await newUser(sandbox)
    const open = await u.createTask({ title: 'open' })
    const done = await u.createTask({ title: 'done', status: 'completed' })
    const res = await u.call('POST', '/lists/@default/clear')
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(await u.titles()).toEqual(['open'])
    expect((await u.getTask(done.id)).hidden).toBe(true)
    expect((await u.getTask(open.id)).hidden).toBe(false)
    expect(await u.titles({ showHidden: true })).toEqual(['done', 'open'])
  })

  it('clear leaves other lists alone', async () => {
    const u = await newUser(sandbox)
    const other = await u.createList('other')
    const done = await u.createTask({ title: 'done', status: 'completed' }, {}, other.id)
    await u.call('POST', '/lists/@default/clear')
    expect((await u.getTask(done.id, other.id)).hidden).toBe(false)
  })

  it('a hidden task set back to needsAction is no longer hidden and reappears', async () => {
    const u = await newUser(sandbox)
    const done = await u.createTask({ title: 'done', status: 'completed' })
    await u.call('POST', '/lists/@default/clear')
    const reopened = await u.patch(done.id, { status: 'needsAction' })
    expect(reopened.hidden).toBe(false)
    expect(await u.titles()).toEqual(['done'])
  })
})
