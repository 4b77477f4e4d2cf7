import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { expectInvalid, expectNotFound, expectPrecondition, newUser } from './client.js'

const sandbox = sandboxForSuite()

describe('create_task', () => {
  it('without previous a new task goes first among its siblings', async () => {
    const u = await newUser(sandbox)
    await u.createTask({ title: 'a' })
    await u.createTask({ title: 'b' })
    expect(await u.titles()).toEqual(['b', 'a'])
  })

  it('with previous a new task goes right after it', async () => {
    const u = await newUser(sandbox)
    const c = await u.createTask({ title: 'c' })
    const a = await u.createTask({ title: 'a' })
    await u.createTask({ title: 'b' }, { previous: a.id })
    await u.createTask({ title: 'd' }, { previous: c.id })
    expect(await u.titles()).toEqual(['a', 'b', 'c', 'd'])
  })

  it('with parent a new task is a subtask, listed right after its parent', async () => {
    const u = await newUser(sandbox)
    const second = await u.createTask({ title: '2' })
    const first = await u.createTask({ title: '1' })
    const child = await u.createTask({ title: '1.1' }, { parent: first.id })
    await u.createTask({ title: '1.2' }, { parent: first.id, previous: child.id })
    await u.createTask({ title: '2.1' }, { parent: second.id })
    expect(await u.titles()).toEqual(['1', '1.1', '1.2', '2', '2.1'])
    expect(child.parent).toBe(first.id)
  })

  it('positions strictly order siblings', async () => {
    const u = await newUser(sandbox)
    const a = await u.createTask({ title: 'a' })
    for (let i = 0; i < 5; i++) await u.createTask({ title: `after-${i}` }, { previous: a.id })
    const items = await u.allTasks()
    const positions = items.map((t) => t.position as string)
    expect([...positions].sort()).toEqual(positions)
    expect(new Set(positions).size).toBe(positions.length)
  })

  it('a missing or deleted previous is 404', async () => {
    const u = await newUser(sandbox)
    expectNotFound(await u.call('POST', '/lists/@default/tasks?previous=nope', { body: {} }))
    const gone = await u.createTask({ title: 'gone' })
    await u.remove(gone.id)
    expectNotFound(await u.call('POST', `/lists/@default/tasks?previous=${gone.id}`, { body: {} }))
  })

  it('a previous under another parent is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const parent = await u.createTask({ title: 'p' })
    const child = await u.createTask({ title: 'c' }, { parent: parent.id })
    const top = await u.createTask({ title: 't' })
    expectPrecondition(
      await u.call('POST', `/lists/@default/tasks?previous=${child.id}`, { body: {} }),
    )
    expectPrecondition(
      await u.call('POST', `/lists/@default/tasks?parent=${parent.id}&previous=${top.id}`, {
        body: {},
      }),
    )
  })

  it('a hidden previous is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const done = await u.createTask({ title: 'done', status: 'completed' })
    await u.call('POST', '/lists/@default/clear')
    expectPrecondition(
      await u.call('POST', `/lists/@default/tasks?previous=${done.id}`, { body: {} }),
    )
  })

  it('a previous in another list is 404', async () => {
    const u = await newUser(sandbox)
    const other = await u.createList('other')
    const there = await u.createTask({ title: 'there' }, {}, other.id)
    expectNotFound(await u.call('POST', `/lists/@default/tasks?previous=${there.id}`, { body: {} }))
  })

  it('a missing or deleted parent is 404', async () => {
    const u = await newUser(sandbox)
    expectNotFound(await u.call('POST', '/lists/@default/tasks?parent=nope', { body: {} }))
    const gone = await u.createTask({ title: 'gone' })
    await u.remove(gone.id)
    expectNotFound(await u.call('POST', `/lists/@default/tasks?parent=${gone.id}`, { body: {} }))
  })

  it('a hidden parent is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const done = await u.createTask({ title: 'done', status: 'completed' })
    await u.call('POST', '/lists/@default/clear')
    expectPrecondition(
      await u.call('POST', `/lists/@default/tasks?parent=${done.id}`, { body: {} }),
    )
  })

  it('an assigned task as parent makes create_task fail with FAILED_PRECONDITION', async () => {
    const u = await newUser(sandbox)
    const assigned = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user: u.name, tasklist: '@default', title: 'from a doc', surfaceType: 'DOCUMENT' },
      })
    ).body
    const error = expectPrecondition(
      await u.call('POST', `/lists/@default/tasks?parent=${assigned.id}`, {
        body: { title: 'sub' },
      }),
    )
    expect(error.message).toContain('assigned')
    expect(await u.titles({ showAssigned: true })).toEqual(['from a doc'])
  })

  it('a recurring task as parent is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'weekly' })
    await sandbox.request('POST', '/_sandbox/recurring', {
      body: { user: u.name, tasklist: '@default', task: task.id },
    })
    expect(
      expectPrecondition(
        await u.call('POST', `/lists/@default/tasks?parent=${task.id}`, { body: {} }),
      ).message,
    ).toContain('recurring')
  })

  it('an empty parent or previous is the same as none', async () => {
    const u = await newUser(sandbox)
    const task = (
      await u.call('POST', '/lists/@default/tasks?parent=&previous=', { body: { title: 'top' } })
    ).body
    expect(task.parent).toBeUndefined()
  })

  it('a new task cannot be created deleted', async () => {
    const u = await newUser(sandbox)
    expectInvalid(await u.call('POST', '/lists/@default/tasks', { body: { deleted: true } }))
    expect((await u.createTask({ deleted: false })).deleted).toBe(false)
  })

  it('an unknown list is 404', async () => {
    const u = await newUser(sandbox)
    expectNotFound(await u.call('POST', '/lists/nope/tasks', { body: {} }))
  })
})
