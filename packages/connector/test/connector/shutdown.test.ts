import { once } from 'node:events'
import { Agent, request } from 'node:http'
import type { Socket } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { taskFixtures } from '../mcp/fixtures.js'
import { connectorForSuite } from '../support/connector.js'

/**
 * Closing a connector (what SIGTERM does: cli/signals.ts): it stops accepting at once, answers
 * the requests in flight, telling their connections to close, and cuts off what is still running
 * at the drain deadline. (Two replicas, a real SIGTERM and a pending approval handed over:
 * test/e2e/shutdown.test.ts.)
 */

interface Answer {
  status: number
  body: string
  /** The connection it came on, kept alive by the client. */
  socket: Socket
}

/**
 * A `list_tasks` call whose provider answer `delayMs` holds back, sent on a kept-alive
 * connection; resolves once the call is in flight (its answer in `call`).
 */
function slowListing(suite: ReturnType<typeof connectorForSuite>) {
  const { seed } = taskFixtures(suite)
  return async (user: string, delayMs: number) => {
    const client = await suite.registerClient()
    const { tokens } = await suite.connect({ client, service: 'tasks', person: suite.person(user) })
    const { tasklist } = await seed(user, 1)
    await suite.sandboxRequest('POST', '/_sandbox/faults', {
      json: {
        match: { method: 'GET', path: suite.providerPath('list_tasks', { tasklist }) },
        delayMs,
      },
    })
    const payload = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_tasks', arguments: { tasklist } },
    })
    const call = new Promise<Answer>((resolve, reject) => {
      const req = request(`${suite.url}/tasks/mcp`, {
        method: 'POST',
        agent: new Agent({ keepAlive: true }),
        headers: {
          authorization: `Bearer ${tokens.access_token as string}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
      })
      req.on('error', reject)
      req.on('response', (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('error', reject)
        res.on('end', () => resolve({ status: res.statusCode!, body, socket: req.socket! }))
      })
      req.end(payload)
    })
    // The fault is used up once the call has reached the provider.
    await vi.waitFor(
      async () => expect((await suite.sandboxRequest('GET', '/_sandbox/faults')).body).toEqual([]),
      { timeout: 10_000, interval: 20 },
    )
    return { call }
  }
}

describe('closing, within the drain deadline', () => {
  const suite = connectorForSuite({ options: { drainDeadlineMs: 10_000 } })
  const listing = slowListing(suite)

  it('stops accepting at once, answers the call in flight, and ends its connection', async () => {
    const { call } = await listing('drained', 1000)
    const closing = suite.connector.close()

    await expect(fetch(`${suite.url}/healthz`)).rejects.toThrow()
    const answer = await call
    expect(answer.status).toBe(200)
    expect(answer.body).toContain('Task 1')
    // The client meant to keep the connection: the stopping replica ends it after the answer.
    if (!answer.socket.closed) await once(answer.socket, 'close')
    await closing
  })
})

describe('closing, past the drain deadline', () => {
  const suite = connectorForSuite({ options: { drainDeadlineMs: 200 } })
  const listing = slowListing(suite)

  it('cuts off the call still running at the deadline, and closes', async () => {
    const { call } = await listing('cut-off', 5000)
    const outcome = call.then(
      () => 'answered',
      () => 'cut off',
    )
    await suite.connector.close()
    // Closed before the provider answered: a call let run would have been answered.
    expect(await outcome).toBe('cut off')
  })
})
