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
import { testProfile, upstreamOf } from './connector.js'
import { freePort, PROGRAMS, startProcess, stopProcess, upstreamEnvironment } from './processes.js'
import type { StoreLocation } from './engines.js'

/**
 * Several connector processes on one database behind one public URL, as a deployment runs them
 * (docs/design.md, "MCP endpoints": no request may depend on reaching the replica that served an
 * earlier one): each replica is `npm start` in a child process (SANDBOX=0, the same VAULT_KEY and
 * PUBLIC_URL; under the Google profile, UPSTREAM_* naming the sandbox's Google origin, as an
 * operator would name a provider), and a front in this process hands every request to the next
 * replica in turn - strictly alternating, whatever the client, the browser or the page.
 *
 *   const it = replicasForSuite(() => engine.location())
 *   const flow = it.flow  // the OAuth flow and people, against the front
 */

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

export function replicasForSuite(
  location: () => Promise<StoreLocation>,
  count = 2,
  profile = testProfile(),
  /** More environment for every replica (lower rate limits, say). */
  env: Record<string, string> = {},
): Replicas {
  const children: ChildProcess[] = []
  const served = Array<number>(count).fill(0)
  let sandbox: RunningSandbox | undefined
  let front: Server | undefined
  let url = ''
  let dataDir: string | undefined
  let pinned: number | undefined
  const stopped = new Set<number>()

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dataDir: ':memory:' })
    const { databaseUrl } = await location()
    if (!databaseUrl) throw new Error('replicas share a PostgreSQL database')
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-replicas-'))
    const ports: number[] = []
    let next = 0
    const nextInTurn = () => {
      for (;;) {
        const replica = next++ % count
        if (!stopped.has(replica) || stopped.size === count) return replica
      }
    }
    front = createServer((req, res) => {
      const replica = pinned ?? nextInTurn()
      // The Host header goes as it came: the replicas check it against the public URL.
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
    await new Promise<void>((resolve) => front!.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
    const vaultKey = randomBytes(32).toString('base64')
    for (let i = 0; i < count; i++) {
      const port = await freePort()
      ports.push(port)
      await startProcess(children, PROGRAMS.connector, port, {
        SANDBOX_PUBLIC_URL: sandbox.url,
        ...(profile === 'google' && upstreamEnvironment(upstreamOf(sandbox, profile))),
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(dataDir, `replica-${i}`),
        VAULT_KEY: vaultKey,
        LOG_LEVEL: 'warn',
        ...env,
      })
    }
  }, 60_000)

  afterAll(async () => {
    await Promise.all(children.map(stopProcess))
    await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)))
    await sandbox?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const flow = new AuthorizationFlow({
    get url() {
      return url
    },
    get sandbox() {
      if (!sandbox) throw new Error('the replicas are not started yet')
      return sandbox
    },
  })
  return {
    profile,
    get url() {
      return url
    },
    get sandbox() {
      if (!sandbox) throw new Error('the replicas are not started yet')
      return sandbox
    },
    flow,
    served,
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
  }
}
