import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { providerError, sandboxForSuite } from '../support/sandbox.js'
import { expectInvalid, newUser, type TestUser } from './client.js'

const sandbox = sandboxForSuite()

describe('task API validation', () => {
  describe('bodies', () => {
    it('a title of 1024 characters is accepted, 1025 rejected (counted in code points)', async () => {
      const u = await newUser(sandbox)
      const emoji1024 = '😀'.repeat(1024)
      expect((await u.createTask({ title: emoji1024 })).title).toBe(emoji1024)
      const error = expectInvalid(
        await u.call('POST', '/lists/@default/tasks', { body: { title: 'x'.repeat(1025) } }),
      )
      expect(error.message).toContain('title')
      expect(error.message).toContain('1024')
    })

    it('notes of 8192 characters are accepted, 8193 rejected', async () => {
      const u = await newUser(sandbox)
      await u.createTask({ notes: 'n'.repeat(8192) })
      const error = expectInvalid(
        await u.call('POST', '/lists/@default/tasks', { body: { notes: 'n'.repeat(8193) } }),
      )
      expect(error.message).toContain('notes')
    })

    it('status must be needsAction or completed', async () => {
      const u = await newUser(sandbox)
      const error = expectInvalid(
        await u.call('POST', '/lists/@default/tasks', { body: { status: 'done' } }),
      )
      expect(error.message).toContain('status')
      expect(error.message).toContain('needsAction')
    })

    it('due and completed must be RFC 3339 timestamps with a real calendar date', async () => {
      const u = await newUser(sandbox)
      for (const due of [
        '2026-05-01',
        'tomorrow',
        '2026-02-30T00:00:00Z',
        '2026-13-01T00:00:00Z',
        '2026-05-01T24:00:00Z',
        '2026-05-01T10:00:00',
      ]) {
        const error = expectInvalid(
          await u.call('POST', '/lists/@default/tasks', { body: { due } }),
        )
        expect(error.message).toContain('due')
      }
      expectInvalid(
        await u.call('POST', '/lists/@default/tasks', {
          body: { status: 'completed', completed: '2025-02-29T00:00:00Z' },
        }),
      )
      expect((await u.createTask({ due: '2024-02-29T12:00:00.123456+01:00' })).due).toBe(
        '2024-02-29T00:00:00.000Z',
      )
    })

    it('unknown fields are rejected, naming them', async () => {
      const u = await newUser(sandbox)
      const error = expectInvalid(
        await u.call('POST', '/lists/@default/tasks', { body: { title: 'x', priority: 'high' } }),
      )
      expect(error.message).toContain('"priority"')
      const task = await u.createTask({ title: 'x' })
      expect(
        providerError(
          await u.call('PATCH', `/lists/@default/tasks/${task.id}`, { body: { colour: 1 } }),
        ).message,
      ).toContain('"colour"')
      expect(
        providerError(await u.call('POST', '/lists', { body: { title: 'L', color: 'red' } }))
          .message,
      ).toContain('"color"')
    })

    it('output-only fields, id and etag in a body are accepted and ignored', async () => {
      const u = await newUser(sandbox)
      const parent = await u.createTask({ title: 'p' })
      const task = await u.createTask({
        title: 'x',
        id: 'chosen-id',
        etag: '"made-up"',
        kind: 'something',
        updated: '2000-01-01T00:00:00Z',
        selfLink: 'http://evil.example/',
        webViewLink: 'http://evil.example/',
        links: [{ link: 'http://evil.example/' }],
        hidden: true,
        position: '00000',
        parent: parent.id,
        assignmentInfo: { surfaceType: 'DOCUMENT' },
      })
      expect(task.id).not.toBe('chosen-id')
      expect(task).toMatchObject({ kind: 'tasks#task', hidden: false, links: [] })
      expect(task.parent).toBeUndefined()
      expect(task.updated).not.toBe('2000-01-01T00:00:00.000Z')
      const list = await u.call('POST', '/lists', {
        body: { title: 'L', id: 'mine', kind: 'x', etag: 'y', updated: 'z', selfLink: 'w' },
      })
      expect(list.status).toBe(200)
      expect(list.body.id).not.toBe('mine')
    })

    it('a task list needs a non-empty title', async () => {
      const u = await newUser(sandbox)
      expect(providerError(await u.call('POST', '/lists', { body: {} })).message).toContain('title')
      expectInvalid(await u.call('POST', '/lists', { body: { title: '' } }))
      expectInvalid(await u.call('POST', '/lists', { body: { title: 'x'.repeat(1025) } }))
      expect((await u.createList('x'.repeat(1024))).title).toHaveLength(1024)
    })

    it('a task title may be empty, and defaults to ""', async () => {
      const u = await newUser(sandbox)
      expect((await u.createTask({})).title).toBe('')
      expect((await u.createTask({ title: '' })).title).toBe('')
    })

    it('malformed JSON, a non-object body and wrong types are 400, never 5xx', async () => {
      const u = await newUser(sandbox)
      const task = await u.createTask({ title: 'x' })
      for (const rawBody of ['{', 'null', '[]', '"title"', '12', '']) {
        expectInvalid(
          await u.call('POST', '/lists/@default/tasks', {
            rawBody,
            headers: { 'content-type': 'application/json' },
          }),
        )
        expectInvalid(
          await u.call('PATCH', `/lists/@default/tasks/${task.id}`, {
            rawBody,
            headers: { 'content-type': 'application/json' },
          }),
        )
      }
      for (const body of [
        { title: 5 },
        { notes: [] },
        { due: 20260501 },
        { deleted: 'yes' },
        { status: null },
        { completed: {} },
      ]) {
        const res = await u.call('PATCH', `/lists/@default/tasks/${task.id}`, { body })
        expect(providerError(res).message).toContain(Object.keys(body)[0]!)
        expectInvalid(res)
      }
    })
  })

  describe('query strings', () => {
    it('maxResults above 100 is rejected, not clamped', async () => {
      const u = await newUser(sandbox)
      const error = expectInvalid(await u.call('GET', '/lists/@default/tasks?maxResults=101'))
      expect(error.message).toContain('maxResults')
      expect((await u.page({ maxResults: 100 })).items).toEqual([])
    })

    it('maxResults must be an integer from 1: 0, negative, fractional and text are rejected', async () => {
      const u = await newUser(sandbox)
      for (const v of ['0', '-1', '1.5', 'ten', '', '1e2']) {
        expectInvalid(await u.call('GET', `/lists/@default/tasks?maxResults=${v}`))
      }
    })

    it('maxResults of list_task_lists allows 1..1000 and rejects 1001', async () => {
      const u = await newUser(sandbox)
      expect((await u.call('GET', '/lists?maxResults=1000')).status).toBe(200)
      expect((await u.call('GET', '/lists?maxResults=1')).status).toBe(200)
      expectInvalid(await u.call('GET', '/lists?maxResults=1001'))
      expectInvalid(await u.call('GET', '/lists?maxResults=0'))
    })

    it('booleans in a query string are only true or false', async () => {
      const u = await newUser(sandbox)
      for (const v of ['1', 'yes', 'TRUE', '']) {
        const error = expectInvalid(await u.call('GET', `/lists/@default/tasks?showDeleted=${v}`))
        expect(error.message).toContain('showDeleted')
      }
    })

    it('filter bounds must be RFC 3339 timestamps', async () => {
      const u = await newUser(sandbox)
      for (const name of ['dueMin', 'dueMax', 'completedMin', 'completedMax', 'updatedMin']) {
        const error = expectInvalid(
          await u.call('GET', `/lists/@default/tasks?${name}=2026-02-30T00:00:00Z`),
        )
        expect(error.message).toContain(name)
      }
    })

    it('unknown query parameters are rejected, naming them', async () => {
      const u = await newUser(sandbox)
      const task = await u.createTask({ title: 'x' })
      expect(
        expectInvalid(await u.call('GET', '/lists/@default/tasks?orderBy=due')).message,
      ).toContain('"orderBy"')
      expect(
        expectInvalid(await u.call('GET', `/lists/@default/tasks/${task.id}?fields=id`)).message,
      ).toContain('"fields"')
      expectInvalid(await u.call('POST', `/lists/@default/tasks?position=1`, { body: {} }))
      expectInvalid(await u.call('POST', `/lists/@default/tasks/${task.id}/move?after=1`))
      expectInvalid(await u.call('GET', '/lists?showDeleted=true'))
    })

    it('a query parameter given twice is rejected', async () => {
      const u = await newUser(sandbox)
      expect(
        expectInvalid(await u.call('GET', '/lists/@default/tasks?maxResults=5&maxResults=6'))
          .message,
      ).toContain('maxResults')
    })

    it('a malformed pageToken is rejected', async () => {
      const u = await newUser(sandbox)
      for (const token of [
        'abc',
        'not a token',
        Buffer.from('{"l":"x"}').toString('base64url'),
        Buffer.from('{"s":-1}').toString('base64url'),
      ]) {
        expect(
          expectInvalid(
            await u.call('GET', `/lists/@default/tasks?pageToken=${encodeURIComponent(token)}`),
          ).message,
        ).toContain('pageToken')
        expectInvalid(await u.call('GET', `/lists?pageToken=${encodeURIComponent(token)}`))
      }
    })

    it('a pageToken of another list is rejected', async () => {
      const u = await newUser(sandbox)
      await u.createTask({ title: 'a' })
      await u.createTask({ title: 'b' })
      const { nextPageToken } = await u.page({ maxResults: 1 })
      const other = await u.createList('other')
      expectInvalid(await u.call('GET', `/lists/${other.id}/tasks?pageToken=${nextPageToken}`))
    })
  })

  it('random query strings and bodies always get 200 or a 4xx in the provider shape, never a 5xx', async () => {
    const u = await newUser(sandbox)
    const task = await u.createTask({ title: 'target' })
    const names = [
      'maxResults',
      'pageToken',
      'dueMin',
      'showHidden',
      'showCompleted',
      'parent',
      'previous',
      'x',
      '',
    ]
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('true', 'false', '5', '2026-01-01T00:00:00Z', task.id),
    )
    const query = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 3 })
    const field = fc.constantFrom(
      'title',
      'notes',
      'status',
      'due',
      'completed',
      'deleted',
      'hidden',
      'zzz',
    )
    const body = fc.dictionary(field, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
    await fc.assert(
      fc.asyncProperty(
        query,
        body,
        fc.constantFrom('GET', 'POST', 'PATCH'),
        async (q, b, method) => {
          const search = new URLSearchParams(q).toString()
          const path =
            method === 'GET'
              ? `/lists/@default/tasks?${search}`
              : method === 'POST'
                ? `/lists/@default/tasks?${search}`
                : `/lists/@default/tasks/${task.id}?${search}`
          await assertNever5xx(u, method, path, method === 'GET' ? undefined : b)
        },
      ),
      { numRuns: 60 },
    )
    await assertNever5xx(u, 'POST', '/lists/@default/tasks', undefined, '{"title": "\\ud800"}')
    await assertNever5xx(u, 'GET', '/lists/@default/tasks?pageToken=%E2%82', undefined)
  })
})

async function assertNever5xx(
  u: TestUser,
  method: string,
  path: string,
  body: unknown,
  rawBody?: string,
) {
  const res = await u.call(
    method,
    path,
    rawBody !== undefined ? { rawBody, headers: { 'content-type': 'application/json' } } : { body },
  )
  expect(res.status, `${method} ${path} ${JSON.stringify(body)} -> ${res.text}`).toBeLessThan(500)
  if (res.status !== 200) expect(() => providerError(res)).not.toThrow()
}
