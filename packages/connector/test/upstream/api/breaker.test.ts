import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { DEFAULT_PAUSE_MS } from '../../../src/upstream/api/policy.js'
import { heldDate } from '../../support/clock.js'
import {
  apiError,
  apiFor,
  capturedLog,
  fault,
  grantFor,
  HoldingAgent,
  newUser,
  requestsSince,
  TASKS,
} from './harness.js'

/**
 * The provider's circuit breaker, against the real sandbox: it opens only when the provider is
 * down for everyone calling it, pauses calls then (each refused without being sent, saying when
 * to retry), lets one probe through after the pause, and an answered probe closes it. The clock
 * the breaker reads is moved by the tests (heldDate), never waited for. Under load:
 * outages.test.ts.
 */

const sandbox = sandboxForSuite()
const { later } = heldDate()

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

const PAUSE_SECONDS = DEFAULT_PAUSE_MS / 1000

describe('UpstreamApi: the breaker opens when the provider is down for everyone', () => {
  it('opens on two people each failing twice, pauses every call without sending it, and a good probe closes it', async () => {
    const { log, lines } = capturedLog()
    const agent = new HoldingAgent()
    const api = apiFor(sandbox, { log, dispatcher: agent })
    const [alice, bob] = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    const list = `down-${newUser()}`
    await brokenList(list, 8 * 4)
    for (const grant of [alice, bob, alice, bob])
      expect((await apiError(api.call(getList(list), grant))).status).toBe(503)
    expect(api.circuitStates().tasks).toBe('open')

    // Paused: a call of anyone, to any path of the provider, is refused and not sent.
    const since = (await requestsSince(sandbox)).length
    const paused = await apiError(api.call(listLists, await grantFor(sandbox, newUser())))
    expect(paused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: PAUSE_SECONDS })
    expect(paused.message).toMatch(`paused its calls to it for ${PAUSE_SECONDS} s`)
    // As the pause runs, the time it says to wait shrinks.
    later(DEFAULT_PAUSE_MS - 2_000)
    expect((await apiError(api.call(listLists, alice))).retryAfterSeconds).toBe(2)

    // After the pause, the next call is the probe; while it is out, every other call is refused.
    later(2_000)
    const held = agent.holdNext()
    const probe = api.call(listLists, alice)
    await held.sent
    expect(api.circuitStates().tasks).toBe('half_open')
    const meanwhile = await apiError(api.call(listLists, bob))
    expect(meanwhile).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 1 })
    // Answered, the probe closes the breaker for everyone.
    held.release()
    expect((await probe).status).toBe(200)
    expect(api.circuitStates().tasks).toBe('closed')
    expect((await api.call(listLists, bob)).status).toBe(200)
    // Of all these calls, the provider received the probe and the call after it.
    expect(await requestsSince(sandbox, since)).toEqual([
      { method: 'GET', path: `${TASKS}/lists`, status: 200 },
      { method: 'GET', path: `${TASKS}/lists`, status: 200 },
    ])

    // The operator reads the breaker's moves, once each; the paused calls only at debug.
    const messages = lines.map((line) => JSON.parse(line) as { level: number; msg: string })
    const warned = messages.filter((m) => m.level === 40 && /the provider/.test(m.msg))
    expect(warned.map((m) => m.msg)).toEqual([
      'the provider is down for everyone: calls to it are paused',
      'the provider answers again: calls to it resume',
    ])
    expect(messages.filter((m) => m.msg === 'upstream call paused')).toHaveLength(3)
  })

  it('a probe that fails pauses the calls again, for a whole pause', async () => {
    const api = apiFor(sandbox)
    const grants = [await grantFor(sandbox, newUser()), await grantFor(sandbox, newUser())]
    const list = `down-${newUser()}`
    await brokenList(list)
    for (const grant of [...grants, ...grants]) await apiError(api.call(getList(list), grant))
    expect(api.circuitStates().tasks).toBe('open')
    later(DEFAULT_PAUSE_MS)
    expect((await apiError(api.call(getList(list), grants[0]!))).status).toBe(503)
    expect(api.circuitStates().tasks).toBe('open')
    const paused = await apiError(api.call(listLists, grants[1]!))
    expect(paused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: PAUSE_SECONDS })
  })

  it('one person’s trouble stays theirs: however many of their calls fail, the others are served', async () => {
    const api = apiFor(sandbox)
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
    const api = apiFor(sandbox)
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
