import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import { sqliteDriver } from '@countersign/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  binNodeFlags,
  childProcesses,
  COUNTERSIGN_BIN,
  freePort,
  loggedModules,
  mcpPingWithoutToken,
  moduleLog,
  startProcess,
  stopProcess,
  type StartedProcess,
} from '../support/processes.js'

/**
 * `countersign start` as production runs it: the compiled connector (`npm run build`, which
 * `npm ci` and `npm test` run first), through the command npm links for the package's `bin`. It
 * serves, and its process holds only JavaScript: no module from a `.ts` file, nothing of tsx or
 * esbuild (nor esbuild's service process beside it), nothing of the sandbox.
 */

const ROOT = resolve(import.meta.dirname, '../../../..')
const COUNTERSIGN = join(ROOT, 'node_modules/.bin/countersign')

const children: ChildProcess[] = []
let dataDir: string
let connector: StartedProcess
let log: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-compiled-'))
  log = join(dataDir, 'modules.log')
  const port = await freePort()
  connector = await startProcess(
    children,
    ['start'],
    port,
    {
      ...moduleLog(log),
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '', // SQLite in its own folder, whatever the environment says
      VAULT_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
    },
    { command: COUNTERSIGN },
  )
})

afterAll(async () => {
  await Promise.all(children.map(stopProcess))
  await rm(dataDir, { recursive: true, force: true })
})

describe('countersign start, compiled', () => {
  it('is ready: /healthz answers 200', async () => {
    const res = await fetch(`${connector.url}/healthz`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('serves MCP: a request without a token gets 401 naming the resource metadata', async () => {
    const res = await mcpPingWithoutToken(connector.url)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${connector.url}/.well-known/oauth-protected-resource/tasks/mcp"`,
    )
    // The authorization server, oidc-provider, serves its metadata.
    const metadata = await fetch(`${connector.url}/.well-known/oauth-authorization-server`)
    expect(((await metadata.json()) as { issuer: string }).issuer).toBe(connector.url)
  })

  it('runs compiled JavaScript only: no .ts, no tsx or esbuild, no sandbox module', () => {
    const files = loggedModules(log).filter((module) => module.startsWith(sep))
    const compiled = join(ROOT, 'packages/connector/dist', sep)
    expect(files).toContain(join(compiled, 'cli/main.js'))
    expect(files).toContain(join(compiled, 'connector/server.js'))
    expect(files).toContainEqual(expect.stringMatching(/node_modules[\\/]oidc-provider[\\/]/))
    expect(files.filter((file) => /\.[cm]?tsx?$/.test(file))).toEqual([])
    expect(files.filter((file) => /[\\/](tsx|esbuild|@esbuild)[\\/]/.test(file))).toEqual([])
    // Of the repository's own files, only the compiled ones of the connector and of the packages
    // it shares with the sandbox (SQLite, the environment's reading), and its `bin`: none of its
    // sources, none of the sandbox's.
    const ours = files.filter((file) => file.startsWith(join(ROOT, 'packages', sep)))
    const bin = join(ROOT, COUNTERSIGN_BIN)
    const allowed = [
      compiled,
      ...['sqlite', 'environment'].map((p) => join(ROOT, 'packages', p, 'dist', sep)),
    ]
    expect(
      ours.filter((file) => file !== bin && !allowed.some((folder) => file.startsWith(folder))),
    ).toEqual([])
  })

  it('loads the driver of its engine only: on SQLite, nothing of pg', () => {
    const files = loggedModules(log)
    // Node's own SQLite where the runtime has it, better-sqlite3 on Node 20 (packages/sqlite).
    const betterSqlite = files.filter((file) => /node_modules[\\/]better-sqlite3[\\/]/.test(file))
    if (sqliteDriver === 'better-sqlite3') expect(betterSqlite).not.toEqual([])
    else expect(betterSqlite).toEqual([])
    expect(files.filter((file) => /node_modules[\\/](pg|pg-pool)[\\/]/.test(file))).toEqual([])
  })

  it("runs Node with the heap settings of the command's first line", () => {
    // The command is a script whose `env -S` line starts Node: the process is that Node.
    const argv = readFileSync(`/proc/${connector.pid}/cmdline`, 'utf8').split('\0')
    expect(binNodeFlags()).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=50'])
    expect(argv.slice(1, 1 + binNodeFlags().length)).toEqual(binNodeFlags())
    expect(argv).toContain('start')
  })

  it('starts no other process (tsx would start esbuild beside it)', () => {
    expect(childProcesses(connector.pid)).toEqual([])
  })
})
