import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  actOnNotification,
  AuthorizationFlow,
  COMPILED,
  mcpClientWithToken,
  notificationOf,
  pushedApproval,
  PushService,
  selfSignedCertificate,
  startReplicas,
  stopProcess,
  turnOnNotifications,
  type ReplicaSet,
  type TestDevice,
} from '@countersign/connector/testing'
import { benchDatabase, type BenchDatabase } from './organization/database.js'
import { providerToken, seedTaskList } from './provider.js'
import { startCompiledSandbox } from './sandbox-process.js'
import { emit, p50, percentile } from './stats.js'

/**
 * From the person's tap to the change made (docs/decisions.md, "The call that waits"): a
 * `create_task` from a client that cannot ask waits on one replica; the person's device is told
 * through a push service on loopback (which checks the signature and decrypts the message as a
 * device would); the device reads the change and the person taps Approve, which reaches the
 * other replica (or the same one), and the figure is the time from that tap's post to the
 * waiting call's answer with the task made at the provider.
 *
 *   approval_tap_to_change_ms{decided_on, stat}   p50 and p95, over ROUNDS changes each
 *
 * Two compiled replicas on the bench's own PostgreSQL database behind one front, the compiled
 * sandbox: every hop is a real one, the push service's included.
 */

const ROUNDS = 30
const USER = 'bench-tapper'

export async function benchTapToChange(): Promise<void> {
  const children: ChildProcess[] = []
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-tap-'))
  const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
  const caFile = join(dataDir, 'push-ca.pem')
  writeFileSync(caFile, tls.cert)
  const pushService = await new PushService(tls).start()
  let database: BenchDatabase | undefined
  let replicas: ReplicaSet | undefined
  try {
    database = await benchDatabase('countersign_bench_tap')
    const sandbox = await startCompiledSandbox(children, dataDir)
    replicas = await startReplicas({
      databaseUrl: database.url,
      sandbox,
      profile: 'generic',
      program: COMPILED.connector,
      env: {
        LOG_LEVEL: 'error',
        DEV_ALLOW_LOOPBACK_PUSH: '1',
        NODE_EXTRA_CA_CERTS: caFile,
        APPROVAL_WAIT_SECONDS: '50',
        RATE_LIMIT_TOOL_CALLS_PER_MINUTE: '100000',
      },
    })
    const flow = new AuthorizationFlow({ url: replicas.url, sandbox: { url: sandbox.url } })
    const person = flow.person(USER)
    const { tokens } = await flow.connect({ person, service: 'tasks' })
    const tasklist = await seedTaskList(
      sandbox.url,
      await providerToken(sandbox.url, USER),
      'Groceries',
      0,
    )
    await person.signInToConnections()
    const phone = await turnOnNotifications(person, `${replicas.url}/connections`, pushService)
    // A 2025-11-25 client that declares no elicitation: it cannot ask, so its call waits.
    replicas.pin(0)
    const { client } = await mcpClientWithToken(
      flow.resource('tasks'),
      tokens.access_token,
      '2025-11-25',
    )

    for (const decidedOn of ['other replica', 'same replica'] as const) {
      const taps: number[] = []
      for (let round = -3; round < ROUNDS; round++) {
        replicas.pin(0)
        const seen = pushService.delivered.length
        const calling = client.callTool({
          name: 'create_task',
          arguments: { tasklist, title: `Tapped ${decidedOn} ${round}` },
        })
        const id = await nextPush(pushService, phone, seen)
        replicas.pin(decidedOn === 'other replica' ? 1 : 0)
        const shown = await notificationOf(person, replicas.url, id)
        const tapped = performance.now()
        const acted = await actOnNotification(person, replicas.url, id, 'approve', shown.body.csrf!)
        if (acted.status !== 200) throw new Error(`the tap was refused: ${acted.body.body}`)
        const result = await calling
        const made = performance.now()
        if (result.isError) throw new Error(`the waiting call did not make the change`)
        if (round >= 0) taps.push(made - tapped)
      }
      const labels = { decided_on: decidedOn, replicas: 2, engine: 'postgres', samples: ROUNDS }
      emit('approval_tap_to_change_ms', p50(taps), 'ms', { ...labels, stat: 'p50' })
      emit('approval_tap_to_change_ms', percentile(taps, 95), 'ms', { ...labels, stat: 'p95' })
    }
    await client.close()
  } finally {
    await replicas?.close()
    await Promise.all(children.map((child) => stopProcess(child)))
    await pushService.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The change the next message to `device` names, once the push service has it. */
async function nextPush(service: PushService, device: TestDevice, after: number): Promise<string> {
  for (let waited = 0; waited < 20_000; waited += 5) {
    const next = service.delivered.slice(after).find((one) => one.device === device.id)
    if (next) return pushedApproval(next)
    await sleep(5)
  }
  throw new Error('no push message reached the device')
}
