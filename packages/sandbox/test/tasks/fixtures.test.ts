import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { expectInvalid, expectNotFound, expectPrecondition, newUser } from './client.js'

const sandbox = sandboxForSuite()

const assign = (body: Record<string, unknown>) =>
  sandbox.request('POST', '/_sandbox/assigned-tasks', { body })
const makeRecurring = (body: Record<string, unknown>) =>
  sandbox.request('POST', '/_sandbox/recurring', { body })

describe('control API: assigned and recurring tasks', () => {
  it('an assigned task from a document has assignmentInfo with driveResourceInfo, and its original in the surface', async () => {
    const u = await newUser(sandbox)
    const res = await assign({
      user: u.name,
      tasklist: '@default',
      title: 'Review doc',
      surfaceType: 'DOCUMENT',
    })
    expect(res.status).toBe(200)
    const task = res.body
    expect(task).toMatchObject({
      kind: 'tasks#task',
      title: 'Review doc',
      status: 'needsAction',
      deleted: false,
    })
    expect(task.parent).toBeUndefined()
    expect(Object.keys(task.assignmentInfo).sort()).toEqual([
      'driveResourceInfo',
      'linkToTask',
      'surfaceType',
    ])
    expect(task.assignmentInfo.surfaceType).toBe('DOCUMENT')
    expect(task.assignmentInfo.linkToTask).toMatch(
      new RegExp(`^${sandbox.url}/web/surfaces/[A-Za-z0-9_-]+$`),
    )
    expect(task.assignmentInfo.driveResourceInfo.driveFileId).toEqual(expect.any(String))
    const surfaceId = task.assignmentInfo.linkToTask.split('/').at(-1)
    const original = await sandbox.db
      .selectFrom('surface_items')
      .selectAll()
      .where('id', '=', surfaceId)
      .executeTakeFirstOrThrow()
    expect(original).toMatchObject({
      user_id: u.name,
      surface_type: 'DOCUMENT',
      title: 'Review doc',
      deleted: 0,
    })
    expect(await u.getTask(task.id)).toEqual(task)
  })

  it('an assigned task from a chat space has spaceInfo with a spaces/ name', async () => {
    const u = await newUser(sandbox)
    const task = (
      await assign({ user: u.name, tasklist: '@default', title: 'Reply', surfaceType: 'SPACE' })
    ).body
    expect(Object.keys(task.assignmentInfo).sort()).toEqual([
      'linkToTask',
      'spaceInfo',
      'surfaceType',
    ])
    expect(task.assignmentInfo.spaceInfo.space).toMatch(/^spaces\/[A-Za-z0-9_-]+$/)
  })

  it('an assigned task goes first at the top level of the list given', async () => {
    const u = await newUser(sandbox)
    const list = await u.createList('work')
    await u.createTask({ title: 'mine' }, {}, list.id)
    await assign({ user: u.name, tasklist: list.id, title: 'assigned', surfaceType: 'SPACE' })
    expect(await u.titles({ showAssigned: true }, list.id)).toEqual(['assigned', 'mine'])
  })

  it('bad control input is 400 and an unknown list is 404', async () => {
    const u = await newUser(sandbox)
    expectInvalid(
      await assign({ user: u.name, tasklist: '@default', title: 'x', surfaceType: 'MAIL' }),
    )
    expectInvalid(
      await assign({
        user: u.name,
        tasklist: '@default',
        title: 'x',
        surfaceType: 'SPACE',
        extra: 1,
      }),
    )
    expectInvalid(
      await assign({
        user: u.name,
        tasklist: '@default',
        title: 'x'.repeat(1025),
        surfaceType: 'SPACE',
      }),
    )
    expectNotFound(
      await assign({ user: u.name, tasklist: 'nope', title: 'x', surfaceType: 'SPACE' }),
    )
    expectInvalid(await makeRecurring({ user: u.name, tasklist: '@default' }))
    expectNotFound(await makeRecurring({ user: u.name, tasklist: '@default', task: 'nope' }))
  })

  it('marking a task recurring returns the task', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'weekly' })
    const res = await makeRecurring({ user: u.name, tasklist: '@default', task: task.id })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: task.id, title: 'weekly' })
    expect(res.body.etag).not.toBe(task.etag)
  })

  it('a task with a parent or with subtasks cannot be marked recurring', async () => {
    const u = await newUser(sandbox)
    const parent = await u.createTask({ title: 'p' })
    const child = await u.createTask({ title: 'c' }, { parent: parent.id })
    expectPrecondition(await makeRecurring({ user: u.name, tasklist: '@default', task: child.id }))
    expectPrecondition(await makeRecurring({ user: u.name, tasklist: '@default', task: parent.id }))
  })

  it("another user's task cannot be marked recurring", async () => {
    const owner = await newUser(sandbox)
    const other = await newUser(sandbox)
    const task = await owner.createTask({ title: 'x' })
    expectNotFound(await makeRecurring({ user: other.name, tasklist: '@default', task: task.id }))
  })
})
