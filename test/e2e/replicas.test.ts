import { expect, it } from 'vitest'
import {
  approvalLink,
  approvalPages,
  assistantV1,
  assistantV2,
  coverageAnswer,
  describeOnPostgres,
  replicasForSuite,
  taskFixtures,
  textOf,
} from '@countersign/connector/testing'

/**
 * Two connector processes on one PostgreSQL, every request - the assistant's, the browser's, the
 * provider's redirects back - handed to the other replica than the one before: no request may
 * depend on reaching the same replica as an earlier one (docs/architecture.md). The whole life of a
 * connection runs through them: authorization, reads, changes asked about in the client (in both
 * protocol revisions) and on the page, a decline, and the disconnect.
 */

describeOnPostgres('two replicas, alternating every request', (engine) => {
  const replicas = replicasForSuite(() => engine.location())
  const pages = approvalPages()
  const { seed, upstreamCalls } = taskFixtures({
    profile: replicas.profile,
    sandboxRequest: (method, path, init) =>
      replicas.flow.request(method, replicas.sandbox.url + path, init),
  })
  const tasksMcp = () => `${replicas.url}/tasks/mcp`

  it('authorize, read, change with approval in the client and on the page, disconnect', async () => {
    const person = replicas.flow.person('replica-user')
    const client = await replicas.flow.registerClient({ client_name: 'Replica Assistant' })
    const { tokens } = await replicas.flow.connect({ client, person, service: 'tasks' })
    const { tasklist, ids, providerToken } = await seed(person.user, 2)
    const token = tokens.access_token as string

    // 2026-07-28, asked in the client: the question and its answer reach different replicas.
    const modern = await assistantV2(tasksMcp(), token, () => ({
      action: 'accept',
      content: { approve: true },
    }))
    const listed = await modern.call('list_tasks', { tasklist })
    expect((listed.structuredContent as any).items).toHaveLength(2)
    const created = await modern.call('create_task', { tasklist, title: 'Made across replicas' })
    expect(created.isError ?? false, textOf(created)).toBe(false)
    expect(modern.sent.length).toBeGreaterThanOrEqual(3)

    // Declined in the client: nothing is written, whichever replica hears it.
    const refusing = await assistantV2(tasksMcp(), token, () => ({ action: 'decline' }))
    const { next } = await upstreamCalls()
    const declined = await refusing.call('update_task', { tasklist, task: ids[0], title: 'No' })
    expect(textOf(declined)).toMatch(/declined/)
    expect((await upstreamCalls(next)).writes).toEqual([])

    // 2025-11-25, asked in the client: the question goes out on one replica's stream, the
    // answer is POSTed to the other, and reaches the asking request through PostgreSQL.
    const asked: string[] = []
    const answering = await assistantV1(tasksMcp(), token, (params) => {
      asked.push(params.message)
      replicas.pin(1)
      return { action: 'accept', content: { approve: true } }
    })
    replicas.pin(0)
    const renamed = await answering.call('update_task', {
      tasklist,
      task: ids[0],
      title: 'Renamed across replicas',
    })
    expect(renamed.isError ?? false, textOf(renamed)).toBe(false)
    expect(asked).toEqual([expect.stringMatching(/Renamed across replicas/)])
    replicas.pin(undefined)

    // 2025-11-25, through the page: link from one replica, page and sign-in across both, retry.
    const legacy = await assistantV1(tasksMcp(), token)
    const args = { tasklist, task: ids[1] }
    const url = approvalLink(await legacy.call('delete_task', args))
    await pages.onThePage(person, url, 'Approve')
    const deleted = await legacy.call('delete_task', args)
    expect(deleted.structuredContent).toMatchObject({ deleted: true, task: ids[1] })
    // Used once: the same call again is asked about anew.
    approvalLink(await legacy.call('delete_task', args))

    const tasks = await replicas.flow.request(
      'GET',
      `${replicas.sandbox.url}/tasks/v1/lists/${tasklist}/tasks`,
      {
        token: providerToken,
      },
    )
    expect(tasks.body.items.map((t: any) => t.title).sort()).toEqual([
      'Made across replicas',
      'Renamed across replicas',
    ])

    // The assistant disconnects; no replica accepts the token after that.
    expect((await replicas.flow.revoke(client, token)).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      expect((await replicas.flow.mcp('tasks', token)).status).toBe(401)
    }
    // Both replicas did their share.
    expect(Math.min(...replicas.served)).toBeGreaterThan(10)
    expect(Math.abs(replicas.served[0]! - replicas.served[1]!)).toBeLessThanOrEqual(1)
    await Promise.all([modern.close(), refusing.close(), answering.close(), legacy.close()])
  }, 60_000)

  it('a grant narrowed on one replica is held by the other from the next call, with the same token', async () => {
    const person = replicas.flow.person('replica-narrowed')
    const shared = await seed(person.user, 1, 'Shared')
    const secret = await seed(person.user, 1, 'Private')
    const { tokens } = await replicas.flow.connect({ person, service: 'tasks' })
    const token = tokens.access_token as string
    const assistant = await assistantV2(tasksMcp(), token, undefined)
    const listIds = async () =>
      ((await assistant.call('list_task_lists', {})).structuredContent as any).items.map(
        (l: any) => l.id,
      )
    replicas.pin(1)
    expect(await listIds()).toEqual(expect.arrayContaining([shared.tasklist, secret.tasklist]))

    // The person keeps only the shared list, on replica 0's page.
    replicas.pin(0)
    await person.signInToConnections()
    const grantPage = await person.fetch('GET', `${replicas.url}/connections`)
    const change = /href="(\/connections\/[^"]+\/coverage)"/.exec(await grantPage.text())![1]!
    const page = await (await person.fetch('GET', replicas.url + change)).text()
    const form = coverageAnswer(page, [shared.tasklist])
    form.delete('Allow')
    form.set('Save', 'Save')
    expect((await person.fetch('POST', replicas.url + change, form)).status).toBe(303)

    // Replica 1, which holds nothing in memory of it, refuses the private list at once.
    replicas.pin(1)
    expect(await listIds()).toEqual([shared.tasklist])
    const { next } = await upstreamCalls()
    const refused = await assistant.call('list_tasks', { tasklist: secret.tasklist })
    expect(textOf(refused)).toMatch(/is not one the person lets this assistant use/)
    expect((await upstreamCalls(next)).calls).toEqual([])
    replicas.pin(undefined)
    await assistant.close()
  }, 60_000)

  it('each person’s listing names their own properties only, whichever replica; a narrowing shows at once on the other', async () => {
    const analyticsMcp = `${replicas.url}/analytics/mcp`
    const withProperties = async (user: string, names: string[]) => {
      const ids: string[] = []
      for (const displayName of names) {
        const added = await replicas.flow.request(
          'POST',
          `${replicas.sandbox.url}/_sandbox/users/${user}/properties`,
          { json: { displayName, account: `${user} Ltd` } },
        )
        ids.push(added.body.propertiesId)
      }
      const person = replicas.flow.person(user)
      person.covers = ids.map((id) => `properties/${id}`)
      const { tokens } = await replicas.flow.connect({ person, service: 'analytics' })
      const assistant = await assistantV2(analyticsMcp, tokens.access_token, undefined)
      return { person, ids, assistant }
    }
    const named = async (assistant: Awaited<ReturnType<typeof assistantV2>>) => {
      const report = (await assistant.listTools()).find((tool) => tool.name === 'run_report')!
      return ((report.inputSchema.properties!.propertiesId as any).oneOf as any[]).map(
        (option) => option.title,
      )
    }
    const dora = await withProperties('replica-dora', ['Dora’s bakery', 'Dora’s blog'])
    const eli = await withProperties('replica-eli', ['Eli’s garage'])
    for (const replica of [0, 1]) {
      replicas.pin(replica)
      expect(await named(dora.assistant)).toEqual([
        'Dora’s bakery (replica-dora Ltd)',
        'Dora’s blog (replica-dora Ltd)',
      ])
      expect(await named(eli.assistant)).toEqual(['Eli’s garage (replica-eli Ltd)'])
    }

    // Dora keeps only her blog, on replica 0's page; replica 1 lists it alone at once.
    replicas.pin(0)
    await dora.person.signInToConnections()
    const grantPage = await dora.person.fetch('GET', `${replicas.url}/connections`)
    const change = /href="(\/connections\/[^"]+\/coverage)"/.exec(await grantPage.text())![1]!
    const page = await (await dora.person.fetch('GET', replicas.url + change)).text()
    const form = coverageAnswer(page, [`properties/${dora.ids[1]}`])
    form.delete('Allow')
    form.set('Save', 'Save')
    expect((await dora.person.fetch('POST', replicas.url + change, form)).status).toBe(303)
    replicas.pin(1)
    expect(await named(dora.assistant)).toEqual(['Dora’s blog (replica-dora Ltd)'])
    replicas.pin(undefined)
    await Promise.all([dora.assistant.close(), eli.assistant.close()])
  }, 60_000)
})
