import { expect, it, vi } from 'vitest'
import {
  approvalLink,
  approvalPages,
  assistantV1,
  describeOnPostgres,
  replicasForSuite,
  taskFixtures,
  textOf,
} from '@countersign/connector/testing'

/**
 * A replica stopped the way an orchestrator stops it (docs/operations.md, "Stopping a replica":
 * SIGTERM, finish the calls in flight, close, exit 0), while the other replica on the same
 * PostgreSQL goes on serving: the change that was running when the signal came completes, once, and
 * its answer reaches the assistant; a change still waiting for the person's approval is decided and
 * carried out on the other replica.
 */

describeOnPostgres('a replica stopped with SIGTERM', (engine) => {
  const replicas = replicasForSuite(() => engine.location())
  const pages = approvalPages()
  const sandboxRequest = (...[method, path, init]: Parameters<typeof replicas.flow.request>) =>
    replicas.flow.request(method, replicas.sandbox.url + path, init)
  const { seed, upstreamCalls } = taskFixtures({ profile: replicas.profile, sandboxRequest })

  it('finishes the call in flight, exits 0, and leaves a pending approval to the other replica', async () => {
    const person = replicas.flow.person('draining-user')
    const client = await replicas.flow.registerClient({ client_name: 'Draining Assistant' })
    const { tokens } = await replicas.flow.connect({ client, person, service: 'tasks' })
    const { tasklist, ids } = await seed(person.user, 2)
    const assistant = await assistantV1(`${replicas.url}/tasks/mcp`, tokens.access_token as string)

    // One delete approved, to run when the signal comes; another asked about, still undecided.
    const running = { tasklist, task: ids[0] }
    await pages.onThePage(
      person,
      approvalLink(await assistant.call('delete_task', running)),
      'Approve',
    )
    const waiting = { tasklist, task: ids[1] }
    const waitingLink = approvalLink(await assistant.call('delete_task', waiting))

    // The approved delete goes to replica 0, whose provider takes 1.5 s to answer it.
    replicas.pin(0)
    await sandboxRequest('POST', '/_sandbox/faults', {
      json: { match: { method: 'DELETE', path: '/tasks/v1/lists/*' }, delayMs: 1500 },
    })
    const { next } = await upstreamCalls()
    const deleting = assistant.call('delete_task', running)
    // The fault is used up once the delete has reached the provider: the call is in flight.
    await vi.waitFor(
      async () => expect((await sandboxRequest('GET', '/_sandbox/faults')).body).toEqual([]),
      { timeout: 10_000, interval: 20 },
    )
    const exited = replicas.terminate(0)
    replicas.pin(1)

    const deleted = await deleting
    expect(deleted.isError ?? false, textOf(deleted)).toBe(false)
    expect(deleted.structuredContent).toMatchObject({ deleted: true, task: ids[0] })
    expect(await exited).toBe(0)
    expect((await upstreamCalls(next)).writes).toHaveLength(1)

    // The undecided approval is in the shared store: replica 1 shows it, and runs the call.
    await pages.onThePage(person, waitingLink, 'Approve')
    const second = await assistant.call('delete_task', waiting)
    expect(second.structuredContent).toMatchObject({ deleted: true, task: ids[1] })
    await assistant.close()
  }, 60_000)
})
