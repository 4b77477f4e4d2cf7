import { Counter, type Registry } from 'prom-client'

/**
 * What each step of a tool call costs (METRICS_TOOL_STEPS=1; docs/operations.md, "Metrics"): its
 * own CPU time and the PostgreSQL statements it sent, without the steps it handed on to. Read
 * at concurrency 1 they are each step's; under load, the CPU time of calls running meanwhile is
 * spread over the steps that awaited. Off by default: a step then reads the CPU clock twice.
 */
export class StepCosts {
  readonly #cpu: Counter<'step'>
  readonly #statements: Counter<'step'>
  readonly #runs: Counter<'step'>

  constructor(
    registry: Registry,
    /** The statements sent so far by this process: the store counts each. */
    readonly statementsSent: () => number,
  ) {
    const registers = [registry]
    this.#cpu = new Counter({
      name: 'countersign_tool_step_cpu_seconds_total',
      help: 'CPU time of each step of the tool calls, its own, without the steps after it (METRICS_TOOL_STEPS=1).',
      labelNames: ['step'],
      registers,
    })
    this.#statements = new Counter({
      name: 'countersign_tool_step_statements_total',
      help: 'Statements each step of the tool calls sent to PostgreSQL, its own (METRICS_TOOL_STEPS=1).',
      labelNames: ['step'],
      registers,
    })
    this.#runs = new Counter({
      name: 'countersign_tool_step_runs_total',
      help: 'Times each step of the tool calls ran (METRICS_TOOL_STEPS=1).',
      labelNames: ['step'],
      registers,
    })
  }

  /** A reading to subtract from a later one. */
  read(): StepReading {
    const { user, system } = cpuUsage()
    return { cpuMicros: user + system, statements: this.statementsSent() }
  }

  add(step: string, own: StepReading): void {
    this.#cpu.inc({ step }, Math.max(0, own.cpuMicros) / 1e6)
    this.#statements.inc({ step }, Math.max(0, own.statements))
    this.#runs.inc({ step })
  }
}

/**
 * The process's CPU time, which counts the collector's and the thread pool's work while a step
 * awaits too. Not the main thread's alone (Node 24's `process.threadCpuUsage`): on Linux that
 * clock moves by whole scheduler ticks, hundreds of microseconds at a time, so a step shorter
 * than a tick would read nothing at all, or a tick.
 */
const cpuUsage = () => process.cpuUsage()

export interface StepReading {
  cpuMicros: number
  statements: number
}

export const between = (from: StepReading, to: StepReading): StepReading => ({
  cpuMicros: to.cpuMicros - from.cpuMicros,
  statements: to.statements - from.statements,
})
