import type { Counter, Registry } from 'prom-client'
import type { StepMeter, StepReading } from '../mcp/steps/compose.js'
import { counterOf } from './built.js'
import { METRICS } from './declared.js'

/**
 * What each step of a tool call costs (METRICS_TOOL_STEPS=1; docs/operations.md, "Metrics"): its
 * own CPU time and the PostgreSQL statements it sent, without the steps it handed on to. Read
 * at concurrency 1 they are each step's; under load, the CPU time of calls running meanwhile is
 * spread over the steps that awaited. Off by default: a step then reads the CPU clock twice.
 * The MCP layer takes the readings around each step (packages/connector/src/mcp/steps/compose.ts).
 */
export class StepCosts implements StepMeter {
  readonly #cpu: Counter<'step'>
  readonly #mainThread: Counter<'step'> | undefined
  readonly #statements: Counter<'step'>
  readonly #runs: Counter<'step'>

  constructor(
    registry: Registry,
    /** The statements sent so far by this process: the store counts each. */
    readonly statementsSent: () => number,
  ) {
    this.#cpu = counterOf(METRICS.stepCpu, registry)
    // Where the runtime has it (Node 24): the main thread's part, so that what the collector and
    // the compiler do on their threads while a step awaits is told from the step's own work.
    this.#mainThread = threadCpuUsage ? counterOf(METRICS.stepMainThread, registry) : undefined
    this.#statements = counterOf(METRICS.stepStatements, registry)
    this.#runs = counterOf(METRICS.stepRuns, registry)
  }

  /** A reading to subtract from a later one. */
  read(): StepReading {
    const { user, system } = cpuUsage()
    const thread = threadCpuUsage?.()
    return {
      cpuMicros: user + system,
      mainThreadMicros: thread ? thread.user + thread.system : 0,
      statements: this.statementsSent(),
    }
  }

  add(step: string, own: StepReading): void {
    this.#cpu.inc({ step }, Math.max(0, own.cpuMicros) / 1e6)
    this.#mainThread?.inc({ step }, Math.max(0, own.mainThreadMicros) / 1e6)
    this.#statements.inc({ step }, Math.max(0, own.statements))
    this.#runs.inc({ step })
  }
}

/**
 * The process's CPU time, which counts the collector's and the thread pool's work while a step
 * awaits too. Not the main thread's alone (Node 24's `process.threadCpuUsage`): on Linux that
 * clock moves by whole scheduler ticks, hundreds of microseconds at a time, so a step shorter
 * than a tick would read nothing at all, or a tick. Summed over many calls, that clock still
 * tells the main thread's share, which is its own series.
 */
const cpuUsage = () => process.cpuUsage()
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(
  process,
)
