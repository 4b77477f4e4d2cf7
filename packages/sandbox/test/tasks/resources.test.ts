import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { expectError, expectNotFound, newUser } from './client.js'

const sandbox = sandboxForSuite()
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const ETAG = /^"[^"]+"$/

describe('task API resources', () => {
  it('a Task has every always-present field, and optional ones only when set', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'Buy milk' })
    expect(Object.keys(task).sort()).toEqual(
      [
        'deleted',
        'etag',
        'hidden',
        'id',
        'kind',
        'links',
        'position',
        'selfLink',
        'status',
        'title',
        'updated',
        'webViewLink',
      ].sort(),
    )
    expect(task).toMatchObject({
      kind: 'tasks#task',
      title: 'Buy milk',
      status: 'needsAction',
      hidden: false,
      deleted: false,
      links: [],
    })
    expect(task.id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(task.etag).toMatch(ETAG)
    expect(task.updated).toMatch(ISO_MS)
    const list = await u.defaultList()
    expect(task.selfLink).toBe(`${sandbox.url}/tasks/v1/lists/${list}/tasks/${task.id}`)
    expect(task.webViewLink).toBe(`${sandbox.url}/web/tasks/${task.id}`)

    const full = await u.createTask(
      { title: 'Pay rent', notes: 'by transfer', due: '2026-05-01T00:00:00Z', status: 'completed' },
      { parent: task.id },
    )
    expect(full).toMatchObject({
      parent: task.id,
      notes: 'by transfer',
      due: '2026-05-01T00:00:00.000Z',
      status: 'completed',
    })
    expect(full.completed).toMatch(ISO_MS)
  })

  it("a task's selfLink resolves to the same task, with the etag in the ETag header", async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'x' })
    const res = await sandbox.request('GET', task.selfLink.slice(sandbox.url.length), {
      token: u.token,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(task)
    expect(res.headers.get('etag')).toBe(task.etag)
  })

  it('a TaskList has kind, id, etag, title, updated and a selfLink that resolves', async () => {
    const u = await newUser(sandbox)
    const list = await u.createList('Groceries')
    expect(Object.keys(list).sort()).toEqual(['etag', 'id', 'kind', 'selfLink', 'title', 'updated'])
    expect(list).toMatchObject({
      kind: 'tasks#taskList',
      title: 'Groceries',
      selfLink: `${sandbox.url}/tasks/v1/lists/${list.id}`,
    })
    expect(list.etag).toMatch(ETAG)
    expect(list.updated).toMatch(ISO_MS)
    const read = await sandbox.request('GET', `/tasks/v1/lists/${list.id}`, { token: u.token })
    expect(read.body).toEqual(list)
    expect(read.headers.get('etag')).toBe(list.etag)
  })

  it('pages: items is always present and nextPageToken only when there is more', async () => {
    const u = await newUser(sandbox)
    const empty = await u.page()
    expect(empty).toEqual({ kind: 'tasks#tasks', etag: expect.stringMatching(ETAG), items: [] })
    const lists = (await u.call('GET', '/lists')).body
    expect(Object.keys(lists).sort()).toEqual(['etag', 'items', 'kind'])
    expect(lists.kind).toBe('tasks#taskLists')
    expect(lists.items.map((l: { title: string }) => l.title)).toEqual(['My Tasks'])
  })

  it("a new user's default list is My Tasks, and @default names it everywhere", async () => {
    const u = await newUser(sandbox)
    const byAlias = (await u.call('GET', '/lists/@default')).body
    expect(byAlias.title).toBe('My Tasks')
    await u.createList('Second')
    expect((await u.call('GET', '/lists/@default')).body.id).toBe(byAlias.id)
    const task = await u.createTask({ title: 't' }, {}, '@default')
    expect((await u.getTask(task.id, byAlias.id)).id).toBe(task.id)
  })

  it("another user's list or task is not found (404)", async () => {
    const owner = await newUser(sandbox)
    const other = await newUser(sandbox)
    const list = await owner.createList('Private')
    const task = await owner.createTask({ title: 'secret' }, {}, list.id)
    expectNotFound(await other.call('GET', `/lists/${list.id}`))
    expectNotFound(await other.call('GET', `/lists/${list.id}/tasks`))
    expectNotFound(await other.call('GET', `/lists/${list.id}/tasks/${task.id}`))
    expectNotFound(
      await other.call('PATCH', `/lists/${list.id}/tasks/${task.id}`, { body: { title: 'mine' } }),
    )
    expectNotFound(await other.call('DELETE', `/lists/${list.id}/tasks/${task.id}`))
    expectNotFound(await other.move(task.id, {}, list.id))
    // Their own default list does not hold it either.
    expectNotFound(await other.call('GET', `/lists/@default/tasks/${task.id}`))
    expect((await owner.getTask(task.id, list.id)).title).toBe('secret')
  })

  it('a task is found only under its own list', async () => {
    const u = await newUser(sandbox)
    const other = await u.createList('Other')
    const task = await u.createTask({ title: 'here' })
    expectNotFound(await u.call('GET', `/lists/${other.id}/tasks/${task.id}`))
  })

  it('reads accept tasks.readonly; writes with it are 403', async () => {
    const reader = await newUser(sandbox, ['tasks.readonly'])
    expect((await reader.call('GET', '/lists')).status).toBe(200)
    expect((await reader.call('GET', '/lists/@default/tasks')).status).toBe(200)
    expectError(
      await reader.call('POST', '/lists/@default/tasks', { body: { title: 'no' } }),
      403,
      'PERMISSION_DENIED',
      'insufficientPermissions',
    )
    expectError(
      await reader.call('POST', '/lists', { body: { title: 'no' } }),
      403,
      'PERMISSION_DENIED',
      'insufficientPermissions',
    )
  })

  it('no token is 401', async () => {
    const res = await sandbox.request('GET', '/tasks/v1/lists')
    expectError(res, 401, 'UNAUTHENTICATED', 'authError')
  })

  it('DELETE answers 200 with an empty body', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'gone' })
    const res = await u.call('DELETE', `/lists/@default/tasks/${task.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
  })

  it('an etag changes whenever the content changes, and only then', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'a' })
    expect((await u.getTask(task.id)).etag).toBe(task.etag)
    const renamed = await u.patch(task.id, { title: 'b' })
    expect(renamed.etag).not.toBe(task.etag)
    const page1 = await u.page()
    expect((await u.page()).etag).toBe(page1.etag)
    await u.patch(task.id, { notes: 'n' })
    expect((await u.page()).etag).not.toBe(page1.etag)
  })

  it('ids of new tasks and lists are distinct', async () => {
    const u = await newUser(sandbox)
    const ids = new Set<string>()
    for (let i = 0; i < 20; i++) ids.add((await u.createTask({ title: `t${i}` })).id)
    expect(ids.size).toBe(20)
  })
})
