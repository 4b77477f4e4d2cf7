import { describe, expect, it } from 'vitest'
import { MAX_RETRIES } from '../../src/upstream/api/policy.js'
import { connectorForSuite } from '../support/connector.js'
import { approvalFlow } from '../approval/flow.js'
import { assistantV2, textOf } from './approval-clients.js'
import { taskFixtures } from './fixtures.js'

/**
 * The provider failing under the tools, with the sandbox's fault injection (docs/design.md,
 * "Reliability"): reads retry 429 and 5xx within the deadline; a change is sent once, approved, and
 * never again when its outcome is unknown; a call past the deadline ends; a revoked credential ends
 * the grant. Each failure is a tool result that says what happened and what to do.
 */

const DEADLINE_MS = 1_500
const suite = connectorForSuite({ options: { apiDeadlineMs: DEADLINE_MS } })
const flow = approvalFlow(suite)
const { seed, upstreamCalls, auditOf } = taskFixtures(suite)

let people = 0
async function connected() {
  const user = `faults-${++people}`
  const person = suite.person(user)
  const { tokens, grantId } = await flow.connected(user, 'Helpful Assistant', person)
  const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, () => ({
    action: 'accept',
    content: { approve: true },
  }))
  return { person, grantId, assistant, ...(await seed(user, 1)) }
}

const fault = (json: Record<string, unknown>) =>
  suite.sandboxRequest('POST', '/_sandbox/faults', { json })

describe('faults under the tools', () => {
  it('a credential revoked at the provider before a change: 401 to reconnect, nothing written', async () => {
    const p = await connected()
    const revoked = await p.person.fetch(
      'POST',
      `${suite.sandbox.url}/account/connections/revoke`,
      {
        client: 'countersign',
        Revoke: 'Revoke',
      },
    )
    expect(revoked.status).toBe(303)
    const { next } = await upstreamCalls()
    const error = await p.assistant
      .call('create_task', { tasklist: p.tasklist, title: 'Never' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/invalid_token.*connect the service again/)
    expect((await upstreamCalls(next)).writes).toEqual([])
  })
  it('a connection reset after a create was handled: sent exactly once, and the result says the outcome is unknown', async () => {
    const p = await connected()
    await fault({
      match: { method: 'POST', path: `/tasks/v1/lists/${p.tasklist}/tasks` },
      reset: 'after',
    })
    const { next } = await upstreamCalls()
    const result = await p.assistant.call('create_task', {
      tasklist: p.tasklist,
      title: 'Maybe made',
    })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/may or may not have been made.*Check with a read/)
    const { writes } = await upstreamCalls(next)
    expect(writes.map((w) => w.method)).toEqual(['POST'])
    expect(await auditOf(p.grantId)).toEqual(['approved create_task', 'failed create_task'])
  })

  it('a provider 429 on a change: not resent, and the result says when to come back', async () => {
    const p = await connected()
    await fault({
      match: { method: 'PATCH', path: `/tasks/v1/lists/${p.tasklist}/tasks/${p.ids[0]}` },
      status: 429,
      retryAfter: 7,
    })
    const { next } = await upstreamCalls()
    const result = await p.assistant.call('update_task', {
      tasklist: p.tasklist,
      task: p.ids[0],
      title: 'Later',
    })
    expect(textOf(result)).toMatch(/busy.*retry in 7 seconds/)
    expect((await upstreamCalls(next)).writes.map((w) => `${w.method} ${w.status}`)).toEqual([
      'PATCH 429',
    ])
    expect(await auditOf(p.grantId)).toEqual(['approved update_task', 'failed update_task 429'])
  })

  it('a provider 503 while describing a change: retried like any read; the person is still asked', async () => {
    const p = await connected()
    await fault({
      match: { method: 'GET', path: suite.providerPath('get_task_list', { tasklist: p.tasklist }) },
      status: 503,
    })
    const { next } = await upstreamCalls()
    const result = await p.assistant.call('create_task', { tasklist: p.tasklist, title: 'Asked' })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    const { calls } = await upstreamCalls(next)
    expect(calls.filter((c) => c.status === 503)).toHaveLength(1)
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
  })

  it('a provider 503 on every try of a read: retried, then a result saying to retry later', async () => {
    const p = await connected()
    await fault({
      match: { method: 'GET', path: `/tasks/v1/lists/${p.tasklist}/tasks` },
      status: 503,
      times: 1 + MAX_RETRIES,
    })
    const result = await p.assistant.call('list_tasks', { tasklist: p.tasklist })
    expect(textOf(result)).toMatch(/unavailable right now; retry in \d+ seconds/)
  })

  it('a provider slower than the deadline: the call ends at the deadline with a result to retry later', async () => {
    const p = await connected()
    await fault({
      match: { method: 'GET', path: `/tasks/v1/lists/${p.tasklist}/tasks` },
      delayMs: DEADLINE_MS * 4,
      times: 1 + MAX_RETRIES,
    })
    const result = await p.assistant.call('list_tasks', { tasklist: p.tasklist })
    // Ended by the deadline, not by the provider's answer: that answer would have been the list.
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/retry in \d+ seconds/)
  })
})
