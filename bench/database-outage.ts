import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  AuthorizationFlow,
  COMPILED,
  databaseProxy,
  isAlive,
  startReplicas,
  stopProcess,
  type Client,
  type DatabaseProxy,
  type ReplicaSet,
} from '@countersign/connector/testing'
import { MODERN, toolCall, type Target } from './load.js'
import { benchDatabase, type BenchDatabase } from './organization/database.js'
import { startCompiledSandbox } from './sandbox-process.js'
import { liftSandboxQuotas } from './sandbox-quotas.js'
import { emit } from './stats.js'

/**
 * PostgreSQL away for 10 s under two compiled replicas (docs/operations.md, "When the database
 * goes away"), through a TCP proxy of the bench's own between them and the database: first a
 * server that stops (every session ended, new connections refused), then a host that does not
 * answer (connections neither open nor fail). Six people read through MCP from eight workers
 * while their clients refresh their tokens in a loop. Printed, for each: the calls that failed
 * and how long the slowest of them took to fail, the seconds from the database's return until
 * every call succeeds, the grants lost (a refresh refused, or a token refused once it is back:
 * the goal is 0), and the replicas that exited.
 */

const PEOPLE = 6
const WORKERS = 8
const AWAY_MS = 10_000

interface Call {
  started: number
  ended: number
  ok: boolean
}

interface Person {
  client: Client
  refreshToken: string
  read: Target
  /** Its refresh was refused: the grant is gone. */
  lost?: boolean
}

export async function benchDatabaseOutage(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-database-outage-'))
  const children: ChildProcess[] = []
  let database: BenchDatabase | undefined
  let proxy: DatabaseProxy | undefined
  let replicas: ReplicaSet | undefined
  try {
    database = await benchDatabase('countersign_bench_outage')
    proxy = await databaseProxy(database.url)
    const sandbox = await startCompiledSandbox(children, join(dataDir, 'sandbox'))
    await liftSandboxQuotas(sandbox.url)
    replicas = await startReplicas({
      databaseUrl: proxy.databaseUrl,
      sandbox,
      profile: 'generic',
      program: COMPILED.connector,
      env: {
        LOG_LEVEL: 'error',
        RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '1000000',
        RATE_LIMIT_TOOL_CALLS_PER_MINUTE: '1000000',
      },
    })
    const flow = new AuthorizationFlow({ url: replicas.url, sandbox: { url: sandbox.url } })
    const people: Person[] = await Promise.all(
      Array.from({ length: PEOPLE }, async (_, i) => {
        const person = flow.person(`database-outage-${i}`)
        const { client, tokens } = await flow.connect({ service: 'tasks', person })
        return {
          client,
          refreshToken: tokens.refresh_token as string,
          read: readCall(replicas!.url, tokens.access_token as string),
        }
      }),
    )
    const pids = replicas.processes.map(({ pid }) => pid)

    for (const outage of ['refuse', 'hold'] as const) {
      let down = 0
      let back = 0
      const calls = await run(flow, people, 2_000 + AWAY_MS + 8_000, async (now) => {
        await sleep(2_000)
        proxy!.down(outage)
        down = now()
        await sleep(AWAY_MS)
        proxy!.up()
        back = now()
      })
      const failed = calls.filter((c) => !c.ok)
      const failedWhileAway = failed.filter((c) => c.started >= down && c.started < back)
      emit(`db_outage_${outage}_failed_calls`, failed.length, 'calls')
      emit(
        `db_outage_${outage}_failed_call_max_ms`,
        Math.max(0, ...failedWhileAway.map((c) => c.ended - c.started)),
        'ms',
      )
      // Full success: from the database's return to the end of the last failed call.
      const lastFailure = Math.max(back, ...failed.map((c) => c.ended))
      emit(`db_outage_${outage}_recovery_seconds`, (lastFailure - back) / 1000, 's')
      await refusedOnceBack(flow, people)
      emit(`db_outage_${outage}_grants_lost`, people.filter((p) => p.lost).length, 'grants')
    }
    emit('db_outage_replicas_exited', pids.filter((pid) => !isAlive(pid)).length, 'replicas')
  } finally {
    await replicas?.close()
    await Promise.all(children.map(stopProcess))
    await proxy?.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * `WORKERS` workers reading for the people, and each person's client refreshing in a loop, for
 * `ms`, while `script` runs; a call or refresh that failed pauses 100 ms. A refresh answered 400
 * or 401 is a grant lost: that person's loop stops.
 */
async function run(
  flow: AuthorizationFlow,
  people: Person[],
  ms: number,
  script: (now: () => number) => Promise<void>,
): Promise<Call[]> {
  const start = performance.now()
  const now = () => performance.now() - start
  const calls: Call[] = []
  const reader = async (index: number) => {
    const { url, method, headers, body } = people[index % people.length]!.read
    while (now() < ms) {
      const started = now()
      const ok = await fetch(url, { method, headers, body }).then(
        async (res) => res.ok && !(await res.text()).includes('"isError":true'),
        () => false,
      )
      calls.push({ started, ended: now(), ok })
      if (!ok) await sleep(100)
    }
  }
  const refresher = async (person: Person) => {
    while (now() < ms && !person.lost) {
      const res = await flow.refresh(person.client, person.refreshToken).catch(() => undefined)
      if (res?.status === 200) person.refreshToken = res.body.refresh_token
      else if (res?.status === 400 || res?.status === 401) person.lost = true
      else await sleep(100)
    }
  }
  await Promise.all([
    script(now),
    ...Array.from({ length: WORKERS }, (_, i) => reader(i)),
    ...people.map(refresher),
  ])
  return calls
}

/** Each person's refresh once the database is back: one refused is a grant lost. */
async function refusedOnceBack(flow: AuthorizationFlow, people: Person[]): Promise<void> {
  for (const person of people.filter((p) => !p.lost)) {
    const res = await flow.refresh(person.client, person.refreshToken)
    if (res.status === 200) person.refreshToken = res.body.refresh_token
    else person.lost = true
  }
}

/** A list_task_lists call of a 2026-07-28 client. */
function readCall(base: string, token: string): Target {
  return toolCall({
    url: `${base}/tasks/mcp`,
    tool: 'list_task_lists',
    args: {},
    revision: MODERN,
    token,
    ok: () => true,
  })
}
