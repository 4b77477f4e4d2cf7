import { describe, expect, it } from 'vitest'
import { requestsSince } from '../support/request-log.js'
import { sandboxForSuite } from '../support/sandbox.js'
import { fault, GOOGLE_SCOPE, rejection, tasksClient } from './clients.js'

/**
 * Google's Tasks client (`@googleapis/tasks`) against the sandbox's Google origin: every
 * operation behind the task tools, and the errors as the client surfaces them at Google.
 */

const sandbox = sandboxForSuite()

const client = async (user: string, scopes = ['tasks'], options = {}) =>
  tasksClient(sandbox, await sandbox.token(user, scopes), options)

describe("Google's Tasks client against G", () => {
  it('tasklists.list, insert and get: Google paths, selfLinks on G', async () => {
    const t = await client('tl-alice')
    const before = await t.tasklists.list({ maxResults: 100 })
    expect(before.status).toBe(200)
    expect(before.data.kind).toBe('tasks#taskLists')
    expect(before.data.items!.map((l) => l.title)).toEqual(['My Tasks'])

    const created = await t.tasklists.insert({ requestBody: { title: 'Groceries' } })
    expect(created.data).toMatchObject({ kind: 'tasks#taskList', title: 'Groceries' })
    const id = created.data.id!
    expect(created.data.selfLink).toBe(`${sandbox.googleUrl}/tasks/v1/users/@me/lists/${id}`)

    const read = await t.tasklists.get({ tasklist: id })
    expect(read.data).toEqual(created.data)
    const after = await t.tasklists.list()
    expect(after.data.items!.map((l) => l.title)).toEqual(['My Tasks', 'Groceries'])
  })

  it('tasks.insert, list, get, patch, move and delete (204), with @default sent as %40default', async () => {
    const t = await client('tk-bob')
    const lists = await t.tasklists.list()
    const defaultList = lists.data.items![0]!.id!
    const parent = await t.tasks.insert({
      tasklist: '@default',
      requestBody: { title: 'Shopping', notes: 'weekly', due: '2026-02-01T00:00:00.000Z' },
    })
    expect(parent.data).toMatchObject({
      kind: 'tasks#task',
      title: 'Shopping',
      notes: 'weekly',
      due: '2026-02-01T00:00:00.000Z',
      status: 'needsAction',
    })
    expect(parent.data.selfLink).toBe(
      `${sandbox.googleUrl}/tasks/v1/lists/${defaultList}/tasks/${parent.data.id}`,
    )
    expect(parent.data.webViewLink).toBe(`${sandbox.url}/web/tasks/${parent.data.id}`)
    const first = await t.tasks.insert({
      tasklist: '@default',
      parent: parent.data.id!,
      requestBody: { title: 'Buy milk' },
    })
    const second = await t.tasks.insert({
      tasklist: '@default',
      parent: parent.data.id!,
      previous: first.data.id!,
      requestBody: { title: 'Buy (bread)!' },
    })

    const listed = await t.tasks.list({
      tasklist: '@default',
      showCompleted: true,
      showHidden: true,
      showAssigned: true,
      dueMin: '2026-01-01T00:00:00Z',
      maxResults: 100,
    })
    expect(listed.data.items!.map((x) => x.title)).toEqual(['Shopping'])
    const all = await t.tasks.list({ tasklist: defaultList })
    expect(all.data.items!.map((x) => [x.title, x.parent ?? null])).toEqual([
      ['Shopping', null],
      ['Buy milk', parent.data.id],
      ['Buy (bread)!', parent.data.id],
    ])

    const got = await t.tasks.get({ tasklist: '@default', task: second.data.id! })
    expect(got.data).toEqual(second.data)

    const patched = await t.tasks.patch({
      tasklist: '@default',
      task: first.data.id!,
      requestBody: { status: 'completed' },
    })
    expect(patched.data.status).toBe('completed')
    expect(patched.data.completed).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)

    const other = await t.tasklists.insert({ requestBody: { title: 'Later' } })
    const moved = await t.tasks.move({
      tasklist: '@default',
      task: parent.data.id!,
      destinationTasklist: other.data.id!,
    })
    expect(moved.data.id).toBe(parent.data.id)
    const there = await t.tasks.list({ tasklist: other.data.id!, showCompleted: true })
    expect(there.data.items!.map((x) => x.title)).toEqual(['Shopping', 'Buy milk', 'Buy (bread)!'])

    const deleted = await t.tasks.delete({ tasklist: other.data.id!, task: second.data.id! })
    expect(deleted.status).toBe(204)
    expect(deleted.data).toBe('')
    const gone = await t.tasks.get({ tasklist: other.data.id!, task: second.data.id! })
    expect(gone.data.deleted).toBe(true)
  })

  it('404: an unknown task is a GaxiosError with NOT_FOUND and reason notFound', async () => {
    const t = await client('tk-carol')
    const error = await rejection(t.tasks.get({ tasklist: '@default', task: 'no-such-task' }))
    expect(error.status).toBe(404)
    expect(error.message).toContain('no-such-task')
    expect(error.cause).toMatchObject({ code: 404, status: 'NOT_FOUND' })
    expect(error.cause!.errors![0]).toMatchObject({ reason: 'notFound', domain: 'global' })
  })

  it("403: a read-only token cannot write, and the message names Google's scope id", async () => {
    const t = await client('tk-dave', ['tasks.readonly'])
    const error = await rejection(t.tasklists.insert({ requestBody: { title: 'Not allowed' } }))
    expect(error.status).toBe(403)
    expect(error.cause).toMatchObject({ status: 'PERMISSION_DENIED' })
    expect(error.cause!.errors![0]!.reason).toBe('insufficientPermissions')
    expect(error.message).toContain(GOOGLE_SCOPE('tasks'))
  })

  it('400: maxResults out of range says what to change', async () => {
    const t = await client('tk-erin')
    const error = await rejection(t.tasks.list({ tasklist: '@default', maxResults: 1000 }))
    expect(error.status).toBe(400)
    expect(error.cause).toMatchObject({ status: 'INVALID_ARGUMENT' })
    expect(error.cause!.errors![0]!.reason).toBe('invalid')
    expect(error.message).toContain('maxResults')
  })

  it('412 (injected: G ignores If-Match) surfaces as FAILED_PRECONDITION, conditionNotMet', async () => {
    const t = await client('tk-frank')
    const task = await t.tasks.insert({ tasklist: '@default', requestBody: { title: 'Stale' } })
    // A stale If-Match is ignored on G, as Google is not known to honour it.
    const stale = await t.tasks.patch(
      { tasklist: '@default', task: task.data.id!, requestBody: { notes: 'changed' } },
      { headers: { 'If-Match': '"not-the-etag"' } },
    )
    expect(stale.data.notes).toBe('changed')

    await fault(sandbox, {
      match: { method: 'PATCH', path: `/tasks/v1/lists/%40default/tasks/${task.data.id}` },
      status: 412,
    })
    const error = await rejection(
      t.tasks.patch({ tasklist: '@default', task: task.data.id!, requestBody: { notes: 'x' } }),
    )
    expect(error.status).toBe(412)
    expect(error.cause).toMatchObject({ status: 'FAILED_PRECONDITION' })
    expect(error.cause!.errors![0]!.reason).toBe('conditionNotMet')
  })

  it('429 with Retry-After: what one answer surfaces, and gaxios retrying a GET by default', async () => {
    const t = await client('tk-gina')
    const since = (await requestsSince(sandbox, 0)).length
    await fault(sandbox, {
      match: { method: 'GET', path: '/tasks/v1/users/@me/lists' },
      status: 429,
      retryAfter: 7,
    })
    const error = await rejection(t.tasklists.list())
    expect(error.status).toBe(429)
    expect(error.response!.headers.get('retry-after')).toBe('7')
    expect(error.cause).toMatchObject({ status: 'RESOURCE_EXHAUSTED' })
    expect(error.cause!.errors![0]!.reason).toBe('rateLimitExceeded')

    // With its defaults the client retries the GET, and the retry gets the real answer.
    const retrying = await client('tk-gina', ['tasks'], { retry: true })
    await fault(sandbox, { match: { path: '/tasks/v1/users/@me/lists' }, status: 429 })
    expect((await retrying.tasklists.list()).status).toBe(200)
    const log = await requestsSince(sandbox, since)
    expect(log.map((r) => [r.method, r.path, r.status, r.dialect])).toEqual([
      ['GET', '/tasks/v1/users/@me/lists', 429, 'google'],
      ['GET', '/tasks/v1/users/@me/lists', 429, 'google'],
      ['GET', '/tasks/v1/users/@me/lists', 200, 'google'],
    ])
  })

  it('401: a revoked or unknown token is UNAUTHENTICATED, naming the Authorization header', async () => {
    const t = tasksClient(sandbox, 'not-a-token')
    const error = await rejection(t.tasklists.list())
    expect(error.status).toBe(401)
    expect(error.cause).toMatchObject({ status: 'UNAUTHENTICATED' })
    expect(error.cause!.errors![0]).toMatchObject({
      reason: 'authError',
      location: 'Authorization',
      locationType: 'header',
    })
    expect(error.response!.headers.get('www-authenticate')).toMatch(/^Bearer /)
  })
})
