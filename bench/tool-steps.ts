import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join as joinPath } from 'node:path'
import {
  AuthorizationFlow,
  COMPILED,
  startReplicas,
  stopProcess,
  type ReplicaSet,
} from '@countersign/connector/testing'
import { benchDatabase, type BenchDatabase } from './organization/database.js'
import { join, organization } from './organization/people.js'
import { measureSteps } from './organization/steps.js'
import type { Runtime } from './runtime.js'
import { startCompiledSandbox } from './sandbox-process.js'
import { liftSandboxQuotas } from './sandbox-quotas.js'

/** People on the one node: enough that no grant's limit on calls is near. */
const PEOPLE = 20

/**
 * Each step of a tool call on one node (src/mcp/steps/order.ts): one compiled connector on a
 * PostgreSQL database of the bench's own, against the compiled sandbox, its people connected
 * through the real OAuth flow; `step_*` figures as organization.ts measures them at scale. On
 * `runtime` (Node 24), the connector runs there, and its figures carry the runtime's suffix.
 */
export async function benchToolSteps(runtime?: Runtime): Promise<void> {
  const children: ChildProcess[] = []
  const dataDir = mkdtempSync(joinPath(tmpdir(), 'countersign-bench-steps-'))
  let database: BenchDatabase | undefined
  let replicas: ReplicaSet | undefined
  try {
    database = await benchDatabase('countersign_bench_steps')
    const sandbox = await startCompiledSandbox(children, dataDir)
    await liftSandboxQuotas(sandbox.url)
    replicas = await startReplicas({
      databaseUrl: database.url,
      sandbox,
      count: 1,
      profile: 'generic',
      program: COMPILED.connector,
      metrics: true,
      env: { LOG_LEVEL: 'error', RATE_LIMIT_TOOL_CALLS_PER_MINUTE: '60000' },
      command: runtime?.node,
    })
    const flow = new AuthorizationFlow({ url: replicas.url, sandbox: { url: sandbox.url } })
    const org = await organization(flow, sandbox.url, ['Assistant'])
    const users = Array.from({ length: PEOPLE }, (_, i) => `steps-person-${i}`)
    await measureSteps(replicas, flow.url, await join(org, users), runtime?.suffix ?? '')
  } finally {
    await replicas?.close()
    await Promise.all(children.map(stopProcess))
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
