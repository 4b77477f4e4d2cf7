import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  expectError,
  expectNotFound,
  expectPrecondition,
  newUser,
  type TestUser,
} from './client.js'

const sandbox = sandboxForSuite()

/** a > a1 > a1x, and b: a small tree to delete and restore. */
async function tree(u: TestUser) {
  const b = await u.createTask({ title: 'b' })
  const a = await u.createTask({ title: 'a' })
  const a1 = await u.createTask({ title: 'a1' }, { parent: a.id })
  const a1x = await u.createTask({ title: 'a1x' }, { parent: a1.id })
  return { a, a1, a1x, b }
}

const expectStale = (res: Parameters<typeof expectError>[0]) =>
  expectError(res, 412, 'FAILED_PRECONDITION', 'conditionNotMet')

describe('update_task and delete_task', () => {
  it('PATCH changes only the fields it gives', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'a', notes: 'n', due: '2026-05-01T00:00:00Z' })
    const patched = await u.patch(task.id, { title: 'b' })
    expect(patched).toMatchObject({
      title: 'b',
      notes: 'n',
      due: '2026-05-01T00:00:00.000Z',
      position: task.position,
    })
  })

  it('deleting a task deletes its subtasks', async () => {
    const u = await newUser(sandbox)
    const { a, a1, a1x } = await tree(u)
    await u.remove(a.id)
    for (const t of [a, a1, a1x]) expect((await u.getTask(t.id)).deleted).toBe(true)
    expect(await u.titles()).toEqual(['b'])
  })

  it('a deleted task stays readable with deleted true and is listed only with showDeleted', async () => {
    const u = await newUser(sandbox)
    const { a } = await tree(u)
    await u.remove(a.id)
    const read = await u.getTask(a.id)
    expect(read).toMatchObject({ id: a.id, deleted: true, title: 'a' })
    expect(await u.titles({ showDeleted: true })).toEqual(['a', 'a1', 'a1x', 'b'])
  })

  it('deleting again succeeds', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    await u.remove(task.id)
    const before = await u.getTask(task.id)
    expect((await u.call('DELETE', `/lists/@default/tasks/${task.id}`)).status).toBe(200)
    expect((await u.getTask(task.id)).etag).toBe(before.etag)
  })

  it('deleting an unknown task is 404', async () => {
    const u = await newUser(sandbox)
    expectNotFound(await u.call('DELETE', '/lists/@default/tasks/nope'))
  })

  it('PATCH deleted true deletes like DELETE, with the subtasks', async () => {
    const u = await newUser(sandbox)
    const { a, a1x } = await tree(u)
    const patched = await u.patch(a.id, { deleted: true, title: 'a!' })
    expect(patched).toMatchObject({ deleted: true, title: 'a!' })
    expect((await u.getTask(a1x.id)).deleted).toBe(true)
  })

  it('PATCH deleted false restores the task and the subtasks deleted with it, not those deleted before', async () => {
    const u = await newUser(sandbox)
    const { a, a1, a1x } = await tree(u)
    const a2 = await u.createTask({ title: 'a2' }, { parent: a.id, previous: a1.id })
    await u.remove(a2.id)
    await u.remove(a.id)
    const restored = await u.patch(a.id, { deleted: false })
    expect(restored.deleted).toBe(false)
    expect((await u.getTask(a1.id)).deleted).toBe(false)
    expect((await u.getTask(a1x.id)).deleted).toBe(false)
    expect((await u.getTask(a2.id)).deleted).toBe(true)
    expect(await u.titles()).toEqual(['a', 'a1', 'a1x', 'b'])
  })

  it('restoring a subtask under a still-deleted parent is a failed precondition', async () => {
    const u = await newUser(sandbox)
    const { a, a1 } = await tree(u)
    await u.remove(a.id)
    expect(
      expectPrecondition(
        await u.call('PATCH', `/lists/@default/tasks/${a1.id}`, { body: { deleted: false } }),
      ).message,
    ).toContain('parent')
    expect((await u.getTask(a1.id)).deleted).toBe(true)
  })

  it('a deleted task can be patched and stays deleted', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    await u.remove(task.id)
    expect(await u.patch(task.id, { title: 'y' })).toMatchObject({ title: 'y', deleted: true })
  })

  it('If-Match with the current etag lets PATCH, move and DELETE through', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    const patched = await u.call('PATCH', `/lists/@default/tasks/${task.id}`, {
      body: { title: 'y' },
      headers: { 'if-match': task.etag },
    })
    expect(patched.status).toBe(200)
    const moved = await u.call('POST', `/lists/@default/tasks/${task.id}/move`, {
      headers: { 'if-match': `"other", ${patched.body.etag}` },
    })
    expect(moved.status).toBe(200)
    expect(
      (
        await u.call('DELETE', `/lists/@default/tasks/${task.id}`, {
          headers: { 'if-match': moved.body.etag },
        })
      ).status,
    ).toBe(200)
  })

  it('If-Match * matches any current etag', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    expect(
      (
        await u.call('PATCH', `/lists/@default/tasks/${task.id}`, {
          body: { title: 'y' },
          headers: { 'if-match': '*' },
        })
      ).status,
    ).toBe(200)
  })

  it('If-Match with a stale etag is 412 and changes nothing', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    const current = await u.patch(task.id, { title: 'y' })
    expectStale(
      await u.call('PATCH', `/lists/@default/tasks/${task.id}`, {
        body: { title: 'z' },
        headers: { 'if-match': task.etag },
      }),
    )
    expectStale(
      await u.call('POST', `/lists/@default/tasks/${task.id}/move`, {
        headers: { 'if-match': task.etag },
      }),
    )
    expectStale(
      await u.call('DELETE', `/lists/@default/tasks/${task.id}`, {
        headers: { 'if-match': task.etag },
      }),
    )
    expect(await u.getTask(task.id)).toEqual(current)
  })

  it('a task assigned from a document cannot have notes', async () => {
    const u = await newUser(sandbox)
    const doc = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user: u.name, tasklist: '@default', title: 'doc', surfaceType: 'DOCUMENT' },
      })
    ).body
    expectPrecondition(
      await u.call('PATCH', `/lists/@default/tasks/${doc.id}`, { body: { notes: 'no' } }),
    )
    expect(await u.patch(doc.id, { title: 'renamed', notes: null })).toMatchObject({
      title: 'renamed',
    })
    const space = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user: u.name, tasklist: '@default', title: 'chat', surfaceType: 'SPACE' },
      })
    ).body
    expect((await u.patch(space.id, { notes: 'fine' })).notes).toBe('fine')
  })

  it('deleted in a PATCH of an assigned task is a failed precondition: use the delete operation', async () => {
    const u = await newUser(sandbox)
    const doc = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user: u.name, tasklist: '@default', title: 'doc', surfaceType: 'DOCUMENT' },
      })
    ).body
    expect(
      expectPrecondition(
        await u.call('PATCH', `/lists/@default/tasks/${doc.id}`, { body: { deleted: true } }),
      ).message,
    ).toContain('delete operation')
    expect((await u.getTask(doc.id)).deleted).toBe(false)
    // Sent back unchanged, like any read-only field, it is ignored.
    expect((await u.patch(doc.id, { ...doc, title: 'same' })).title).toBe('same')
    await u.remove(doc.id)
    expectPrecondition(
      await u.call('PATCH', `/lists/@default/tasks/${doc.id}`, { body: { deleted: false } }),
    )
  })

  it('deleting an assigned task also deletes its original in the source surface', async () => {
    const u = await newUser(sandbox)
    const doc = (
      await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user: u.name, tasklist: '@default', title: 'doc', surfaceType: 'DOCUMENT' },
      })
    ).body
    const surfaceId = doc.assignmentInfo.linkToTask.split('/').at(-1)
    const original = () =>
      sandbox.db
        .selectFrom('surface_items')
        .selectAll()
        .where('id', '=', surfaceId)
        .executeTakeFirstOrThrow()
    expect((await original()).deleted).toBe(0)
    await u.remove(doc.id)
    expect((await original()).deleted).toBe(1)
    expect((await u.getTask(doc.id)).deleted).toBe(true)
  })
})
