import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { UpstreamApi } from '../../../src/upstream/api/index.js'
import { MAX_RETRIES } from '../../../src/upstream/api/policy.js'
import { pino } from 'pino'
import { Agent } from 'undici'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { apiError, apiFor, fault, grantFor, newUser, requestsSince, TASKS } from './harness.js'

const sandbox = sandboxForSuite()

const listLists = { service: 'tasks', method: 'GET', path: '/lists', idempotent: true } as const

const createTask = (title: string) =>
  ({
    service: 'tasks',
    method: 'POST',
    path: '/lists/{tasklist}/tasks',
    pathParams: { tasklist: '@default' },
    body: { title },
    idempotent: false,
  }) as const

const LISTS = `${TASKS}/lists`
const TASKS_OF_DEFAULT = `${TASKS}/lists/%40default/tasks`

/**
 * Waits until the sandbox has logged the requests made since `since` as `expected`: it logs a
 * request once it has handled it, so one whose answer a fault delays comes in late, and must be
 * in before the next test counts its own.
 */
async function logged(since: number, expected: unknown[]) {
  await expect
    .poll(async () => requestsSince(sandbox, since), { timeout: 20_000, interval: 50 })
    .toEqual(expected)
}

/** A loopback port nobody listens on: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('UpstreamApi: retries within one deadline', () => {
  it('retries a read after a 429, waiting the Retry-After', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'GET', path: LISTS }, status: 429, retryAfter: 1 })
    const since = (await requestsSince(sandbox)).length
    const started = performance.now()
    const result = await api.call(listLists, grant)
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000)
    expect(result.status).toBe(200)
    expect(await requestsSince(sandbox, since)).toEqual([
      { method: 'GET', path: LISTS, status: 429 },
      { method: 'GET', path: LISTS, status: 200 },
    ])
  })

  it('reports rate_limited at once when Retry-After reaches past the deadline', async () => {
    // A deadline of ten minutes and a Retry-After of an hour: a call that waited for either would
    // not end while the test runs. Ending at all, with the Retry-After passed on, is "at once".
    const api = apiFor(sandbox, { deadlineMs: 600_000 })
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'GET', path: LISTS }, status: 429, retryAfter: 3_600 })
    const since = (await requestsSince(sandbox)).length
    const error = await apiError(api.call(listLists, grant))
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 3_600 })
    expect(error.providerMessage).toMatch(/rate limit/i)
    expect(await requestsSince(sandbox, since)).toHaveLength(1)
  })

  it('retries a read through two 503s', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'GET', path: LISTS }, status: 503, times: 2 })
    const since = (await requestsSince(sandbox)).length
    const result = await api.call(listLists, grant)
    expect(result.status).toBe(200)
    expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual([503, 503, 200])
  })

  it('gives up on a read that only gets 503s with unavailable, within the deadline', async () => {
    // Each 503 says to come back in 1 s: the 2.9 s deadline leaves room for two such waits at
    // most, where the retry budget would allow three.
    const api = apiFor(sandbox, { deadlineMs: 2_900 })
    const grant = await grantFor(sandbox, newUser())
    // A path of its own, so that the faults this call leaves unused touch no other test.
    const path = `${TASKS}/lists/always-503`
    await fault(sandbox, { match: { method: 'GET', path }, status: 503, retryAfter: 1, times: 100 })
    const since = (await requestsSince(sandbox)).length
    const started = performance.now()
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}',
          pathParams: { tasklist: 'always-503' },
          idempotent: true,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'unavailable', status: 503 })
    // Sent again only after the provider's Retry-After.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000)
    const sent = await requestsSince(sandbox, since)
    expect(sent.length).toBeGreaterThanOrEqual(2)
    // Fewer than the retry budget allows: the deadline ended it.
    expect(sent.length).toBeLessThan(1 + MAX_RETRIES)
    expect(sent.every((r) => r.path === path && r.status === 503)).toBe(true)
  })

  it('ends a read that gets no answer in time with unavailable, at the deadline', async () => {
    const api = apiFor(sandbox, { deadlineMs: 300 })
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'GET', path: LISTS }, delayMs: 2_000 })
    const since = (await requestsSince(sandbox)).length
    const started = performance.now()
    const error = await apiError(api.call(listLists, grant))
    // Cut off: the provider's answer, 2 s later, would have been the lists.
    expect(error.kind).toBe('unavailable')
    expect(error.message).toMatch(/did not answer within 300 ms/)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    await logged(since, [{ method: 'GET', path: LISTS, status: 200 }])
  })

  it('never sends a create again when the connection drops after it was handled: outcome_unknown', async () => {
    const api = apiFor(sandbox)
    const user = newUser()
    const grant = await grantFor(sandbox, user)
    await fault(sandbox, { match: { method: 'POST', path: TASKS_OF_DEFAULT }, reset: 'after' })
    const since = (await requestsSince(sandbox)).length
    const error = await apiError(api.call(createTask('Exactly once'), grant))
    expect(error.kind).toBe('outcome_unknown')
    expect(error.message).toMatch(/may or may not have been made/)
    expect(await requestsSince(sandbox, since)).toEqual([
      { method: 'POST', path: TASKS_OF_DEFAULT, status: 0 },
    ])
    const tasks = await sandbox.request('GET', '/tasks/v1/lists/@default/tasks', {
      token: grant.token,
    })
    expect(tasks.body.items.map((t: any) => t.title)).toEqual(['Exactly once'])
  })

  it('never sends a create again when its deadline passes before the answer: outcome_unknown', async () => {
    let sent = 0
    const api = apiFor(sandbox, {
      deadlineMs: 200,
      // Counts every request handed to the connection pool.
      dispatcher: new Agent().compose((dispatch) => (options, handler) => {
        sent++
        return dispatch(options, handler)
      }),
    })
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'POST', path: TASKS_OF_DEFAULT }, delayMs: 2_000 })
    const since = (await requestsSince(sandbox)).length
    const error = await apiError(api.call(createTask('Slow'), grant))
    // Cut off: the provider's answer, 2 s later, would have been the task made.
    expect(error.kind).toBe('outcome_unknown')
    expect(error.message).toMatch(/did not answer within 200 ms/)
    expect(sent).toBe(1)
    // The provider made it, once.
    await logged(since, [{ method: 'POST', path: TASKS_OF_DEFAULT, status: 200 }])
  })

  it('never sends a create again after a 500 or 504: outcome_unknown with the status', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    for (const status of [500, 504]) {
      await fault(sandbox, { match: { method: 'POST', path: TASKS_OF_DEFAULT }, status })
      const since = (await requestsSince(sandbox)).length
      const error = await apiError(api.call(createTask('Maybe'), grant))
      expect(error).toMatchObject({ kind: 'outcome_unknown', status })
      expect(await requestsSince(sandbox, since)).toHaveLength(1)
    }
  })

  it('sends a create again after a 503 or 429 answer: the provider refused it, nothing was done', async () => {
    const api = apiFor(sandbox)
    const user = newUser()
    const grant = await grantFor(sandbox, user)
    await fault(sandbox, { match: { method: 'POST', path: TASKS_OF_DEFAULT }, status: 503 })
    await fault(sandbox, {
      match: { method: 'POST', path: TASKS_OF_DEFAULT },
      status: 429,
      retryAfter: 0,
    })
    const since = (await requestsSince(sandbox)).length
    const result = await api.call(createTask('Refused twice, then made'), grant)
    expect(result.status).toBe(200)
    expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual([503, 429, 200])
  })

  it('retries a read whose connection was dropped before it was handled', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'GET', path: LISTS }, reset: true })
    const since = (await requestsSince(sandbox)).length
    const result = await api.call(listLists, grant)
    expect(result.status).toBe(200)
    expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual([0, 200])
  })

  it('sends a create again when the connection was refused (it never left), then says unavailable', async () => {
    const port = await closedPort()
    let sent = 0
    const api = new UpstreamApi({
      apiBase: {
        tasks: `http://127.0.0.1:${port}/tasks/v1`,
        search: `http://127.0.0.1:${port}/search/v1`,
        analytics: `http://127.0.0.1:${port}/analytics/v1`,
      },
      log: pino({ level: 'silent' }),
      // Room for every retry, however slow the machine: the retry budget ends this call.
      deadlineMs: 60_000,
      // Counts every request handed to the connection pool, sent or not.
      dispatcher: new Agent().compose((dispatch) => (options, handler) => {
        sent++
        return dispatch(options, handler)
      }),
    })
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(api.call(createTask('Never sent'), grant))
    expect(error.kind).toBe('unavailable')
    expect(error.message).toMatch(/cannot be reached/)
    expect(sent).toBe(4)
  })
})
