import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { googleSandboxUpstream } from '@countersign/connector'
import {
  AuthorizationFlow,
  COMPILED,
  freePort,
  FROM_SOURCES,
  startProcess,
  stopProcess,
  upstreamEnvironment,
} from '@countersign/connector/testing'
import { LEGACY, load, MODERN, once, toolCall, type Revision, type Target } from './load.js'
import type { Runtime } from './runtime.js'
import { emitIdleHeap, heapSnapshotFlags } from './idle-heap.js'
import { cpuMs, rssMb } from './processes.js'
import { providerToken, seedTaskList } from './provider.js'
import { liftSandboxQuotas } from './sandbox-quotas.js'
import { emit, p50, timed } from './stats.js'
import { UNREACHED_PER_DAY, UNREACHED_PER_MINUTE } from './limits.js'

/**
 * A `list_tasks` tool call through the connector against the same upstream GET made directly
 * (docs/performance.md, "The figures"): latency overhead, throughput ratio, and the connector's
 * memory.
 *
 * The sandbox and the connector run as child processes, compiled, exactly as `npm run sandbox` and
 * `countersign start` run them (production logging, SQLite in a data folder; `npm run bench`
 * builds first), and the load generator in this process: three processes on the machine's cores,
 * as in a deployment with the client on the same host. The connector's memory is its own
 * process's: the production connector's, with no sandbox module and no TypeScript loader in it.
 * The token comes through the real OAuth flow (consent, provider sign-in, code exchange).
 *
 * Besides those figures, where the time goes: the CPU time the connector and the sandbox spend per
 * request (from /proc), and the same two figures for two floors (bench/bare-proxy.ts), which make
 * the GET with the connector's HTTP client: `bare_proxy_*`, a Hono route that only forwards it, the
 * floor of any gateway on this stack; `mcp_floor_*`, a `tools/call` answered with it through the
 * SDK's handler and nothing of the connector's, the floor of any MCP gateway that keeps the SDK's
 * protocol handling. `BENCH_CPU_PROFILE=<folder>` writes a CPU profile of the connector.
 *
 * Beside it, the same call through a second connector in the Google profile, against the
 * sandbox's Google dialect, and that dialect's own GET: `google_overhead_p50_ms`.
 *
 * Last, once the connector has rested again, its heap by what holds it (bench/idle-heap.ts).
 */

const USER = 'bench-tools'
const TASKS = 20
const WARMUP = 100
const SAMPLES = 500
const CONNECTIONS = 10
const SECONDS = 3
const ROUNDS = 2
const WARMUP_ROUNDS = 3
/** How long the connector rests without a request before its idle memory is read. */
const REST_SECONDS = 20

export async function benchConnectorTools(runtime?: Runtime): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-tools-'))
  const children: ChildProcess[] = []
  const command = runtime?.node
  try {
    const { sandbox, connector, flow } = await startStack(children, dataDir, command)
    const { tokens } = await flow.connect({ service: 'tasks', person: flow.person(USER) })
    const tasklist = await seedTasks(sandbox.url)
    const google = await startGoogleConnector(children, dataDir, sandbox, command)

    // The same upstream request the tool makes: list_tasks with only `tasklist` is a GET of the
    // list's tasks without a query (the provider's default page holds the 20 tasks).
    const direct: Target = {
      url: `${sandbox.url}/tasks/v1/lists/${tasklist}/tasks`,
      method: 'GET',
      headers: { authorization: `Bearer ${await providerToken(sandbox.url, USER)}` },
      ok: (body) => body.includes('"kind":"tasks#tasks"') && countTasks(body) === TASKS,
    }
    const proxyPort = await freePort()
    const proxy = await startChild(
      children,
      [...FROM_SOURCES, 'bench/bare-proxy.ts'],
      proxyPort,
      {
        UPSTREAM_URL: direct.url,
        UPSTREAM_TOKEN: await providerToken(sandbox.url, USER),
        PORT: String(proxyPort),
      },
      command,
    )
    const bare: Target = { ...direct, url: `${proxy.url}/proxy`, headers: {} }
    const modern = listTasks(connector.url, tokens.access_token, tasklist, MODERN)
    const legacy = listTasks(connector.url, tokens.access_token, tasklist, LEGACY)
    const floor: Target = {
      ...listTasks(proxy.url, 'none', tasklist, MODERN),
      url: `${proxy.url}/mcp`,
    }
    // The same list through the Google profile: Google's path on the sandbox's Google origin.
    const googleDirect: Target = {
      ...direct,
      url: `${sandbox.googleUrl}/tasks/v1/lists/${tasklist}/tasks`,
    }
    const googleCall = listTasks(google.url, google.token, tasklist, MODERN)
    for (const target of [direct, bare, modern, legacy, floor, googleDirect, googleCall])
      await once(target)
    // Memory just after those calls, and idle: a replica that has served nothing for a while,
    // once V8's memory reducer (which starts about 8 s after the last collection) has given back
    // what the start and the first calls took.
    await sleep(1000)
    const afterCalls = rssMb(connector.pid)
    await sleep(REST_SECONDS * 1000 - 1000)
    const idle = rssMb(connector.pid)
    let loaded = idle
    const sampler = setInterval(() => (loaded = Math.max(loaded, rssMb(connector.pid))), 100)
    const times = {
      direct: [] as number[],
      modern: [] as number[],
      legacy: [] as number[],
      bare: [] as number[],
      floor: [] as number[],
      googleDirect: [] as number[],
      google: [] as number[],
    }
    const rates = { direct: 0, modern: 0, legacy: 0, bare: 0, floor: 0 }
    const cpu = { sandboxDirect: 0, sandboxCall: 0, connectorCall: 0, floorCall: 0 }
    try {
      // Warm-up under load: cold, the connector's path runs at a third of its speed (the JIT has
      // not compiled it yet), and so does the sandbox's; a few seconds of each settles both.
      for (let round = 0; round < WARMUP_ROUNDS; round++)
        for (const target of [direct, bare, modern, legacy, floor, googleDirect, googleCall])
          await load(target, CONNECTIONS, SECONDS)

      // Latency: one request at a time, interleaved so that drift hits them all alike.
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const d = await timed(() => once(direct))
        const m = await timed(() => once(modern))
        const l = await timed(() => once(legacy))
        const b = await timed(() => once(bare))
        const f = await timed(() => once(floor))
        const gd = await timed(() => once(googleDirect))
        const g = await timed(() => once(googleCall))
        if (i < WARMUP) continue
        times.direct.push(d)
        times.modern.push(m)
        times.legacy.push(l)
        times.bare.push(b)
        times.floor.push(f)
        times.googleDirect.push(gd)
        times.google.push(g)
      }

      // Throughput at the same concurrency, alternating, while sampling the connector's memory;
      // with the CPU time each process spent per request, which says where the time goes.
      // The gateway is the connector, or for the floor the process that serves it.
      const measured = async (target: Target, onto: 'direct' | 'modern' | 'floor') => {
        const gateway = onto === 'floor' ? proxy.pid : connector.pid
        const before = [cpuMs(sandbox.pid), cpuMs(gateway)] as const
        const rate = await load(target, CONNECTIONS, SECONDS)
        const requests = rate * SECONDS
        const [sandboxMs, gatewayMs] = [cpuMs(sandbox.pid) - before[0], cpuMs(gateway) - before[1]]
        if (onto === 'direct') cpu.sandboxDirect += sandboxMs / requests / ROUNDS
        else if (onto === 'floor') cpu.floorCall += gatewayMs / requests / ROUNDS
        else {
          cpu.sandboxCall += sandboxMs / requests / ROUNDS
          cpu.connectorCall += gatewayMs / requests / ROUNDS
        }
        rates[onto] += rate / ROUNDS
      }
      for (let round = 0; round < ROUNDS; round++) {
        await measured(direct, 'direct')
        await measured(modern, 'modern')
        rates.legacy += (await load(legacy, CONNECTIONS, SECONDS)) / ROUNDS
        rates.bare += (await load(bare, CONNECTIONS, SECONDS)) / ROUNDS
        await measured(floor, 'floor')
      }
    } finally {
      clearInterval(sampler)
    }

    await sleep(REST_SECONDS * 1000)
    await emitIdleHeap(connector.pid, connector.url, heapFolder(dataDir), runtime?.suffix)

    if (runtime) {
      // On another runtime, the figures it is measured for (docs/performance.md, "The
      // figures"), and their parts.
      const figure = (name: string, value: number, unit: string) =>
        emit(`${name}${runtime.suffix}`, value, unit)
      figure('connector_own_work_ms', p50(times.modern) - p50(times.floor), 'ms')
      figure('throughput_ratio', rates.modern / rates.direct, 'ratio')
      figure('overhead_p50_ms', p50(times.modern) - p50(times.direct), 'ms')
      figure('mcp_floor_overhead_p50_ms', p50(times.floor) - p50(times.direct), 'ms')
      figure('mcp_floor_throughput_ratio', rates.floor / rates.direct, 'ratio')
      figure('connector_cpu_ms_per_call', cpu.connectorCall, 'ms')
      figure('mcp_floor_cpu_ms_per_call', cpu.floorCall, 'ms')
      figure('rss_mb_idle', idle, 'MB')
      figure('rss_mb_loaded', loaded, 'MB')
      return
    }
    emit('overhead_p50_ms', p50(times.modern) - p50(times.direct), 'ms')
    emit('mcp_floor_overhead_p50_ms', p50(times.floor) - p50(times.direct), 'ms')
    // The connector's own work: what it adds over the SDK's handler making the same GET.
    emit('connector_own_work_ms', p50(times.modern) - p50(times.floor), 'ms')
    emit('throughput_ratio', rates.modern / rates.direct, 'ratio')
    emit('rss_mb_idle', idle, 'MB')
    emit('rss_mb_loaded', loaded, 'MB')
    emit('rss_mb_after_calls', afterCalls, 'MB')
    emit('upstream_direct_p50_ms', p50(times.direct), 'ms')
    emit('tool_call_p50_ms', p50(times.modern), 'ms')
    emit('upstream_direct_rps', rates.direct, 'req/s')
    emit('tool_calls_rps', rates.modern, 'req/s')
    emit('bare_proxy_throughput_ratio', rates.bare / rates.direct, 'ratio')
    emit('bare_proxy_overhead_p50_ms', p50(times.bare) - p50(times.direct), 'ms')
    emit('mcp_floor_throughput_ratio', rates.floor / rates.direct, 'ratio')
    emit('connector_cpu_ms_per_call', cpu.connectorCall, 'ms')
    // The floor's process making the same GET through the SDK's handler, under the same load.
    emit('mcp_floor_cpu_ms_per_call', cpu.floorCall, 'ms')
    emit('sandbox_cpu_ms_per_call', cpu.sandboxCall, 'ms')
    emit('sandbox_cpu_ms_per_direct_request', cpu.sandboxDirect, 'ms')
    emit('overhead_p50_ms_2025_11_25', p50(times.legacy) - p50(times.direct), 'ms')
    emit('google_overhead_p50_ms', p50(times.google) - p50(times.googleDirect), 'ms')
    emit('google_upstream_direct_p50_ms', p50(times.googleDirect), 'ms')
    emit('throughput_ratio_2025_11_25', rates.legacy / rates.direct, 'ratio')
  } finally {
    await Promise.all(children.map(stopProcess))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** A `tools/call` of list_tasks as a client of `revision` sends it. */
function listTasks(base: string, token: string, tasklist: string, revision: Revision): Target {
  return toolCall({
    url: `${base}/tasks/mcp`,
    tool: 'list_tasks',
    args: { tasklist },
    revision,
    token,
    // A success with the whole page: not an error result, not a JSON-RPC error.
    ok: (body) =>
      body.includes('"structuredContent"') &&
      !body.includes('"isError":true') &&
      countTasks(body) === TASKS,
  })
}

/**
 * The tasks in an answer: its `"kind":"tasks#task"`. A tool result holds the page twice, but in
 * its text copy the quote is escaped (`tasks#task\"`), so each task counts once there too.
 */
const countTasks = (body: string) => body.split('tasks#task"').length - 1

/** A list of 20 tasks of the person's, made through the provider's API. */
async function seedTasks(sandboxUrl: string): Promise<string> {
  return seedTaskList(sandboxUrl, await providerToken(sandboxUrl, USER), 'Bench', TASKS)
}

/**
 * The connectors' limit on tool calls per grant and the Tasks project's daily quota: the bench
 * drives thousands of calls a second on one grant, far beyond the default 120 a minute, and on a
 * quiet machine beyond the 50,000 queries of a day, which one person's fair share would then
 * refuse.
 */
const BENCH_LIMITS = {
  RATE_LIMIT_TOOL_CALLS_PER_MINUTE: UNREACHED_PER_MINUTE,
  QUOTA_TASKS_QUERIES_PER_DAY: UNREACHED_PER_DAY,
}

/**
 * The sandbox and the connector in child processes, compiled, as `npm run sandbox` and
 * `countersign start` run them (data in `dataDir`), and the OAuth flow against them.
 */
export async function startStack(children: ChildProcess[], dataDir: string, command?: string) {
  const [sandboxPort, connectorPort] = [await freePort(), await freePort()]
  const googlePort = await freePort()
  const started = await startChild(
    children,
    COMPILED.sandbox,
    sandboxPort,
    {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_GOOGLE_PORT: String(googlePort),
      DATA_DIR: dataDir,
    },
    command,
  )
  // Thousands of calls a minute on one project and person: Google's quotas are lifted.
  await liftSandboxQuotas(started.url)
  const sandbox = { ...started, googleUrl: `http://127.0.0.1:${googlePort}` }
  const connector = await startChild(
    children,
    COMPILED.connector,
    connectorPort,
    {
      SANDBOX_PORT: String(sandboxPort),
      PORT: String(connectorPort),
      DATA_DIR: dataDir,
      VAULT_KEY: randomBytes(32).toString('base64'),
      ...BENCH_LIMITS,
    },
    command,
  )
  const flow = new AuthorizationFlow({ url: connector.url, sandbox: { url: sandbox.url } })
  return { sandbox, connector, flow }
}

/**
 * A second connector, in the Google profile against the sandbox's Google origin (configured as an
 * operator configures a provider), and a token of the bench's person through its OAuth flow.
 */
async function startGoogleConnector(
  children: ChildProcess[],
  dataDir: string,
  sandbox: { url: string; googleUrl: string },
  command?: string,
) {
  const port = await freePort()
  const connector = await startChild(
    children,
    COMPILED.connector,
    port,
    {
      ...upstreamEnvironment(googleSandboxUpstream(sandbox.googleUrl)),
      PORT: String(port),
      DATA_DIR: join(dataDir, 'google'),
      VAULT_KEY: randomBytes(32).toString('base64'),
      ...BENCH_LIMITS,
    },
    command,
  )
  const flow = new AuthorizationFlow({ url: connector.url, sandbox })
  const { tokens } = await flow.connect({ service: 'tasks', person: flow.person(USER) })
  return { url: connector.url, token: tokens.access_token }
}

/** Where a connector with its data in `dataDir` writes a heap snapshot the bench asks for. */
const heapFolder = (dataDir: string) => join(dataDir, 'heap')

/**
 * A program in a child process, with production logging unless LOG_LEVEL says otherwise. A
 * connector serves its metrics, as in production, on a free port of its own (the default 9464
 * would be taken by the first of several).
 */
async function startChild(
  children: ChildProcess[],
  program: readonly string[],
  port: number,
  env: Record<string, string>,
  /** Another Node's binary (bench/runtime.ts) in place of this process's. */
  command?: string,
) {
  const connector = program === COMPILED.connector
  // BENCH_CPU_PROFILE=<folder>: a CPU profile of the connector, to see where its time goes.
  const profile = process.env.BENCH_CPU_PROFILE
  const nodeFlags = connector ? heapSnapshotFlags(heapFolder(env.DATA_DIR!)) : []
  if (profile && connector) nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${profile}`)
  const metrics: Record<string, string> = connector
    ? { METRICS_PORT: String(await freePort()) }
    : {}
  return startProcess(
    children,
    program,
    port,
    { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', ...metrics, ...env },
    { nodeFlags, ...(command && { command }) },
  )
}
