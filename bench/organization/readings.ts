import type { ReplicaSet } from '@countersign/connector/testing'
import { cpuMs, rssMb } from '../processes.js'

/**
 * What the replicas' processes say of themselves: the statements each sent to PostgreSQL (its
 * `/metrics`), the CPU time it used and its resident memory (Linux's /proc).
 */

export interface Reading {
  statements: number
  cpuMs: number
}

/** Every replica's statements so far and CPU time so far, added up. */
export async function readReplicas(replicas: ReplicaSet): Promise<Reading> {
  let statements = 0
  let cpu = 0
  for (const { metricsUrl, pid } of replicas.processes) {
    statements += await statementsOf(metricsUrl!)
    cpu += cpuMs(pid)
  }
  return { statements, cpuMs: cpu }
}

/** The growth between two readings. */
export const since = (before: Reading, after: Reading): Reading => ({
  statements: after.statements - before.statements,
  cpuMs: after.cpuMs - before.cpuMs,
})

async function statementsOf(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text()
  const line = /^countersign_store_statements_total (\S+)$/m.exec(text)
  if (!line) throw new Error(`${metricsUrl} has no countersign_store_statements_total`)
  return Number(line[1])
}

/** The largest resident memory of the replicas, in MB. */
export function largestRssMb(replicas: ReplicaSet): number {
  return Math.max(...replicas.processes.map(({ pid }) => rssMb(pid)))
}
