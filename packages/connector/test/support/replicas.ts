import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request as forward, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startSandbox, type RunningSandbox } from '@countersign/sandbox'
import type { ProfileName } from '../../src/services/profiles/index.js'
import { AuthorizationFlow } from './authorization-flow.js'
import { testProfile, upstreamOf, type SandboxOrigins } from './connector.js'
import { freePort, PROGRAMS, startProcess, stopProcess, upstreamEnvironment } from './processes.js'
import type { StoreLocation } from './engines.js'

/**
 * Several connector processes on one database behind one public URL, as a deployment runs them
 * (docs/design.md, "MCP endpoints": no request may depend on reaching the replica that served an
 * earlier one): each replica is `countersign start` (from the sources, or compiled for a bench)
 * in a child process (the same VAULT_KEY and PUBLIC_URL; under the Google profile, UPSTREAM_*
 * naming the sandbox's Google origin, as an operator would name a provider), and a front in this
 * process hands every request to the next replica in turn - strictly alternating, whatever the
 * client, the browser or the page.
 *
 *   const it = replicasForSuite(() => engine.location())        // in a test file
 *   const set = await startReplicas({ databaseUrl, sandbox })   // anywhere else; set.close()
 */

/** The replicas as a test file sees them: started before its tests, stopped after them. */
export interface Replicas {
  readonly profile: ProfileName
  /** The public URL: the front. */
  readonly url: string
  readonly sandbox: RunningSandbox
  readonly flow: AuthorizationFlow
  /** How many requests each replica answered with a status below 500. */
  readonly served: number[]
  /** From now on the front sends every request to replica `index` (undefined: alternate again). */
  pin(index: number | undefined): void
  /**
   * Sends replica `index` SIGTERM, as an orchestrator stopping it would, and takes it out of the
   * front's rotation; resolves with its exit code once it has exited.
   */
  terminate(index: number): Promise<number | null>
}

export interface ReplicaSetOptions {
  /** The PostgreSQL database the replicas share. */
  databaseUrl: string
  /** The sandbox they call, started by the caller. */
  sandbox: SandboxOrigins
  /** Two unless told. */
  count?: number
  profile?: ProfileName
  /** More environment for every replica (lower rate limits, say). */
  env?: Record<string, string>
  /** The Node that runs each replica, where not this process's (the bench's Node 24). */
  command?: string
  /** The connector as Node's arguments: from its sources (PROGRAMS.connector) unless told. */
  program?: readonly string[]
  /** Each replica serves /metrics on a port of its own (off unless told). */
  metrics?: boolean
}

/** One replica's process, as it runs now. */
export interface ReplicaProcess {
  /** Its own address, past the front. */
  readonly url: string
  readonly pid: number
  /** Its /metrics, when the set was started with `metrics`. */
  readonly metricsUrl: string | undefined
}

/** Started replicas and their front, as a plain object: stop them with `close`. */
export interface ReplicaSet extends Pick<Replicas, 'url' | 'served' | 'pin' | 'terminate'> {
  readonly profile: ProfileName
  /** The replicas' processes, by index (a restart changes their pids, not their ports). */
  readonly processes: readonly ReplicaProcess[]
  /**
   * Stops every replica and starts it again on its port, with `env` over the environment it was
   * started with: a change of configuration rolled out to all of them.
   */
  restart(env?: Record<string, string>): Promise<void>
  /** Stops the replicas, then the front; the caller's sandbox and database stay. */
  close(): Promise<void>
}

/**
 * Starts `count` replicas on `databaseUrl` and their front; resolves once every replica answers.
 * Whatever it started is stopped again when a replica fails to start.
 */
export async function startReplicas(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const { databaseUrl, sandbox, count = 2, profile = testProfile() } = options
  const program = options.program ?? PROGRAMS.connector
  const children: (ChildProcess | undefined)[] = []
  const processes: ReplicaProcess[] = []
  const served = Array<number>(count).fill(0)
  const stopped = new Set<number>()
  let pinned: number | undefined
  let env = { ...options.env }

  const ports = await Promise.all(Array.from({ length: count }, () => freePort()))
  const metricsPorts = options.metrics
    ? await Promise.all(Array.from({ length: count }, () => freePort()))
    : []
  let next = 0
  const nextInTurn = () => {
    for (;;) {
      const replica = next++ % count
      if (!stopped.has(replica) || stopped.size === count) return replica
    }
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-replicas-'))
  const front = frontServer(ports, served, () => pinned ?? nextInTurn())
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
  const vaultKey = randomBytes(32).toString('base64')

  const start = async (i: number) => {
    const started: ChildProcess[] = []
    try {
      const { pid } = await startProcess(
        started,
        program,
        ports[i]!,
        {
          SANDBOX_PUBLIC_URL: sandbox.url,
          ...(profile === 'google' && upstreamEnvironment(upstreamOf(sandbox, profile))),
          PORT: String(ports[i]),
          PUBLIC_URL: url,
          DATABASE_URL: databaseUrl,
          DATA_DIR: join(dataDir, `replica-${i}`),
          VAULT_KEY: vaultKey,
          LOG_LEVEL: 'warn',
          ...(options.metrics && { METRICS_PORT: String(metricsPorts[i]) }),
          ...env,
        },
        options.command ? { command: options.command } : {},
      )
      processes[i] = {
        url: `http://127.0.0.1:${ports[i]}`,
        pid,
        metricsUrl: options.metrics ? `http://127.0.0.1:${metricsPorts[i]}/metrics` : undefined,
      }
    } finally {
      // Stopped with the others, even when it never answered.
      children[i] = started[0]
    }
  }
  const stopAll = () => Promise.all(children.map((child) => child && stopProcess(child)))
  const close = async () => {
    await stopAll()
    await new Promise((resolve) => front.close(resolve))
    await rm(dataDir, { recursive: true, force: true })
  }

  try {
    for (let i = 0; i < count; i++) await start(i)
  } catch (error) {
    await close()
    throw error
  }
  return {
    profile,
    url,
    served,
    processes,
    pin(index) {
      pinned = index
    },
    terminate(index) {
      const child = children[index]!
      stopped.add(index)
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => resolve(code))
        child.kill('SIGTERM')
      })
    },
    async restart(more = {}) {
      await stopAll()
      env = { ...env, ...more }
      stopped.clear()
      for (let i = 0; i < count; i++) await start(i)
    },
    close,
  }
}

/**
 * The front: each request to the replica `pick` names, on `ports`; the Host header goes as it
 * came (the replicas check it against the public URL).
 */
function frontServer(ports: readonly number[], served: number[], pick: () => number): Server {
  return createServer((req, res) => {
    const replica = pick()
    const out = forward(
      {
        host: '127.0.0.1',
        port: ports[replica],
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        // Served: the replica's own answer came back, and not a failure of its own.
        if (answer.statusCode !== undefined && answer.statusCode < 500) served[replica]! += 1
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
        answer.pipe(res)
      },
    )
    out.on('error', () => res.destroy())
    req.pipe(out)
  })
}

/** `startReplicas` for a test file: an in-memory sandbox, started before its tests. */
export function replicasForSuite(
  location: () => Promise<StoreLocation>,
  count = 2,
  profile = testProfile(),
  /** More environment for every replica (lower rate limits, say). */
  env: Record<string, string> = {},
): Replicas {
  let sandbox: RunningSandbox | undefined
  let set: ReplicaSet | undefined
  const started = () => {
    if (!set) throw new Error('the replicas are not started yet')
    return set
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dataDir: ':memory:' })
    const { databaseUrl } = await location()
    if (!databaseUrl) throw new Error('replicas share a PostgreSQL database')
    set = await startReplicas({ databaseUrl, sandbox, count, profile, env })
  }, 60_000)

  afterAll(async () => {
    await set?.close()
    await sandbox?.close()
  })

  const flow = new AuthorizationFlow({
    get url() {
      return set?.url ?? ''
    },
    get sandbox() {
      if (!sandbox) throw new Error('the replicas are not started yet')
      return sandbox
    },
  })
  return {
    profile,
    get url() {
      return set?.url ?? ''
    },
    get sandbox() {
      if (!sandbox) throw new Error('the replicas are not started yet')
      return sandbox
    },
    flow,
    get served() {
      return started().served
    },
    pin: (index) => started().pin(index),
    terminate: (index) => started().terminate(index),
  }
}
