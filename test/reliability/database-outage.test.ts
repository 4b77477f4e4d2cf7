import { rm } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '@countersign/sandbox'
import {
  approvalLink,
  approvalPages,
  assistantV1,
  AuthorizationFlow,
  databaseProxy,
  describeOnPostgres,
  freePort,
  isAlive,
  PROGRAMS,
  startProcess,
  startReplicas,
  stopProcess,
  taskFixtures,
  textOf,
  type Client,
  type DatabaseProxy,
  type ReplicaSet,
} from '@countersign/connector/testing'

/**
 * PostgreSQL goes away and comes back under two replicas (docs/operations.md, "When the database
 * goes away"), through a TCP proxy that ends every connection, refuses new ones or holds them,
 * without touching the machine's server: no replica exits, every request is told to try again
 * (503 with Retry-After; a JSON-RPC error on MCP, a page for the person), the readiness probe
 * says so while liveness holds, no grant ends for our failure however many refreshes were in
 * flight, an answer between replicas survives the reconnection, and a replica started meanwhile
 * waits for the database and comes up with it.
 */

describeOnPostgres('the database goes away and comes back', (engine) => {
  let proxy: DatabaseProxy
  let sandbox: RunningSandbox
  let set: ReplicaSet
  const flow = new AuthorizationFlow({
    get url() {
      return set.url
    },
    get sandbox() {
      return sandbox
    },
  })
  const pages = approvalPages()
  const { seed } = taskFixtures({
    profile: 'generic',
    sandboxRequest: (method, path, init) => flow.request(method, sandbox.url + path, init),
  })

  beforeAll(async () => {
    const { databaseUrl } = await engine.location()
    proxy = await databaseProxy(databaseUrl!)
    sandbox = await startSandbox({ port: 0, dataDir: ':memory:' })
    set = await startReplicas({
      databaseUrl: proxy.databaseUrl,
      sandbox,
      profile: 'generic',
      metrics: true,
      // Refreshes in a loop, from one address.
      env: { RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '100000' },
    })
  }, 60_000)
  afterAll(async () => {
    await set?.close()
    await sandbox?.close()
    await proxy?.close()
  })

  /** Every replica's process is still there. */
  const alive = () => set.processes.map(({ pid }) => isAlive(pid))

  /** Waits until `check` holds, within `ms`. */
  async function until(check: () => Promise<boolean>, ms = 20_000) {
    for (const started = Date.now(); Date.now() - started < ms; await sleep(100))
      if (await check().catch(() => false)) return
    throw new Error(`not within ${ms} ms`)
  }

  const refresh = (client: Client, refreshToken: string) =>
    flow.refresh(client, refreshToken).catch(() => ({ status: 0, body: {} as any }))

  it('while it is away every request is told to try again; nothing exits; all is back after', async () => {
    const { client, tokens } = await flow.connect({ service: 'tasks' })
    proxy.down('refuse')
    try {
      const mcp = await flow.mcp('tasks', tokens.access_token)
      expect(mcp.status).toBe(503)
      expect(mcp.headers.get('retry-after')).toBe('5')
      expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } })
      expect(mcp.body.error.message).toMatch(/database cannot be reached .* nothing was done/)

      const token = await flow.refresh(client, tokens.refresh_token)
      expect(token.status).toBe(503)
      expect(token.headers.get('retry-after')).toBe('5')
      expect(token.body.error).toBe('temporarily_unavailable')

      const registration = await flow.request('POST', '/oauth/register', {
        json: { redirect_uris: ['http://127.0.0.1:45123/callback'] },
      })
      expect(registration.status).toBe(503)

      // A change's page reads the change.
      const page = await flow.request('GET', `/approvals/${'a'.repeat(43)}`, {
        headers: { accept: 'text/html' },
      })
      expect(page.status).toBe(503)
      expect(page.text).toContain('Try again in a moment')
      expect(page.text).toContain('nothing was done or changed')

      // What needs no database is served as ever.
      const metadata = await flow.request('GET', '/.well-known/oauth-authorization-server')
      expect(metadata.status).toBe(200)

      for (const { url } of set.processes) {
        expect((await fetch(`${url}/readyz`)).status, url).toBe(503)
        expect((await fetch(`${url}/healthz`)).status, url).toBe(200)
      }
      // Each replica's readiness probe saw it; the MCP request went to one of them.
      const scrapes = await Promise.all(
        set.processes.map(async ({ metricsUrl }) => (await fetch(metricsUrl!)).text()),
      )
      for (const scrape of scrapes) expect(scrape).toMatch(/^countersign_store_up 0$/m)
      const mcpAway = /^countersign_store_unreachable_total\{surface="mcp"\} [1-9]/m
      expect(
        scrapes.some((scrape) => mcpAway.test(scrape)),
        scrapes.join('\n'),
      ).toBe(true)
    } finally {
      proxy.up()
    }
    await until(async () => (await flow.mcp('tasks', tokens.access_token)).status === 200)
    // The refresh token that met the outage was not spent: the grant stands.
    const after = await flow.refresh(client, tokens.refresh_token)
    expect(after.status, after.text).toBe(200)
    for (const { url } of set.processes) {
      await until(async () => (await fetch(`${url}/readyz`)).status === 200)
    }
    expect(alive()).toEqual([true, true])
  }, 90_000)

  it('refreshes in flight through restarts and an outage: no grant is lost', async () => {
    const clients = await Promise.all(
      Array.from({ length: 6 }, () => flow.connect({ service: 'tasks' })),
    )
    let stop = false
    const lost: string[] = []
    const refreshed = clients.map(() => 0)
    const loops = clients.map(async ({ client, tokens }, i) => {
      let current = tokens.refresh_token
      while (!stop) {
        const res = await refresh(client, current)
        if (res.status === 200) {
          current = res.body.refresh_token
          refreshed[i]! += 1
        } else if (res.status === 400 || res.status === 401) {
          lost.push(`${i}: ${res.status} ${JSON.stringify(res.body)}`)
          return current
        } else await sleep(100)
      }
      return current
    })
    // Restarts (every session ended, the server back at once), then ten seconds away.
    for (let i = 0; i < 8; i += 1) {
      await sleep(300)
      proxy.restart()
    }
    proxy.down('refuse')
    await sleep(3000)
    proxy.up()
    await sleep(2000)
    stop = true
    const last = await Promise.all(loops)
    expect(lost).toEqual([])
    expect(refreshed.every((n) => n > 0)).toBe(true)
    // Every connection still refreshes and calls.
    for (const [i, { client }] of clients.entries()) {
      const res = await flow.refresh(client, last[i]!)
      expect(res.status, res.text).toBe(200)
      expect((await flow.mcp('tasks', res.body.access_token)).status).toBe(200)
    }
    expect(alive()).toEqual([true, true])
  }, 90_000)

  it('an answer posted to the other replica as the database restarts reaches the question', async () => {
    const person = flow.person('outage-answer')
    const { tokens } = await flow.connect({ person, service: 'tasks' })
    const { tasklist } = await seed(person.user, 1)
    const answering = await assistantV1(`${set.url}/tasks/mcp`, tokens.access_token, async () => {
      // The asking replica loses its connections, its listening one included, as the answer
      // goes to the other.
      set.pin(1)
      proxy.restart()
      return { action: 'accept', content: { approve: true } }
    })
    set.pin(0)
    try {
      const made = await answering.call('create_task', { tasklist, title: 'Across a restart' })
      expect(made.isError ?? false, textOf(made)).toBe(false)
    } finally {
      set.pin(undefined)
      await answering.close()
    }
  }, 90_000)

  it('a change made as the database goes away is answered as made, and shown so once it is back', async () => {
    const person = flow.person('outage-change')
    const { tokens } = await flow.connect({ person, service: 'tasks' })
    const { tasklist, ids } = await seed(person.user, 1)
    const assistant = await assistantV1(`${set.url}/tasks/mcp`, tokens.access_token)
    const sandboxRequest = (method: string, path: string, json?: unknown) =>
      flow.request(method, sandbox.url + path, json === undefined ? {} : { json })
    try {
      const change = { tasklist, task: ids[0] }
      await pages.onThePage(person, approvalLink(await assistant.call('delete_task', change)))
      // The provider takes 1.5 s over the delete; the database goes as it is on its way.
      await sandboxRequest('POST', '/_sandbox/faults', {
        match: { method: 'DELETE', path: '/tasks/v1/lists/*' },
        delayMs: 1500,
      })
      const deleting = assistant.call('delete_task', change)
      await until(async () => (await sandboxRequest('GET', '/_sandbox/faults')).body.length === 0)
      proxy.down('refuse')
      const deleted = await deleting
      expect(deleted.isError ?? false, textOf(deleted)).toBe(false)
      expect(deleted.structuredContent).toMatchObject({ deleted: true, task: ids[0] })
    } finally {
      proxy.up()
      await assistant.close()
    }
    // The trail was kept while the database was away, and written once it was back.
    await until(async () =>
      (await pages.open(person, `${set.url}/activity`)).text.includes('Approved: done'),
    )
  }, 90_000)

  it('a replica started while it is away waits, not ready, and serves once it is back', async () => {
    const port = await freePort()
    const children: ChildProcess[] = []
    proxy.down('hold')
    const starting = startReplicaProcess(children, port, {
      DATABASE_URL: proxy.databaseUrl,
      PUBLIC_URL: set.url,
      SANDBOX_PUBLIC_URL: sandbox.url,
    })
    try {
      await sleep(3000)
      expect(children[0]!.exitCode).toBeNull()
      const waiting = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined)
      expect(waiting?.status).not.toBe(200)
      proxy.up()
      await starting
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200)
    } finally {
      proxy.up()
      await Promise.all(children.map(stopProcess))
      await rm(`/tmp/countersign-outage-${port}`, { recursive: true, force: true })
    }
  }, 90_000)
})

/** One more connector process, like the set's (its own data folder): started, not waited for. */
function startReplicaProcess(children: ChildProcess[], port: number, env: Record<string, string>) {
  return startProcess(children, PROGRAMS.connector, port, {
    ...env,
    PORT: String(port),
    VAULT_KEY: Buffer.alloc(32, 7).toString('base64'),
    DATA_DIR: `/tmp/countersign-outage-${port}`,
    LOG_LEVEL: 'warn',
  })
}
