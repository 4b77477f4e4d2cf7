import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { apiError, apiFor, fault, grantFor, newUser, requests, TASKS } from './harness.js'

const sandbox = sandboxForSuite()

const listLists = { service: 'tasks', method: 'GET', path: '/lists', idempotent: true } as const
const getTask = (task: string) =>
  ({
    service: 'tasks',
    method: 'GET',
    path: '/lists/{tasklist}/tasks/{task}',
    pathParams: { tasklist: '@default', task },
    idempotent: true,
  }) as const

/** A change that is not sent again after a 500: one call, one attempt, one failure. */
const createList = {
  service: 'tasks',
  method: 'POST',
  path: '/lists',
  body: { title: 'Maybe' },
  idempotent: false,
} as const

describe('UpstreamApi: the circuit breaker per provider', () => {
  it('opens after consecutive 5xx across calls, fails fast without reaching the provider, and closes after a good probe', async () => {
    const api = apiFor(sandbox, { breaker: { consecutiveFailures: 3, halfOpenAfterMs: 2_000 } })
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, {
      match: { method: 'POST', path: `${TASKS}/lists` },
      status: 500,
      times: 3,
    })
    const since = (await requests(sandbox)).length
    for (let i = 0; i < 3; i++) {
      const error = await apiError(api.call(createList, grant))
      expect(error).toMatchObject({ kind: 'outcome_unknown', status: 500 })
    }
    expect(await requests(sandbox, since)).toHaveLength(3)

    // Open: a read (the same provider origin) fails at once, and nothing reaches the provider.
    const started = performance.now()
    const open = await apiError(api.call(listLists, grant))
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(open.kind).toBe('unavailable')
    expect(open.message).toBe('The provider is not answering; try again in a minute.')
    expect(await requests(sandbox, since)).toHaveLength(3)

    // Half-open after the delay: one probe goes through, succeeds, and closes the circuit.
    await sleep(2_100)
    expect((await api.call(listLists, grant)).status).toBe(200)
    expect((await api.call(listLists, grant)).status).toBe(200)
    expect((await requests(sandbox, since)).map((r) => r.status)).toEqual([500, 500, 500, 200, 200])
  })

  it('opens on retries of one read too, and a failed probe opens it again', async () => {
    const api = apiFor(sandbox, { breaker: { consecutiveFailures: 3, halfOpenAfterMs: 2_000 } })
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, {
      match: { method: 'GET', path: `${TASKS}/lists` },
      status: 503,
      times: 4,
    })
    const since = (await requests(sandbox)).length
    // Three 503s open it; the retry after them (backoff well under the half-open delay) is refused.
    expect((await apiError(api.call(listLists, grant))).kind).toBe('unavailable')
    expect(await requests(sandbox, since)).toHaveLength(3)

    await sleep(2_100)
    // The probe meets the fourth 503: open again, and the retry of that call is cut short.
    expect((await apiError(api.call(listLists, grant))).kind).toBe('unavailable')
    expect(await requests(sandbox, since)).toHaveLength(4)
    expect((await apiError(api.call(listLists, grant))).kind).toBe('unavailable')
    expect(await requests(sandbox, since)).toHaveLength(4)

    await sleep(2_100)
    expect((await api.call(listLists, grant)).status).toBe(200)
  })

  it('never counts 4xx answers: the provider is answering', async () => {
    const api = apiFor(sandbox, { breaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } })
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, {
      match: { method: 'GET', path: `${TASKS}/lists` },
      status: 429,
      times: 3,
      retryAfter: 0,
    })
    for (let i = 0; i < 5; i++) {
      expect((await apiError(api.call(getTask(`missing-${i}`), grant))).kind).toBe('not_found')
    }
    expect((await api.call(listLists, grant)).status).toBe(200)
  })

  it('keeps one breaker per API client: another client of the same provider is unaffected', async () => {
    const broken = apiFor(sandbox, { breaker: { consecutiveFailures: 1, halfOpenAfterMs: 60_000 } })
    const healthy = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    await fault(sandbox, { match: { method: 'POST', path: `${TASKS}/lists` }, status: 502 })
    expect((await apiError(broken.call(createList, grant))).status).toBe(502)
    expect((await apiError(broken.call(listLists, grant))).kind).toBe('unavailable')
    expect((await healthy.call(listLists, grant)).status).toBe(200)
  })
})
