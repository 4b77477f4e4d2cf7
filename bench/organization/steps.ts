import { TOOL_CALL_STEPS, type ReplicaSet } from '@countersign/connector/testing'
import { cpuMs } from '../processes.js'
import { emit } from '../stats.js'
import { approvedCreate, type Member } from './calls.js'
import { batch } from './latency.js'

/** Reads measured, one at a time, and changes after them. */
const READS = 400
const CHANGES = 20

/**
 * What each step of a tool call costs (METRICS_TOOL_STEPS=1; src/mcp/steps/order.ts): the
 * replicas restarted with the steps counted, warmed up, reads one at a time so that each step's
 * CPU time is its own, then changes approved in the client; each step's CPU time a read, and the PostgreSQL
 * statements it sends a read and a change. `suffix` tells one node from an organization. The
 * replicas are restarted without the count after.
 */
export async function measureSteps(
  replicas: ReplicaSet,
  base: string,
  people: readonly Member[],
  suffix: string,
): Promise<void> {
  await replicas.restart({ METRICS_TOOL_STEPS: '1' })
  try {
    let turn = 0
    const next = () => people[turn++ % people.length]!.read
    // Warmed up until every replica has served every person (the front takes turns): what a
    // replica reads once of a person a day (their count of the quota) is not a read's cost.
    await batch(next, 1, Math.max(READS, people.length * replicas.processes.length))
    const before = await stepReadings(replicas)
    const cpuBefore = replicasCpuMs(replicas)
    await batch(next, 1, READS)
    const cpuOfReads = replicasCpuMs(replicas) - cpuBefore
    const reads = since(before, await stepReadings(replicas))
    const changes = await Promise.all(
      people
        .slice(0, CHANGES)
        .map((person, i) => approvedCreate(base, person, `Step-measured change ${i}`)),
    )
    const beforeChanges = await stepReadings(replicas)
    for (const change of changes) {
      const outcome = await change.send()
      if (outcome !== 'ok') throw new Error(`a change measured by step ended ${outcome}`)
    }
    const changed = since(beforeChanges, await stepReadings(replicas))
    // What a call sends outside its steps: the request's authentication, and what runs beside.
    const inSteps = (readings: StepReadings) =>
      Object.values(readings.statements).reduce((sum, value) => sum + value, 0)
    emit(
      `step_statements_read_outside${suffix}`,
      (reads.total - inSteps(reads)) / READS,
      'statements',
    )
    // And the CPU time: the replicas' whole (from /proc, by 10 ms ticks) less their steps'. It
    // is the HTTP exchange with the client, the authentication and the SDK's protocol handling.
    const stepsCpu = Object.values(reads.cpu).reduce((sum, value) => sum + value, 0)
    emit(
      `step_cpu_us_read_outside${suffix}`,
      Math.max(0, (cpuOfReads * 1e3 - stepsCpu * 1e6) / READS),
      'µs',
    )
    emit(
      `step_statements_change_outside${suffix}`,
      (changed.total - inSteps(changed)) / changes.length,
      'statements',
    )
    for (const { name } of TOOL_CALL_STEPS) {
      emit(`step_cpu_us_read_${name}${suffix}`, ((reads.cpu[name] ?? 0) * 1e6) / READS, 'µs')
      if (reads.mainThread[name] !== undefined)
        emit(
          `step_main_thread_cpu_us_read_${name}${suffix}`,
          (reads.mainThread[name] * 1e6) / READS,
          'µs',
        )
      emit(
        `step_statements_read_${name}${suffix}`,
        (reads.statements[name] ?? 0) / READS,
        'statements',
      )
      emit(
        `step_statements_change_${name}${suffix}`,
        (changed.statements[name] ?? 0) / changes.length,
        'statements',
      )
    }
  } finally {
    await replicas.restart({ METRICS_TOOL_STEPS: '0' })
  }
}

interface StepReadings {
  cpu: Record<string, number>
  /** The main thread's part, where the runtime tells it (Node 24). */
  mainThread: Record<string, number>
  statements: Record<string, number>
  /** Every statement the replicas sent, in the steps or not. */
  total: number
}

/** The CPU time the replicas have used, in ms. */
const replicasCpuMs = (replicas: ReplicaSet) =>
  replicas.processes.reduce((sum, { pid }) => sum + cpuMs(pid), 0)

/** Every replica's step counters so far, added up by step. */
async function stepReadings(replicas: ReplicaSet): Promise<StepReadings> {
  const readings: StepReadings = { cpu: {}, mainThread: {}, statements: {}, total: 0 }
  for (const { metricsUrl } of replicas.processes) {
    const text = await (await fetch(metricsUrl!)).text()
    readings.total += Number(/^countersign_store_statements_total (\S+)$/m.exec(text)?.[1] ?? 0)
    add(readings.cpu, text, 'countersign_tool_step_cpu_seconds_total')
    add(readings.mainThread, text, 'countersign_tool_step_main_thread_cpu_seconds_total')
    add(readings.statements, text, 'countersign_tool_step_statements_total')
  }
  return readings
}

function add(into: Record<string, number>, text: string, metric: string) {
  const line = new RegExp(`^${metric}\\{step="([a-z-]+)"\\} (\\S+)$`, 'gm')
  for (const [, step, value] of text.matchAll(line))
    into[step!] = (into[step!] ?? 0) + Number(value)
}

function since(before: StepReadings, after: StepReadings): StepReadings {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.entries(a).map(([step, value]) => [step, value - (b[step] ?? 0)]))
  return {
    cpu: minus(after.cpu, before.cpu),
    mainThread: minus(after.mainThread, before.mainThread),
    statements: minus(after.statements, before.statements),
    total: after.total - before.total,
  }
}
