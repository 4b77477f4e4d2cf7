import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { UpstreamConfig } from '../../src/config/config.js'

/**
 * A program in its own Node process, as `npm start`, `countersign start` and `npm run sandbox` run
 * them, for the tests and benchmarks that need separate processes. Paths are from the repository
 * root, where the tests and benchmarks run.
 */

/** The programs, each as a script and its arguments. */
export const PROGRAMS = {
  /** `npm start`: the development launcher, the sandbox and the connector. */
  launcher: ['dev/start.ts'],
  /** `countersign start`: the connector alone, as in production. */
  connector: ['packages/connector/src/cli/main.ts', 'start'],
  /** `npm run sandbox`. */
  sandbox: ['packages/sandbox/src/cli/main.ts'],
} as const

export interface StartedProcess {
  /** http://127.0.0.1:<port> */
  url: string
  pid: number
  child: ChildProcess
}

export interface ProcessOptions {
  /** Node flags before the script (a CPU profile, say). */
  nodeFlags?: string[]
}

/**
 * Starts `program` (a script and its arguments: one of PROGRAMS, or another) with `env` over the
 * parent's environment; resolves once /healthz answers on `port`. Its metrics are off
 * (METRICS_PORT=0) unless `env` gives it a METRICS_PORT: several connectors on one machine
 * would all take the default port 9464.
 */
export async function startProcess(
  children: ChildProcess[],
  program: readonly string[],
  port: number,
  env: Record<string, string>,
  { nodeFlags = [] }: ProcessOptions = {},
): Promise<StartedProcess> {
  const command = program.join(' ')
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...program], {
    env: { ...process.env, METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.push(child)
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const url = `http://127.0.0.1:${port}`
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (child.exitCode !== null) break
    const ok = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) return { url, pid: child.pid!, child }
    await sleep(100)
  }
  child.kill('SIGKILL')
  throw new Error(`${command} did not start: ${stderr}`)
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** The UPSTREAM_* variables that configure `upstream`, as an operator would set them. */
export function upstreamEnvironment(upstream: UpstreamConfig): Record<string, string> {
  return {
    UPSTREAM_PROFILE: upstream.profile,
    UPSTREAM_AUTHORIZATION_URL: upstream.authorizationUrl,
    UPSTREAM_TOKEN_URL: upstream.tokenUrl,
    UPSTREAM_REVOCATION_URL: upstream.revocationUrl,
    UPSTREAM_USERINFO_URL: upstream.userinfoUrl,
    UPSTREAM_CLIENT_ID: upstream.clientId,
    UPSTREAM_CLIENT_SECRET: upstream.clientSecret,
    UPSTREAM_SCOPE_PREFIX: upstream.scopePrefix,
    UPSTREAM_TASKS_URL: upstream.apiBase.tasks,
    UPSTREAM_SEARCH_URL: upstream.apiBase.search,
    UPSTREAM_ANALYTICS_URL: upstream.apiBase.analytics,
  }
}
