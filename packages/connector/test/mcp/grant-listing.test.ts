import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client'
import { expect, it } from 'vitest'
import { connectorForSuite, coverageAnswer, type Cover } from '../support/connector.js'
import { describeEachEngine, describeOnPostgres } from '../support/engines.js'
import { ERAS, mcpClientWithToken, resultText, type Era } from '../support/mcp-client.js'
import { findProperty } from '../support/model-budget.js'
import { providerRequests } from '../support/provider-log.js'
import { replicasForSuite } from '../support/replicas.js'
import { taskFixtures } from './fixtures.js'

/**
 * A grant's `tools/list` names what the grant covers (src/mcp/grant-listing.ts), read through
 * the real MCP client from the real connector and sandbox: an analytics grant's properties in
 * every tool's propertiesId, by name and account; a narrowed grant's lists and sites; never
 * another person's. A call that names no property, or one outside the grant, is answered with the
 * grant's own, closest first.
 */

type Service = 'tasks' | 'search' | 'analytics'

describeEachEngine('a listing that names what the grant covers', (engine) => {
  const suite = connectorForSuite({ connector: async () => engine.location() })
  const { seed } = taskFixtures(suite)
  let people = 0

  /** A new person with `count` properties in account `account`, named `${prefix}N`. */
  async function personWith(count: number, prefix: string, account = 'Acme') {
    const user = `listing-${engine.name}-${++people}`
    const ids: string[] = []
    for (let i = 1; i <= count; i++) {
      const added = await suite.sandboxRequest('POST', `/_sandbox/users/${user}/properties`, {
        json: { displayName: `${prefix}${i}`, account },
      })
      ids.push(added.body.propertiesId)
    }
    return { user, ids }
  }

  async function connect(user: string, service: Service, covers?: Cover, era: Era = ERAS[0]) {
    const person = suite.person(user)
    if (covers) person.covers = covers
    const { tokens } = await suite.connect({ person, service })
    const { client } = await mcpClientWithToken(suite.resource(service), tokens.access_token, era)
    return { client, person }
  }

  const fieldOf = async (client: Client, tool: string, field: string) => {
    const { tools } = await client.listTools()
    return tools.find((t: Tool) => t.name === tool)!.inputSchema.properties![field] as any
  }

  it.each(ERAS)(
    'protocol %s: an analytics grant of chosen properties: run_report names each by name and account, every tool takes only them',
    async (era) => {
      const { user, ids } = await personWith(3, 'Shop ')
      const { client } = await connect(user, 'analytics', [ids[0]!, ids[2]!].map(prop), era)
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual([
        'get_metadata',
        'run_realtime_report',
        'run_report',
        'run_reports',
      ])
      for (const tool of tools) {
        const field = tool.inputSchema.properties!.propertiesId
        if (tool.name === 'run_report')
          expect(field).toEqual({
            type: 'string',
            description: expect.stringContaining('one of the 2 this connection may use'),
            oneOf: [
              { const: ids[0], title: 'Shop 1 (Acme)' },
              { const: ids[2], title: 'Shop 3 (Acme)' },
            ],
          })
        else
          expect(field).toEqual({
            type: 'string',
            description: 'The property, by number: one of those run_report’s propertiesId names.',
            enum: [ids[0], ids[2]],
          })
      }
      await client.close()
    },
  )

  it.each(ERAS)(
    'protocol %s: the server says how the tools name the grant’s properties; the listing is private',
    async (era) => {
      const { user } = await personWith(1, 'Told ')
      const { client } = await connect(user, 'analytics', undefined, era)
      expect(client.getInstructions()).toMatch(
        /Each tool’s propertiesId names the properties this connection may use, by name and account/,
      )
      const listed = (await client.listTools()) as Record<string, unknown>
      if (era === '2026-07-28') expect(listed).toMatchObject({ cacheScope: 'private', ttlMs: 0 })
      else expect(listed.cacheScope).toBeUndefined()
      await client.close()
    },
  )

  it('every property of an account of 60: the first 50 named, how many more, and how to name another', async () => {
    const { user, ids } = await personWith(60, 'client', 'Agency')
    const { client } = await connect(user, 'analytics')
    const field = await fieldOf(client, 'run_report', 'propertiesId')
    // The sandbox gives each person two properties of their own first.
    expect(field.description).toMatch(/every property of the person, 62 in all: the first 50/)
    expect(field.description).toMatch(/or its name, and the answer names the closest/)
    const [named, another] = field.anyOf
    expect(named.oneOf).toHaveLength(50)
    expect(another).toEqual({ type: 'string', pattern: '^[1-9][0-9]{0,17}$' })
    // Named past the page, the model finds it through the refusal's words.
    const found = await findProperty(client, 'client57')
    expect(found).toEqual({ propertiesId: ids[56], calls: 1 })
    const metadata = (await client.callTool({
      name: 'get_metadata',
      arguments: { propertiesId: found.propertiesId },
    })) as CallToolResult
    expect(metadata.isError ?? false, resultText(metadata)).toBe(false)
    await client.close()
  })

  it('two people at once: each listing names that person’s properties only', async () => {
    const anna = await personWith(2, 'Anna’s shop ')
    const ben = await personWith(2, 'Ben’s blog ')
    const [a, b] = await Promise.all([
      connect(anna.user, 'analytics'),
      connect(ben.user, 'analytics'),
    ])
    const read = async (client: Client) => JSON.stringify((await client.listTools()).tools)
    const [seenByAnna, seenByBen] = await Promise.all([read(a.client), read(b.client)])
    for (const id of anna.ids) expect(seenByBen).not.toContain(`"${id}"`)
    for (const id of ben.ids) expect(seenByAnna).not.toContain(`"${id}"`)
    expect(seenByAnna).toContain('Anna’s shop 1 (Acme)')
    expect(seenByAnna).not.toContain('Ben’s blog')
    expect(seenByBen).toContain('Ben’s blog 2 (Acme)')
    expect(seenByBen).not.toContain('Anna’s shop')
    await Promise.all([a.client.close(), b.client.close()])
  })

  it('a call naming no property, or a name for a number, is answered with the grant’s, closest first', async () => {
    const { user, ids } = await personWith(3, 'Garden centre ')
    const { client } = await connect(user, 'analytics', ids.map(prop))
    const { next } = await providerRequests(suite, 'analytics')
    const missing = await call(client, 'run_report', { dateRanges: LAST_WEEK, metrics: SESSIONS })
    expect(missing.isError).toBe(true)
    expect(resultText(missing)).toMatch(/propertiesId is required/)
    expect(resultText(missing)).toContain(
      `The properties this connection may use: "Garden centre 1 (Acme)": ${ids[0]}; "Garden centre 2 (Acme)": ${ids[1]}; "Garden centre 3 (Acme)": ${ids[2]}.`,
    )
    expect(resultText(missing)).toMatch(/The person can add one at http.*\/connections\./)
    const byName = await call(client, 'get_metadata', { propertiesId: 'garden centre 3' })
    expect(resultText(byName)).toContain(
      `The properties this connection may use, closest first: "Garden centre 3 (Acme)": ${ids[2]};`,
    )
    // Nothing went to the analytics data API.
    const sent = (await providerRequests(suite, 'analytics', next)).calls
    expect(sent.filter((entry) => entry.path.includes('/properties/'))).toEqual([])
    await client.close()
  })

  it('a property outside the grant is refused with the grant’s own, and nothing is sent', async () => {
    const { user, ids } = await personWith(3, 'Kept ')
    const { client } = await connect(user, 'analytics', [prop(ids[1]!)])
    await client.listTools()
    const { next } = await providerRequests(suite, 'analytics')
    const refused = await call(client, 'get_metadata', { propertiesId: ids[0] })
    expect(refused.isError).toBe(true)
    expect(resultText(refused)).toMatch(/is not one the person lets this assistant use/)
    expect(resultText(refused)).toContain(`"Kept 2 (Acme)": ${ids[1]}.`)
    expect((await providerRequests(suite, 'analytics', next)).calls).toEqual([])
    await client.close()
  })

  it('tasks and search: a narrowed grant names its lists and sites; a grant of every one keeps the listing tools', async () => {
    const user = `listing-${engine.name}-${++people}`
    const groceries = await seed(user, 1, 'Groceries')
    const secret = await seed(user, 1, 'Secret plans')
    const narrowed = await connect(user, 'tasks', [groceries.tasklist])
    const titled = await fieldOf(narrowed.client, 'list_tasks', 'tasklist')
    expect(titled.oneOf).toEqual([{ const: groceries.tasklist, title: 'Groceries' }])
    expect(titled.description).toMatch(/This connection may use only these\.$/)
    const destination = await fieldOf(narrowed.client, 'move_task', 'destinationTasklist')
    expect(destination.enum).toEqual([groceries.tasklist])
    expect(destination.description).toMatch(
      /^Move the task to this list .* It is one of those list_tasks’s tasklist names\.$/,
    )
    expect(JSON.stringify(await narrowed.client.listTools())).not.toContain('Secret plans')
    const every = await connect(user, 'tasks')
    const shared = await fieldOf(every.client, 'list_tasks', 'tasklist')
    expect(shared.oneOf).toBeUndefined()
    expect(shared.description).toMatch(/from list_task_lists/)
    expect(secret.tasklist).not.toBe(groceries.tasklist)

    const { sites } = (await suite.sandboxRequest('GET', `/_sandbox/users/${user}`)).body
    const site = await connect(user, 'search', [sites[1]])
    const siteUrl = await fieldOf(site.client, 'query_search_analytics', 'siteUrl')
    expect(siteUrl.enum).toEqual([sites[1]])
    await Promise.all([narrowed.client.close(), every.client.close(), site.client.close()])
  })

  it('a grant narrowed on the connections page changes the next listing, with the same token', async () => {
    const { user, ids } = await personWith(2, 'Narrowed ')
    const { client, person } = await connect(user, 'analytics', ids.map(prop))
    expect((await fieldOf(client, 'run_report', 'propertiesId')).oneOf).toHaveLength(2)
    // On the connections page, as the person does it: the connection's Change, then Save.
    await person.signInToConnections()
    const page = await (await person.fetch('GET', `${suite.url}/connections`)).text()
    const change = suite.url + /href="(\/connections\/[^"]+\/coverage)"/.exec(page)![1]!
    const form = coverageAnswer(await (await person.fetch('GET', change)).text(), [prop(ids[1]!)])
    form.delete('Allow')
    form.set('Save', 'Save')
    expect((await person.fetch('POST', change, form)).status).toBe(303)
    expect((await fieldOf(client, 'run_report', 'propertiesId')).oneOf).toEqual([
      { const: ids[1], title: 'Narrowed 2 (Acme)' },
    ])
    await client.close()
  })
})

describeOnPostgres('a listing across replicas', (engine) => {
  // Each replica keeps the names it read (a minute by grant), and the front alternates: every
  // listing below is served once by each.
  const replicas = replicasForSuite(() => engine.location())
  const { flow } = replicas

  async function personWith(user: string, names: readonly string[]) {
    const ids: string[] = []
    for (const displayName of names) {
      const added = await flow.request(
        'POST',
        `${replicas.sandbox.url}/_sandbox/users/${user}/properties`,
        {
          json: { displayName, account: 'Acme' },
        },
      )
      ids.push(added.body.propertiesId)
    }
    const person = flow.person(user)
    person.covers = ids.map(prop)
    const { tokens } = await flow.connect({ person, service: 'analytics' })
    const { client } = await mcpClientWithToken(
      flow.resource('analytics'),
      tokens.access_token,
      ERAS[0],
    )
    return { person, client, ids }
  }

  const titles = async (client: Client) => {
    const { tools } = await client.listTools()
    const field = tools.find((t: Tool) => t.name === 'run_report')!.inputSchema.properties!
      .propertiesId as { oneOf: { title: string }[] }
    return field.oneOf.map((one) => one.title)
  }

  it('two people on two replicas: each listing names that person’s properties only, and a narrowing on one replica shows on the other', async () => {
    const anna = await personWith('replicas-anna', ['Anna’s shop', 'Anna’s blog'])
    const ben = await personWith('replicas-ben', ['Ben’s garage'])
    for (let round = 0; round < 2; round++) {
      const [seenByAnna, seenByBen] = await Promise.all([titles(anna.client), titles(ben.client)])
      expect(seenByAnna).toEqual(['Anna’s shop (Acme)', 'Anna’s blog (Acme)'])
      expect(seenByBen).toEqual(['Ben’s garage (Acme)'])
    }

    // Anna keeps only her blog, on whichever replica serves her connections page.
    await anna.person.signInToConnections()
    const page = await (await anna.person.fetch('GET', `${replicas.url}/connections`)).text()
    const change = replicas.url + /href="(\/connections\/[^"]+\/coverage)"/.exec(page)![1]!
    const form = coverageAnswer(await (await anna.person.fetch('GET', change)).text(), [
      prop(anna.ids[1]!),
    ])
    form.delete('Allow')
    form.set('Save', 'Save')
    expect((await anna.person.fetch('POST', change, form)).status).toBe(303)
    const served = [...replicas.served]
    for (let round = 0; round < 2; round++)
      expect(await titles(anna.client)).toEqual(['Anna’s blog (Acme)'])
    // Both replicas answered a listing after the change.
    expect(replicas.served.every((count, i) => count > served[i]!)).toBe(true)
    expect(await titles(ben.client)).toEqual(['Ben’s garage (Acme)'])
    await Promise.all([anna.client.close(), ben.client.close()])
  })
})

const prop = (id: string) => `properties/${id}`
const LAST_WEEK = [{ startDate: '7daysAgo', endDate: 'yesterday' }]
const SESSIONS = [{ name: 'sessions' }]

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult
