import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { UpstreamConfig } from '../../src/config/config.js'

/**
 * A program in its own Node process, as `npm start`, `countersign start` and `npm run sandbox` run
 * them, for the tests and benchmarks that need separate processes. Paths are from the repository
 * root, where the tests and benchmarks run.
 */

/**
 * Node's flags that run a program from its TypeScript sources: tsx, and the workspace packages'
 * `@countersign/source` export condition, so that a package's entry is its `src/` too. A test
 * then runs the code as it is, never a `dist/` left by an earlier build.
 */
export const FROM_SOURCES = ['--conditions=@countersign/source', '--import', 'tsx'] as const

/** The programs from their sources, each as Node's arguments: what the tests run. */
export const PROGRAMS = {
  /** `npm start`: the development launcher, the sandbox and the connector. */
  launcher: [...FROM_SOURCES, 'dev/start.ts'],
  /** `countersign start`: the connector alone, as in production. */
  connector: [...FROM_SOURCES, 'packages/connector/src/cli/main.ts', 'start'],
  /** `npm run sandbox`. */
  sandbox: [...FROM_SOURCES, 'packages/sandbox/src/cli/main.ts'],
} as const

/** The `countersign` command, from the repository root. */
export const COUNTERSIGN_BIN = 'packages/connector/bin/countersign.js'

/**
 * The Node flags on the `countersign` bin's first line (`#!/usr/bin/env -S node <flags>`): the
 * heap settings production runs with, which a run through this process's own Node must repeat.
 */
export function binNodeFlags(): string[] {
  const bin = fileURLToPath(new URL(`../../../../${COUNTERSIGN_BIN}`, import.meta.url))
  const [shebang = ''] = readFileSync(bin, 'utf8').split('\n', 1)
  const match = /^#!\/usr\/bin\/env -S node((?: --[\w-]+=\S+)*)$/.exec(shebang)
  if (!match) throw new Error(`${COUNTERSIGN_BIN}: unexpected first line ${shebang}`)
  return match[1]!.split(' ').filter(Boolean)
}

/**
 * The same programs compiled (`npm run build`, which `npm ci`, `npm test` and `npm run bench` run
 * first), as production runs them: for what is about the compiled program itself, its start and
 * its memory.
 */
export const COMPILED = {
  /** `npm start`. */
  launcher: ['dev/dist/start.js'],
  /** `countersign start` (the connector package's `bin`), with the Node flags of its first line. */
  connector: [...binNodeFlags(), COUNTERSIGN_BIN, 'start'],
  /** `npm run sandbox`. */
  sandbox: ['packages/sandbox/dist/cli/main.js'],
} as const

export interface StartedProcess {
  /** http://127.0.0.1:<port> */
  url: string
  pid: number
  child: ChildProcess
}

export interface ProcessOptions {
  /** Node flags before the program's own (a CPU profile, say). */
  nodeFlags?: string[]
  /** An executable to run with `program` as its arguments, in place of this process's Node. */
  command?: string
}

/**
 * Starts `program` (Node's arguments: one of PROGRAMS or COMPILED, or another script) with `env`
 * over the parent's environment; resolves once /healthz answers on `port`. Its metrics are off
 * (METRICS_PORT=0) unless `env` gives it a METRICS_PORT: several connectors on one machine
 * would all take the default port 9464.
 */
export async function startProcess(
  children: ChildProcess[],
  program: readonly string[],
  port: number,
  env: Record<string, string>,
  { nodeFlags = [], command = process.execPath }: ProcessOptions = {},
): Promise<StartedProcess> {
  const child = spawn(command, [...nodeFlags, ...program], {
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
  throw new Error(`${[command, ...program].join(' ')} did not start: ${stderr}`)
}

/** A JSON-RPC `ping` to the `tasks` MCP endpoint of the connector at `base`, without a token. */
export function mcpPingWithoutToken(base: string): Promise<Response> {
  return fetch(`${base}/tasks/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })
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
    UPSTREAM_ANALYTICS_ADMIN_URL: upstream.apiBase.analyticsAdmin,
  }
}

/**
 * The environment that makes a Node process, and each Node process it starts, append the URL of
 * every module its loader loads to `file` (module-log.mjs): the ES modules, and the CommonJS ones
 * they import (on Node 20, not what those `require` in turn).
 */
export function moduleLog(file: string): Record<string, string> {
  const logger = fileURLToPath(new URL('module-log.mjs', import.meta.url))
  return { NODE_OPTIONS: `--import=${pathToFileURL(logger).href}`, COUNTERSIGN_MODULE_LOG: file }
}

/** The modules `moduleLog` recorded in `file`, as paths (or URLs, for builtins), once each. */
export function loggedModules(file: string): string[] {
  const urls = new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))
  return [...urls].map((url) => (url.startsWith('file:') ? fileURLToPath(url) : url))
}

/** The processes whose parent is `pid`, by their command line (Linux: from /proc). */
export function childProcesses(pid: number): string[] {
  const children: string[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent !== pid) continue
      children.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim())
    } catch {
      // The process ended meanwhile.
    }
  }
  return children
}

/** Whether the process `pid` is still there. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
