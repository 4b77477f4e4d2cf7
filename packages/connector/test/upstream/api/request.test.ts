import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { GOOGLE_PROFILE } from '../../../src/services/profiles/google.js'
import { GENERIC_PROFILE } from '../../../src/services/profiles/generic.js'
import { RequestTargets } from '../../../src/upstream/api/request.js'
import {
  apiError,
  apiFor,
  capturedLog,
  grantFor,
  newUser,
  requestsSince,
  TASKS,
} from './harness.js'

const sandbox = sandboxForSuite()

/** A segment as RFC 6570 (and Google's clients) encode it: every reserved character escaped. */
const rfc6570 = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )

/** Whether a string has a UTF-8 encoding (no lone surrogate). */
function wellFormed(text: string) {
  try {
    encodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

describe('UpstreamApi: requests and answers', () => {
  it('reads a resource and returns its JSON body and etag', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const lists = await api.call(
      { service: 'tasks', method: 'GET', path: '/lists', idempotent: true },
      grant,
    )
    expect(lists.status).toBe(200)
    expect((lists.body as any).items.map((l: any) => l.title)).toEqual(['My Tasks'])

    const listId = (lists.body as any).items[0].id
    const one = await api.call(
      {
        service: 'tasks',
        method: 'GET',
        path: '/lists/{tasklist}',
        pathParams: { tasklist: listId },
        idempotent: true,
      },
      grant,
    )
    expect((one.body as any).id).toBe(listId)
    expect(one.etag).toBe((one.body as any).etag)
  })

  it('sends each path parameter as one percent-encoded segment', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const since = (await requestsSince(sandbox)).length
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks/{task}',
          pathParams: { tasklist: 'sc-domain:example.com', task: 'https://www.example.com/' },
          idempotent: true,
        },
        grant,
      ),
    )
    expect(error.kind).toBe('not_found')
    expect(await requestsSince(sandbox, since)).toEqual([
      {
        method: 'GET',
        path: `${TASKS}/lists/sc-domain%3Aexample.com/tasks/https%3A%2F%2Fwww.example.com%2F`,
        status: 404,
      },
    ])
  })

  it('encodes query parameters, leaves out undefined ones, and writes booleans and numbers', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const created = await api.call(
      {
        service: 'tasks',
        method: 'POST',
        path: '/lists/{tasklist}/tasks',
        pathParams: { tasklist: '@default' },
        body: { title: 'Due on the 1st', due: '2026-05-01T00:00:00.000Z' },
        idempotent: false,
      },
      grant,
    )
    expect(created.status).toBe(200)
    const list = (due: Record<string, string>) =>
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks',
          pathParams: { tasklist: '@default' },
          // "+" unencoded would read as a space, and the sandbox would refuse the timestamp.
          query: { ...due, maxResults: 5, showCompleted: false, pageToken: undefined },
          idempotent: true,
        },
        grant,
      )
    const within = await list({ dueMin: '2026-05-01T01:00:00+02:00' })
    expect((within.body as any).items.map((t: any) => t.title)).toEqual(['Due on the 1st'])
    const after = await list({ dueMin: '2026-05-01T00:00:00-01:00' })
    expect((after.body as any).items ?? []).toEqual([])
  })

  it('returns body undefined for an empty 200 (DELETE)', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const task = await api.call(
      {
        service: 'tasks',
        method: 'POST',
        path: '/lists/{tasklist}/tasks',
        pathParams: { tasklist: '@default' },
        body: { title: 'Short-lived' },
        idempotent: false,
      },
      grant,
    )
    const deleted = await api.call(
      {
        service: 'tasks',
        method: 'DELETE',
        path: '/lists/{tasklist}/tasks/{task}',
        pathParams: { tasklist: '@default', task: (task.body as any).id },
        idempotent: true,
      },
      grant,
    )
    expect(deleted).toEqual({ status: 200, body: undefined })
  })

  it('refuses path parameters that cannot be one segment, before sending anything', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const since = (await requestsSince(sandbox)).length
    for (const task of ['', '.', '..', 'bad\uD800']) {
      const error = await apiError(
        api.call(
          {
            service: 'tasks',
            method: 'GET',
            path: '/lists/{tasklist}/tasks/{task}',
            pathParams: { tasklist: '@default', task },
            idempotent: true,
          },
          grant,
        ),
      )
      expect(error.kind).toBe('invalid')
      expect(error.message).toContain('"task"')
    }
    expect(await requestsSince(sandbox, since)).toEqual([])
  })

  it('round-trips any path parameter: the provider sees exactly its encoding, and the call never crashes', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const tricky = fc.constantFrom(
      '%',
      '%2e%2e',
      '%2F',
      '../x',
      './',
      '?a=b',
      '#f',
      'a/b',
      ' ',
      '+',
      'sc-domain:example.com',
      'https://www.example.com/',
      '\u0000',
      'é',
      '🙂',
      "it's (a)*!",
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary', minLength: 1 }), tricky),
        async (task) => {
          const since = (await requestsSince(sandbox)).length
          const error = await apiError(
            api.call(
              {
                service: 'tasks',
                method: 'GET',
                path: '/lists/{tasklist}/tasks/{task}',
                pathParams: { tasklist: '@default', task },
                idempotent: true,
              },
              grant,
            ),
          )
          expect(['not_found', 'invalid']).toContain(error.kind)
          const sent = await requestsSince(sandbox, since)
          if (task === '.' || task === '..' || !wellFormed(task)) {
            expect(sent).toEqual([])
          } else {
            expect(sent).toHaveLength(1)
            expect(sent[0]!.path).toBe(`${TASKS}/lists/%40default/tasks/${rfc6570(task)}`)
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('logs method, path template, status, duration and attempts, never tokens, ids or query values', async () => {
    const { log, lines } = capturedLog()
    const api = apiFor(sandbox, { log })
    const grant = await grantFor(sandbox, newUser())
    await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks/{task}',
          pathParams: { tasklist: '@default', task: 'private-task-id' },
          query: { showDeleted: 'secret-query-value' },
          idempotent: true,
        },
        grant,
      ),
    )
    await api.call(
      {
        service: 'tasks',
        method: 'POST',
        path: '/lists',
        body: { title: 'private title' },
        idempotent: false,
      },
      grant,
    )
    expect(lines).toHaveLength(2)
    const [failed, ok] = lines.map((line) => JSON.parse(line))
    expect(failed).toMatchObject({
      method: 'GET',
      path: '/lists/{tasklist}/tasks/{task}',
      status: 400,
      attempts: 1,
      kind: 'invalid',
    })
    expect(typeof failed.durationMs).toBe('number')
    expect(ok).toMatchObject({ method: 'POST', path: '/lists', status: 200, attempts: 1 })
    const all = lines.join('\n')
    for (const secret of [grant.token, 'private-task-id', 'secret-query-value', 'private title'])
      expect(all).not.toContain(secret)
  })
})

describe("a profile's system query parameters", () => {
  const apiBase = {
    tasks: 'https://tasks.googleapis.com/tasks/v1',
    search: 'https://searchconsole.googleapis.com',
    analytics: 'https://analyticsdata.googleapis.com/v1beta',
  }

  it("ride on every call to Google, beside the call's own: compact answers", () => {
    const targets = new RequestTargets(apiBase, GOOGLE_PROFILE.systemQuery)
    expect(targets.target('tasks', '/users/@me/lists', undefined, undefined).path).toBe(
      '/tasks/v1/users/@me/lists?prettyPrint=false',
    )
    expect(
      targets.target('tasks', '/lists/{tasklist}/tasks', { tasklist: 'L1' }, { maxResults: 5 })
        .path,
    ).toBe('/tasks/v1/lists/L1/tasks?prettyPrint=false&maxResults=5')
  })

  it('are none at the generic provider', () => {
    const targets = new RequestTargets(apiBase, GENERIC_PROFILE.systemQuery)
    expect(targets.target('tasks', '/lists', undefined, undefined).path).toBe('/tasks/v1/lists')
  })
})
