import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join as joinPath } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  AuthorizationFlow,
  COMPILED,
  startReplicas,
  stopProcess,
  type ReplicaSet,
} from '@countersign/connector/testing'
import type { Target } from './load.js'
import { approvedCreate, readDirectly, type Member } from './organization/calls.js'
import {
  benchDatabase,
  copyGrants,
  grantsHeld,
  type BenchDatabase,
} from './organization/database.js'
import { runDay } from './organization/day.js'
import { batch, emitLatency, interleaved } from './organization/latency.js'
import { connect, join, organization, seed } from './organization/people.js'
import { largestRssMb, readReplicas, since } from './organization/readings.js'
import { measureSteps } from './organization/steps.js'
import { startCompiledSandbox } from './sandbox-process.js'
import { liftSandboxQuotas, setSandboxQuotas } from './sandbox-quotas.js'
import { emit } from './stats.js'
import { UNREACHED_PER_DAY } from './limits.js'

/**
 * An organization's day, simulated (docs/operations.md, "An organization, simulated"): real
 * processes all - the compiled sandbox, three compiled connector replicas on one PostgreSQL
 * database of the bench's own behind one front (`startReplicas` of the connector's testing
 * entry) - and real people, each connected through the real OAuth flow with a task list at the
 * provider.
 *
 * 1. A pilot of ten people joins; the replicas' memory and CPU per call in a load pass (10 grants).
 * 2. The rest of the organization joins: a thousand people.
 * 3. Their day, under a project's daily quota at the provider (and the connector's
 *    QUOTA_TASKS_QUERIES_PER_DAY) of ten queries a person, while one person's assistant loops.
 *    The pilot's calls before it count against that day too; the pilot makes none during it.
 * 4. The replicas restarted with the quotas lifted; a load pass (1k grants); the
 *    latency of a list_tasks call through the front and made directly at the provider, at
 *    concurrency 1, 8 and 32; the statements the replicas send PostgreSQL and their CPU time
 *    per read, and the statements per change.
 * 5. Grants copied in SQL up to 10,000 and 100,000; a load pass at each.
 */

const PILOT = 10
const PEOPLE = 1_000
const REPLICAS = 3
const ASSISTANTS = ['Assistant A', 'Assistant B', 'Assistant C']
/**
 * The project's daily quota, a person's worth: small enough for the runaway to use the day up
 * within the day's 40 seconds (at the 300 or so calls a second three replicas serve on two
 * cores, the others' calls included), and well above what an ordinary person uses (joining,
 * three reads, now and then a change: seven at most).
 */
const QUERIES_PER_PERSON = 10
const DAY_MS = 40_000
/**
 * Each memory reading is taken alike: the replicas started afresh on the store as it is, then a
 * load pass (calls spread over the people, 16 at a time), then a second's rest. The readings then
 * differ by what the store holds, not by what the replicas went through before.
 */
const PASS_CALLS = 1_000
const PASS_AT_ONCE = 16
/** Calls measured at each concurrency, of each path (after a warm-up of WARMUP_CALLS). */
const LATENCY_CALLS: Record<number, number> = { 1: 300, 8: 1_600, 32: 3_200 }
const WARMUP_CALLS = 400
const CHANGES = 20
const GRANT_STEPS = [
  [10_000, '10k'],
  [100_000, '100k'],
] as const

/**
 * Every person comes from this one address, and the runaway's loop must run hot: the limits per
 * address and per grant are raised above what the machine serves (a thousand calls a second on
 * one grant), so that the day shows the quota, not the rate limits.
 */
const RATE_LIMITS = {
  RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '1000000',
  RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '1000000',
  RATE_LIMIT_TOOL_CALLS_PER_MINUTE: '60000',
}

export async function benchOrganization(): Promise<void> {
  const started = performance.now()
  const say = (line: string) =>
    process.stderr.write(
      `bench organization (${((performance.now() - started) / 1000).toFixed(1)} s): ${line}\n`,
    )
  const children: ChildProcess[] = []
  const dataDir = mkdtempSync(joinPath(tmpdir(), 'countersign-bench-organization-'))
  let database: BenchDatabase | undefined
  let replicas: ReplicaSet | undefined
  try {
    database = await benchDatabase()
    const sandbox = await startCompiledSandbox(children, dataDir)
    const holders = PILOT + PEOPLE
    const quota = QUERIES_PER_PERSON * holders
    // The day's quota at the provider; every other quota lifted (a bench's thousands of calls).
    await liftSandboxQuotas(sandbox.url)
    await setSandboxQuotas(sandbox.url, { tasksQueriesPerDay: quota })
    replicas = await startReplicas({
      databaseUrl: database.url,
      sandbox,
      count: REPLICAS,
      profile: 'generic',
      program: COMPILED.connector,
      metrics: true,
      env: { LOG_LEVEL: 'error', QUOTA_TASKS_QUERIES_PER_DAY: String(quota), ...RATE_LIMITS },
    })
    const flow = new AuthorizationFlow({ url: replicas.url, sandbox: { url: sandbox.url } })
    const org = await organization(flow, sandbox.url, ASSISTANTS)
    say(`up: sandbox, ${REPLICAS} replicas, front ${replicas.url}`)

    // 1. The pilot. Its first person joins alone, and adds a task: what joining and a change
    // cost of the project's quota, from the provider's request log.
    const [first, ...pilotUsers] = users('pilot', PILOT)
    const firstSeeded = await seed(org, first!)
    const joining = await tasksQueriesDuring(sandbox.url, () => connect(org, firstSeeded, 0))
    const firstMember = joining.value
    const change = await tasksQueriesDuring(sandbox.url, async () =>
      (await approvedCreate(flow.url, firstMember, 'Pilot task')).send(),
    )
    if (change.value !== 'ok') throw new Error(`the pilot's change ended ${change.value}`)
    const pilot = [firstMember, ...(await join(org, pilotUsers))]
    emitPass('10', await loadPass(replicas, pilot))
    say(`pilot: joining costs ${joining.queries} queries, a change ${change.queries}`)

    // 2. The organization joins.
    const joinStarted = performance.now()
    const people = await join(org, users('person', PEOPLE))
    const held = await grantsHeld(database.client)
    say(
      `${PEOPLE} people joined in ${((performance.now() - joinStarted) / 1000).toFixed(1)} s ` +
        `(${held.grants} grants of ${held.people} people)`,
    )

    // 3. The day.
    const day = await runDay({
      base: flow.url,
      people,
      runaway: people[0]!,
      ms: DAY_MS,
      quota,
      holders: held.people,
      costs: { joining: joining.queries, change: change.queries },
    })
    emit('others_success_ratio_during_runaway', day.others.ok / day.others.calls, 'ratio')
    emit('quota_fair_share_kept', day.refusedWithinShare === 0 ? 1 : 0, 'boolean')
    emit('calls_served', day.others.ok + day.runaway.ok, 'calls')
    emit('quota_used_runaway', day.usedByRunaway, 'queries')
    emit('quota_used_median_person', day.usedByMedianPerson, 'queries')
    say(
      `day: quota ${quota} (share ${(quota / held.people).toFixed(1)}); others ${day.others.ok}/` +
        `${day.others.calls} ok; runaway ${day.runaway.ok}/${day.runaway.calls} ok, first refused ` +
        `at ${day.runawayFirstRefusedMs === undefined ? 'never' : `${(day.runawayFirstRefusedMs / 1000).toFixed(1)} s`}; ` +
        `refused within share ${day.refusedWithinShare}; outcomes ${JSON.stringify(day.outcomes)}`,
    )

    // 4. The quotas lifted: what the replicas cost per call.
    await liftSandboxQuotas(sandbox.url)
    const everyone = [...pilot, ...people]
    const lifted = { QUOTA_TASKS_QUERIES_PER_DAY: UNREACHED_PER_DAY }
    emitPass('1k', await loadPass(replicas, everyone, lifted))
    await measureCalls(everyone, sandbox.url, replicas)
    await measureChanges(flow.url, people.slice(1, 1 + CHANGES), replicas)
    await measureSteps(replicas, flow.url, everyone, '_organization')
    say('calls measured')

    // 5. More grants.
    for (const [total, name] of GRANT_STEPS) {
      await copyGrants(database.client, total)
      emitPass(name, await loadPass(replicas, everyone))
    }
    say('done')
  } finally {
    await replicas?.close().catch((error: unknown) => say(`replicas: ${String(error)}`))
    await Promise.all(children.map(stopProcess))
    await database?.drop().catch((error: unknown) => say(`database: ${String(error)}`))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * list_tasks at concurrency 1, 8 and 32, through the front and directly, spread over the
 * people, once every replica has served every person; around the batch at 8 through the front,
 * the replicas' statements and CPU time. The
 * front runs in this process, beside the calls' senders, as support/replicas.ts has it: its hop
 * is in the connector's figures, as a load balancer's is in a deployment's.
 */
async function measureCalls(people: readonly Member[], sandboxUrl: string, replicas: ReplicaSet) {
  let turn = 0
  const nextPerson = () => people[turn++ % people.length]!
  const connector = (): Target => nextPerson().read
  const direct = (): Target => readDirectly(sandboxUrl, nextPerson())
  await batch(direct, 8, WARMUP_CALLS)
  // Until every replica has served every person (the front takes turns): a replica reads a
  // person's count of the day's quota the first time it serves them, once a day, and that read
  // is no read's own cost.
  await batch(connector, 8, Math.max(WARMUP_CALLS, people.length * replicas.processes.length))

  const [d1, c1] = await interleaved(direct, connector, LATENCY_CALLS[1]!)
  emitLatency(1, 'direct', d1)
  emitLatency(1, 'connector', c1)
  for (const concurrency of [8, 32]) {
    const calls = LATENCY_CALLS[concurrency]!
    emitLatency(concurrency, 'direct', await batch(direct, concurrency, calls))
    const before = await readReplicas(replicas)
    const times = await batch(connector, concurrency, calls)
    const used = since(before, await readReplicas(replicas))
    emitLatency(concurrency, 'connector', times)
    if (concurrency !== 8) continue
    emit('pg_statements_per_call', used.statements / calls, 'statements')
    emit('cpu_ms_per_call_replica', used.cpuMs / calls, 'ms')
  }
}

/** Changes approved in the client, one person each: the statements each costs. */
async function measureChanges(base: string, people: readonly Member[], replicas: ReplicaSet) {
  const changes = await Promise.all(
    people.map((person, i) => approvedCreate(base, person, `Measured change ${i}`)),
  )
  const before = await readReplicas(replicas)
  for (const change of changes) {
    const outcome = await change.send()
    if (outcome !== 'ok') throw new Error(`a measured change ended ${outcome}`)
  }
  const used = since(before, await readReplicas(replicas))
  emit('pg_statements_per_change', used.statements / people.length, 'statements')
}

/**
 * A load pass: the replicas started afresh (with `env` over theirs), then PASS_CALLS reads spread
 * over `people`, PASS_AT_ONCE at a time, and a second's rest. What it cost the replicas' CPU per
 * call (a fresh start's warm-up included, alike at every size), and the largest replica's
 * resident memory after it, in MB.
 */
async function loadPass(
  replicas: ReplicaSet,
  people: readonly Member[],
  env: Record<string, string> = {},
): Promise<{ rssMb: number; cpuMsPerCall: number }> {
  await replicas.restart(env)
  const before = await readReplicas(replicas)
  let turn = 0
  await batch(() => people[turn++ % people.length]!.read, PASS_AT_ONCE, PASS_CALLS)
  const used = since(before, await readReplicas(replicas))
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  return { rssMb: largestRssMb(replicas), cpuMsPerCall: used.cpuMs / PASS_CALLS }
}

/** A load pass's figures at a number of grants held: `10`, `1k`, `10k`, `100k`. */
function emitPass(grants: string, pass: { rssMb: number; cpuMsPerCall: number }) {
  emit(`rss_mb_per_replica_${grants}_grants`, pass.rssMb, 'MB')
  emit(`cpu_ms_per_call_replica_${grants}_grants`, pass.cpuMsPerCall, 'ms')
}

const users = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `org-${prefix}-${String(i).padStart(4, '0')}`)

/**
 * What `step` made the provider count as Tasks queries: the requests to its task API that its
 * request log gained (the log keeps the newest 10,000: this is for the start, alone).
 */
async function tasksQueriesDuring<T>(sandboxUrl: string, step: () => Promise<T>) {
  const log = async () => {
    const res = await fetch(`${sandboxUrl}/_sandbox/requests`)
    const entries = (await res.json()) as { path: string }[]
    if (entries.length >= 10_000) throw new Error('the request log is full: too late to count')
    return entries
  }
  const from = (await log()).length
  const value = await step()
  const queries = (await log()).slice(from).filter((e) => e.path.startsWith('/tasks/v1/')).length
  return { value, queries }
}

// `npm run bench:organization`: this bench alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchOrganization()
