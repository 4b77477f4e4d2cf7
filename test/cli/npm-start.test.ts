import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freePort,
  loggedModules,
  mcpPingWithoutToken,
  moduleLog,
} from '@countersign/connector/testing'

/**
 * `npm start`, as the README's quick start runs it, on ports and a data folder of its own: the
 * compiled development launcher (`npm ci` built it; `npm test` builds first) starts the sandbox and
 * the connector, prints the MCP URLs, and both serve. Its processes load compiled JavaScript only.
 */

const ROOT = resolve(import.meta.dirname, '../..')

/** What an operator's shell might hold that would change where or how it runs. */
const SETTINGS = ['DATABASE_URL', 'VAULT_KEY', 'DATA_DIR', 'HOST', 'PUBLIC_URL', 'SANDBOX']

let npm: ChildProcess
let output = ''
let dataDir: string
let log: string
const ports = { connector: 0, sandbox: 0, google: 0 }
const url = (port: number) => `http://127.0.0.1:${port}`

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-npm-start-'))
  log = join(dataDir, 'modules.log')
  for (const name of ['connector', 'sandbox', 'google'] as const) ports[name] = await freePort()
  const inherited = Object.entries(process.env).filter(
    ([name]) => !SETTINGS.includes(name) && !name.startsWith('UPSTREAM_'),
  )
  npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...Object.fromEntries(inherited),
      ...moduleLog(log),
      PORT: String(ports.connector),
      SANDBOX_PORT: String(ports.sandbox),
      SANDBOX_GOOGLE_PORT: String(ports.google),
      DATA_DIR: join(dataDir, 'data'),
    },
    // Its own process group: npm, the shell it runs the script in, and the launcher.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  for (let waited = 0; waited < 30_000 && npm.exitCode === null; waited += 100) {
    if (output.includes('analytics MCP:')) return
    await sleep(100)
  }
  throw new Error(`npm start did not start:\n${output}`)
}, 60_000)

afterAll(async () => {
  if (npm?.exitCode === null) {
    const exited = new Promise((done) => npm.once('exit', done))
    process.kill(-npm.pid!, 'SIGTERM')
    await exited
  }
  await rm(dataDir, { recursive: true, force: true })
})

describe('npm start', () => {
  it('prints the three MCP URLs and the sandbox address', () => {
    const connector = url(ports.connector)
    expect(output).toContain(`tasks MCP:     ${connector}/tasks/mcp`)
    expect(output).toContain(`search MCP:    ${connector}/search/mcp`)
    expect(output).toContain(`analytics MCP: ${connector}/analytics/mcp`)
    expect(output).toContain(`sandbox provider: ${url(ports.sandbox)}`)
  })

  it('serves: both /healthz answer 200, and MCP without a token gets 401', async () => {
    for (const port of [ports.connector, ports.sandbox]) {
      const res = await fetch(`${url(port)}/healthz`)
      expect(res.status, url(port)).toBe(200)
    }
    const res = await mcpPingWithoutToken(url(ports.connector))
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=')
  })

  it('runs the compiled programs: the launcher and both packages from dist/, no .ts, no tsx', () => {
    const files = loggedModules(log).filter((module) => module.startsWith(sep))
    expect(files).toContain(join(ROOT, 'dev/dist/start.js'))
    expect(files).toContain(join(ROOT, 'packages/connector/dist/index.js'))
    expect(files).toContain(join(ROOT, 'packages/sandbox/dist/index.js'))
    expect(files.filter((file) => /\.[cm]?tsx?$/.test(file))).toEqual([])
    expect(files.filter((file) => /[\\/](tsx|esbuild|@esbuild)[\\/]/.test(file))).toEqual([])
  })
})

describe('npm start where a port is taken', () => {
  /** The launcher again, with the ports of the one running where `taken` says: its exit and words. */
  async function startBeside(taken: 'connector' | 'sandbox' | 'google') {
    const mine = {
      connector: await freePort(),
      sandbox: await freePort(),
      google: await freePort(),
    }
    const env = { ...mine, [taken]: ports[taken] }
    const launcher = spawn(process.execPath, [join(ROOT, 'dev/dist/start.js')], {
      cwd: dataDir,
      env: {
        PATH: process.env.PATH,
        PORT: String(env.connector),
        SANDBOX_PORT: String(env.sandbox),
        SANDBOX_GOOGLE_PORT: String(env.google),
        METRICS_PORT: '0',
        DATA_DIR: join(dataDir, `beside-${taken}`),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let errors = ''
    launcher.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    const code = await new Promise<number | null>((done) => launcher.once('exit', done))
    const lines = errors.split('\n').filter((line) => line && !line.includes('WARNING'))
    return { code, lines }
  }

  it.each([
    ['connector', 'PORT'],
    ['sandbox', 'SANDBOX_PORT'],
    ['google', 'SANDBOX_GOOGLE_PORT'],
  ] as const)('the %s port: one line naming %s, and exit 1', async (taken, variable) => {
    const { code, lines } = await startBeside(taken)
    expect(code).toBe(1)
    expect(lines).toEqual([
      `${variable} ${ports[taken]} is already in use on 127.0.0.1: set ${variable} to a free port.`,
    ])
  })
})
