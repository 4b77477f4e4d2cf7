import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import {
  apiError,
  apiFor,
  capturedLog,
  fault,
  grantFor,
  newUser,
  requests,
  TASKS,
} from './harness.js'

/**
 * The provider's circuit breaker, against the real sandbox: it opens only when the provider is
 * down for everyone calling it, pauses calls then (each failing at once, saying when to retry),
 * and a good probe closes it. Under load: outages.test.ts.
 */

const sandbox = sandboxForSuite()

const listLists = { service: 'tasks', method: 'GET', path: '/lists', idempotent: true } as const
const getList = (tasklist: string) =>
  ({
    service: 'tasks',
    method: 'GET',
    path: '/lists/{tasklist}',
    pathParams: { tasklist },
    idempotent: true,
  }) as const

/** Faults on the lists path of this test alone, so that none is left for another test. */
const brokenList = (name: string, times = 1_000) =>
  fault(sandbox, {
    match: { method: 'GET', path: `${TASKS}/lists/${name}` },
    status: 503,
    times,
  })

const PAUSE = { pauseMs: 1_500 }

describe('UpstreamApi: the breaker opens when the provider is down for everyone', () => {
  it('opens on two people each failing twice, pauses every call without sending it, and a good probe closes it', async () => {
    const { log, lines } = capturedLog()
    const api = apiFor(sandbox, { breaker: PAUSE, log })
    const [alice, bob] = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    const list = `down-${newUser()}`
    await brokenList(list, 8 * 4)
    for (const grant of [alice, bob, alice, bob])
      expect((await apiError(api.call(getList(list), grant))).status).toBe(503)
    expect(api.circuitStates().tasks).toBe('open')

    // Paused: a call of anyone, to any path of the provider, fails at once and is not sent.
    const since = (await requests(sandbox)).length
    const started = performance.now()
    const paused = await apiError(api.call(listLists, await grantFor(sandbox, newUser())))
    expect(performance.now() - started).toBeLessThan(500)
    expect(paused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: expect.any(Number) })
    expect(paused.retryAfterSeconds).toBeLessThanOrEqual(2)
    expect(paused.message).toMatch(/paused its calls to it for [12] s/)
    expect(await requests(sandbox, since)).toEqual([])

    // After the pause, one call probes; answered, it closes the breaker for everyone.
    await sleep(1_600)
    expect((await api.call(listLists, alice)).status).toBe(200)
    expect(api.circuitStates().tasks).toBe('closed')
    expect((await api.call(listLists, bob)).status).toBe(200)

    // The operator reads the breaker's moves, once each; the paused call only at debug.
    const messages = lines.map((line) => JSON.parse(line) as { level: number; msg: string })
    const warned = messages.filter((m) => m.level === 40 && /the provider/.test(m.msg))
    expect(warned.map((m) => m.msg)).toEqual([
      'the provider is down for everyone: calls to it are paused',
      'the provider answers again: calls to it resume',
    ])
    expect(messages.filter((m) => m.msg === 'upstream call paused')).toHaveLength(1)
  })

  it('a probe that fails pauses the calls again', async () => {
    const api = apiFor(sandbox, { breaker: PAUSE })
    const grants = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    const list = `down-${newUser()}`
    await brokenList(list)
    for (const grant of [...grants, ...grants]) await apiError(api.call(getList(list), grant))
    expect(api.circuitStates().tasks).toBe('open')
    await sleep(1_600)
    expect((await apiError(api.call(getList(list), grants[0]!))).status).toBe(503)
    expect(api.circuitStates().tasks).toBe('open')
    const paused = await apiError(api.call(listLists, grants[1]!))
    expect(paused.message).toMatch(/paused/)
  })

  it('one person’s trouble stays theirs: however many of their calls fail, the others are served', async () => {
    const api = apiFor(sandbox, { breaker: PAUSE })
    const troubled = await grantFor(sandbox, newUser())
    const others = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    const list = `down-${newUser()}`
    await brokenList(list)
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++)
        expect((await apiError(api.call(getList(list), troubled))).status).toBe(503)
      for (const grant of others) expect((await api.call(listLists, grant)).status).toBe(200)
    }
    expect(api.circuitStates().tasks).toBe('closed')
    // The troubled person's other calls are served too.
    expect((await api.call(listLists, troubled)).status).toBe(200)
  })

  it('never counts answers of 4xx: the provider is answering', async () => {
    const api = apiFor(sandbox, { breaker: PAUSE })
    const grants = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    for (let i = 0; i < 6; i++)
      for (const grant of grants)
        expect((await apiError(api.call(getList(`missing-${i}`), grant))).kind).toBe('not_found')
    expect(api.circuitStates().tasks).toBe('closed')
  })

  it('keeps one breaker per API client: another client of the same provider is unaffected', async () => {
    const broken = apiFor(sandbox, { breaker: { pauseMs: 60_000 } })
    const healthy = apiFor(sandbox)
    const grants = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    const list = `down-${newUser()}`
    await brokenList(list)
    for (const grant of [...grants, ...grants]) await apiError(broken.call(getList(list), grant))
    expect((await apiError(broken.call(listLists, grants[0]!))).message).toMatch(/paused/)
    expect((await healthy.call(listLists, grants[0]!)).status).toBe(200)
  })
})
