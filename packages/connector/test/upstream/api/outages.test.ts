import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { sandboxUpstream } from '../../../src/connector/sandbox-upstream.js'
import type { ApiCall } from '../../../src/upstream/api/index.js'
import { freePort, PROGRAMS, startProcess, stopProcess } from '../../support/processes.js'
import { apiFor, fault, grantFor, newUser, type Sandbox } from './harness.js'
import { sample, successBySecond, traffic, type Caller, type CallRecord } from './traffic.js'

/**
 * A provider's blip is never everyone's outage (DESIGN §7 Reliability): three people calling
 * run_report from eight workers through one API client, against the real sandbox failing through
 * its control API, and against the sandbox's process stopped and started again on its port and
 * data. Each test asserts what the people got: calls failed, seconds without service.
 */

const sandbox = sandboxForSuite()

/** run_report on `propertiesId`: a small report, as a person's assistant would ask for. */
const report = (propertiesId: string): ApiCall => ({
  service: 'analytics',
  method: 'POST',
  path: '/properties/{propertiesId}/report',
  pathParams: { propertiesId },
  body: {
    dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
    dimensions: [{ name: 'country' }],
    metrics: [{ name: 'sessions' }],
    limit: 10,
  },
  idempotent: true,
})

/** Three people, each calling run_report on a property of their own. */
async function people(provider: Pick<Sandbox, 'token' | 'request'>): Promise<Caller[]> {
  return Promise.all(
    ['ana', 'ben', 'cy'].map(async (who) => {
      const name = newUser(who)
      const grant = await grantFor(provider, name, ['analytics.readonly'])
      const { body } = await provider.request('GET', `/_sandbox/users/${name}`)
      return { name, grant, call: report(body.properties[0]) }
    }),
  )
}

const failures = (records: readonly CallRecord[]) => records.filter((r) => r.error)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a provider’s faults under load', () => {
  it('a burst of five 503s: at most the calls that met them fail, no second below 90%, the breaker stays closed', async () => {
    const api = apiFor(sandbox)
    const callers = await people(sandbox)
    const states = sample(() => api.circuitStates().analytics)
    const load = traffic(api, callers, { workers: 8, untilMs: 3_000 })
    await sleep(1_000)
    await fault(sandbox, {
      match: { method: 'POST', path: '/analytics/v1/properties/*/report' },
      status: 503,
      times: 5,
    })
    const records = await load.done
    expect(failures(records).length).toBeLessThanOrEqual(5)
    for (const share of successBySecond(records)) expect(share).toBeGreaterThanOrEqual(0.9)
    expect(new Set(states.stop().map((s) => s.value))).toEqual(new Set(['closed']))
  })

  it('1% of requests answered 503 at random: every call succeeds, its retries absorb them', async () => {
    const api = apiFor(sandbox)
    const callers = await people(sandbox)
    await fault(sandbox, {
      match: { method: 'POST', path: '/analytics/v1/properties/*/report' },
      status: 503,
      probability: 0.01,
      times: 10_000,
    })
    const records = await traffic(api, callers, { workers: 8, untilMs: 3_000 }).done
    await sandbox.request('POST', '/_sandbox/reset')
    expect(records.length).toBeGreaterThan(20)
    expect(failures(records)).toEqual([])
    expect(api.circuitStates().analytics).toBe('closed')
  })

  it('every request for one person’s property answered 503: theirs fail, everyone else is served, whatever the mix', async () => {
    const api = apiFor(sandbox)
    const [troubled, ...others] = await people(sandbox)
    await fault(sandbox, {
      match: {
        method: 'POST',
        path: `/analytics/v1/properties/${troubled!.call.pathParams!.propertiesId}/report`,
      },
      status: 503,
      times: 10_000,
    })
    const states = sample(() => api.circuitStates().analytics)
    // The troubled person makes most of the traffic: six workers of eight.
    const callers = [troubled!, ...others]
    const records = await traffic(api, callers, {
      workers: 8,
      untilMs: 3_000,
      pick: (i) => (i < 6 ? troubled! : others[i % 2]!),
    }).done
    const theirs = records.filter((r) => r.person === troubled!.name)
    const everyoneElse = records.filter((r) => r.person !== troubled!.name)
    expect(theirs.length).toBeGreaterThan(0)
    expect(theirs.every((r) => r.error?.kind === 'unavailable')).toBe(true)
    expect(everyoneElse.length).toBeGreaterThan(10)
    expect(failures(everyoneElse)).toEqual([])
    expect(new Set(states.stop().map((s) => s.value))).toEqual(new Set(['closed']))
  })
})

describe('the provider down, then back', () => {
  const children: ChildProcess[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-outage-'))
  afterAll(async () => {
    await Promise.all(children.map(stopProcess))
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('its process stopped for 4 s: calls fail fast saying when to retry, the breaker opens, and within 10 s of its return calls succeed', async () => {
    const [port, googlePort] = [await unassignedPort(), await freePort()]
    const env = {
      SANDBOX_PORT: String(port),
      SANDBOX_GOOGLE_PORT: String(googlePort),
      DATA_DIR: dataDir,
    }
    const start = () => startProcess(children, PROGRAMS.sandbox, port, env)
    let running = await start()
    const provider = childSandbox(running.url)
    const api = apiFor(sandbox, { apiBase: sandboxUpstream(running.url).apiBase })
    const callers = await people(provider)
    const states = sample(() => api.circuitStates().analytics)
    const load = traffic(api, callers, { workers: 8 })

    await sleep(1_000)
    await stopProcess(running.child)
    const down = load.now()
    await sleep(4_000)
    running = await start()
    const back = load.now()
    // Ten seconds after its return, the traffic ends.
    while (load.now() < back + 10_000) await sleep(100)
    const records = await load.stop()

    // While it was down: every call ended within 2 s, each failure saying when to come back.
    const duringOutage = records.filter((r) => r.started >= down && r.ended <= back)
    expect(duringOutage.length).toBeGreaterThan(8)
    for (const call of duringOutage) {
      expect(call.ended - call.started).toBeLessThan(2_000)
      expect(call.error?.kind).toBe('unavailable')
      expect(call.error!.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(call.error!.retryAfterSeconds).toBeLessThanOrEqual(5)
    }
    const seen = states.stop()
    expect(seen.some((s) => s.value === 'open' && s.at > down && s.at < back)).toBe(true)

    // Back: calls succeed again within 10 s, and every call after the first success does too.
    const after = records.filter((r) => r.started >= back)
    const firstOk = after.find((r) => !r.error)
    expect(firstOk, 'no call succeeded after the provider came back').toBeDefined()
    expect(firstOk!.ended - back).toBeLessThan(10_000)
    expect(failures(after.filter((r) => r.started > firstOk!.ended))).toEqual([])
    expect(api.circuitStates().analytics).toBe('closed')
  })
})

/**
 * A free port below the range the system hands out for port 0 (as freePort() asks, here and in
 * the other test files running beside this one): while the sandbox is down, no other server can
 * be given its port and answer in its place.
 */
async function unassignedPort(): Promise<number> {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (Number(low) - 10_000))
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
}

/** The control API of a sandbox in its own process, as the harness's is for the suite's. */
function childSandbox(url: string): Pick<Sandbox, 'token' | 'request'> {
  const request = async (method: string, path: string, init: { body?: unknown } = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) }
  }
  return {
    request: request as Sandbox['request'],
    async token(user: string, scopes: string[] = ['tasks']) {
      const { body } = await request('POST', '/_sandbox/tokens', { body: { user, scopes } })
      return body.access_token as string
    },
  }
}
