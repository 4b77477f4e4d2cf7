import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  AuthorizationFlow,
  COMPILED,
  freePort,
  startProcess,
  stopProcess,
} from '@countersign/connector/testing'
import { MODERN, toolCall, type Target } from './load.js'
import { liftSandboxQuotas } from './sandbox-quotas.js'
import { emit } from './stats.js'
import { UNREACHED_PER_MINUTE } from './limits.js'

/**
 * A provider's faults as an operator sees them (docs/design.md, "Reliability"): the compiled
 * connector on SQLite and the sandbox in their own processes, three people calling `run_report`
 * through MCP from eight workers, the sandbox failing through its control API, then its process
 * stopped and started again on its port and data. Printed: the calls that failed, the worst second,
 * how long a call took while the provider was down, and the seconds until calls succeed again.
 */

const WORKERS = 8

interface Call {
  person: number
  started: number
  ended: number
  ok: boolean
}

export async function benchOutages(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-outages-'))
  const children: ChildProcess[] = []
  try {
    const [sandboxPort, googlePort, connectorPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ]
    const sandboxEnv = {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_GOOGLE_PORT: String(googlePort),
      DATA_DIR: join(dataDir, 'sandbox-data'),
      LOG_LEVEL: 'warn',
    }
    // Some 10,000 reports a property in a minute: more than GA4's tokens for an hour, which the
    // sandbox enforces. Its quotas are lifted, at every start: outages are measured here.
    const startSandbox = async () => {
      const started = await startProcess(children, COMPILED.sandbox, sandboxPort, sandboxEnv)
      await liftSandboxQuotas(started.url)
      return started
    }
    let sandbox = await startSandbox()
    const connector = await startProcess(children, COMPILED.connector, connectorPort, {
      SANDBOX_PORT: String(sandboxPort),
      PORT: String(connectorPort),
      DATA_DIR: dataDir,
      VAULT_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'error',
      RATE_LIMIT_TOOL_CALLS_PER_MINUTE: UNREACHED_PER_MINUTE,
    })
    const flow = new AuthorizationFlow({ url: connector.url, sandbox: { url: sandbox.url } })
    const people = await Promise.all(
      ['ana', 'ben', 'cy'].map(async (name) => {
        const user = `outages-${name}`
        const { tokens } = await flow.connect({ service: 'analytics', person: flow.person(user) })
        const assets = await fetch(`${sandbox.url}/_sandbox/users/${user}`)
        const [propertiesId] = ((await assets.json()) as { properties: string[] }).properties
        return {
          propertiesId: propertiesId!,
          call: reportCall(connector.url, tokens.access_token, propertiesId!),
        }
      }),
    )
    const fault = (spec: Record<string, unknown>) =>
      fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(spec),
      })
    const clearFaults = () => fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' })
    const everyReport = { method: 'POST', path: '/analytics/v1/properties/*/report' }
    const everyone = (worker: number) => worker % 3

    // Warm: the property's metadata read, connections open.
    await run(people, everyone, 2_000, async () => {})

    // A burst of five 503s, two seconds in.
    const blip = await run(people, everyone, 5_000, async () => {
      await sleep(2_000)
      await fault({ match: everyReport, status: 503, times: 5 })
    })
    emit('outage_load_calls_per_s', blip.length / 5, 'calls/s')
    emit('outage_blip_failed_calls', blip.filter((c) => !c.ok).length, 'calls')
    emit('outage_blip_worst_second_success', worstSecond(blip), 'ratio')

    // One request in a hundred answered 503, at random.
    await fault({ match: everyReport, status: 503, probability: 0.01, times: 10_000 })
    const random = await run(people, everyone, 4_000, async () => {})
    await clearFaults()
    emit('outage_random_1pct_failed_calls', random.filter((c) => !c.ok).length, 'calls')

    // Every request for one person's property answered 503; they make six calls of eight.
    await fault({
      match: { method: 'POST', path: `/analytics/v1/properties/${people[0]!.propertiesId}/report` },
      status: 503,
      times: 10_000,
    })
    const onePerson = await run(
      people,
      (w) => (w < 6 ? 0 : 1 + (w % 2)),
      4_000,
      async () => {},
    )
    await clearFaults()
    const others = onePerson.filter((c) => c.person !== 0)
    emit('outage_one_person_others_failed_calls', others.filter((c) => !c.ok).length, 'calls')
    emit('outage_one_person_others_calls', others.length, 'calls')

    // The provider's process stopped for 8 s, then started again on its port and data.
    let down = 0
    let back = 0
    const outage = await run(people, everyone, 26_000, async (now) => {
      await sleep(2_000)
      await stopProcess(sandbox.child)
      down = now()
      await sleep(8_000)
      sandbox = await startSandbox()
      back = now()
    })
    const whileDown = outage.filter((c) => c.started >= down && c.ended <= back)
    emit(
      'outage_call_max_ms_while_down',
      Math.max(...whileDown.map((c) => c.ended - c.started)),
      'ms',
    )
    const firstOk = outage.find((c) => c.started >= back && c.ok)
    emit('outage_recovery_seconds', firstOk ? (firstOk.ended - back) / 1000 : Infinity, 's')
    const afterRecovery = outage.filter((c) => firstOk && c.started > firstOk.ended)
    emit('outage_failed_after_recovery', afterRecovery.filter((c) => !c.ok).length, 'calls')
  } finally {
    await Promise.all(children.map(stopProcess))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** A run_report tool call of a 2026-07-28 client, checked after the clock stops. */
function reportCall(base: string, token: string, propertiesId: string): Target {
  return toolCall({
    url: `${base}/analytics/mcp`,
    tool: 'run_report',
    args: {
      propertiesId,
      dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'sessions' }],
      limit: 10,
    },
    revision: MODERN,
    token,
    ok: () => true,
  })
}

/**
 * `WORKERS` workers calling for `personOf(worker)` for `ms`, while `script` runs beside them;
 * a worker whose call failed pauses 20 ms, as a client shown an error would.
 */
async function run(
  people: readonly { call: Target }[],
  personOf: (worker: number) => number,
  ms: number,
  script: (now: () => number) => Promise<void>,
): Promise<Call[]> {
  const start = performance.now()
  const now = () => performance.now() - start
  const calls: Call[] = []
  const worker = async (index: number) => {
    const person = personOf(index)
    const { url, method, headers, body } = people[person]!.call
    while (now() < ms) {
      const started = now()
      const ok = await fetch(url, { method, headers, body }).then(
        async (res) => res.ok && !(await res.text()).includes('"isError":true'),
        () => false,
      )
      calls.push({ person, started, ended: now(), ok })
      if (!ok) await sleep(20)
    }
  }
  await Promise.all([script(now), ...Array.from({ length: WORKERS }, (_, i) => worker(i))])
  return calls
}

/** The lowest share of successful calls in any whole second (by when the calls ended). */
function worstSecond(calls: readonly Call[]): number {
  const seconds: { ok: number; all: number }[] = []
  for (const { ended, ok } of calls) {
    const second = (seconds[Math.floor(ended / 1000)] ??= { ok: 0, all: 0 })
    second.all++
    if (ok) second.ok++
  }
  return Math.min(...[...seconds].map((s) => (s && s.all ? s.ok / s.all : 1)))
}
