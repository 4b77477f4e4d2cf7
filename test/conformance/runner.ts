import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`), run as a separate
 * program: it needs Node >= 22, which `npx -p node@22` provides beside it.
 *
 * `installConformance()` runs npx once (it downloads both on a clean npm cache) and asks the
 * Node 22 it provides where it is and where the suite's program is; each scenario then runs that
 * program directly, which spares every run npx's own start (about 3 s, a registry look-up each)
 * and keeps parallel runs from racing to install into the same npx folder.
 */

/**
 * Pinned: the `latest` tag (0.1.16) has no scenario at the 2026-07-28 revision (stateless serving,
 * header validation); this prerelease has them, and a pin keeps CI from changing under us.
 */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12'

export interface Conformance {
  /** The Node 22 binary npx provided. */
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

/** Run inside npx's Node: where it is, and where the `conformance` bin on its PATH leads. */
const LOCATE = `
const { delimiter, dirname, join } = require('node:path')
const { existsSync, readFileSync, realpathSync } = require('node:fs')
const dir = (process.env.PATH || '').split(delimiter).find((d) => existsSync(join(d, 'conformance')))
const program = dir && realpathSync(join(dir, 'conformance'))
const version = program && JSON.parse(readFileSync(join(dirname(program), '..', 'package.json'), 'utf8')).version
console.log('CONFORMANCE ' + JSON.stringify({ node: process.execPath, version: process.version, program, programVersion: version }))
`

export async function installConformance(timeoutMs: number): Promise<Conformance> {
  // The `node` package installs its binary in an install step, which npm runs only when told
  // (npm 12; with npm 11, the project's strict-allow-scripts refuses it otherwise).
  const args = [
    '-y',
    '--allow-scripts=node',
    '-p',
    'node@22',
    '-p',
    CONFORMANCE_PACKAGE,
    '--',
    'node',
    '-e',
    LOCATE,
  ]
  const run = await runProgram('npx', args, timeoutMs)
  const line = run.output.split('\n').find((l) => l.startsWith('CONFORMANCE '))
  if (run.exitCode !== 0 || !line) {
    throw new Error(
      `npx could not provide Node 22 and ${CONFORMANCE_PACKAGE} ` +
        `(${run.timedOut ? `no answer in ${timeoutMs / 1000} s` : `exit code ${run.exitCode}`}):\n` +
        tail(run.output),
    )
  }
  const found = JSON.parse(line.slice('CONFORMANCE '.length))
  const pinned = CONFORMANCE_PACKAGE.slice(CONFORMANCE_PACKAGE.lastIndexOf('@') + 1)
  if (!/^v(2[2-9]|[3-9]\d)\./.test(found.version) || found.programVersion !== pinned) {
    throw new Error(
      `npx gave Node ${found.version} and conformance ${found.programVersion} at ${found.program}`,
    )
  }
  return { node: found.node, program: found.program, version: found.programVersion }
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
