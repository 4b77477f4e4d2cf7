import { describe, expect, it } from 'vitest'
import { connectorForSuite, type Cover } from '../support/connector.js'
import { providerRequests } from '../support/provider-log.js'
import {
  assistantV1,
  assistantV2,
  textOf,
  type Answer,
  type Assistant,
} from './approval-clients.js'
import { taskFixtures } from './fixtures.js'

/**
 * Grants the person shapes (docs/decisions.md, "Grants the person shapes"): a grant of chosen
 * task lists, sites or properties, made through the real flow (the person ticks them on the
 * connector's page after the provider's sign-in), used through the real MCP clients of both
 * protocol revisions. Every tool that names one outside the grant is refused at once, in every
 * argument position, with nothing sent to the provider and nothing asked of the person; listings
 * show only what the grant covers; a list the assistant makes joins it.
 */

const suite = connectorForSuite()
const { seed } = taskFixtures(suite)
const approveInClient: Answer = () => ({ action: 'accept', content: { approve: true } })
const outside = /is not one the person lets this assistant use .* Nothing was sent to the provider/

let people = 0

/** A person with lists A and B (B with one task) who connects `service` covering `cover`. */
async function connected(
  service: 'tasks' | 'search' | 'analytics',
  cover: (assets: Assets) => Cover,
  era: Era,
) {
  const user = `coverage-${service}-${++people}`
  const a = await seed(user, 1, 'Shared')
  const b = await seed(user, 1, 'Private')
  const assets = (await suite.sandboxRequest('GET', `/_sandbox/users/${user}`)).body as {
    sites: string[]
    properties: string[]
  }
  const all: Assets = {
    lists: [a.tasklist, b.tasklist],
    taskIds: [a.ids[0]!, b.ids[0]!],
    ...assets,
  }
  const person = suite.person(user)
  person.covers = cover(all)
  const { tokens } = await suite.connect({ person, service })
  const resource = suite.resource(service)
  const assistant =
    era === '2026-07-28'
      ? await assistantV2(resource, tokens.access_token, approveInClient)
      : await assistantV1(resource, tokens.access_token)
  return { user, person, assistant, ...all }
}

interface Assets {
  lists: string[]
  taskIds: string[]
  sites: string[]
  properties: string[]
}

type Era = '2026-07-28' | '2025-11-25'
const ERAS: Era[] = ['2026-07-28', '2025-11-25']

/** The call is refused naming `value`, and nothing reached the provider's `service` API. */
async function refusedUnsent(
  assistant: Assistant,
  service: 'tasks' | 'search' | 'analytics',
  tool: string,
  args: Record<string, unknown>,
  value: string,
) {
  const { next } = await providerRequests(suite, service)
  const result = await assistant.call(tool, args)
  expect(result.isError, `${tool} ${textOf(result)}`).toBe(true)
  expect(textOf(result)).toMatch(outside)
  expect(textOf(result)).toContain(`"${value}"`)
  expect(textOf(result)).toContain(`${suite.url}/connections`)
  expect((await providerRequests(suite, service, next)).calls, tool).toEqual([])
}

describe.each(ERAS)('a grant of chosen ones, protocol %s', (era) => {
  it('tasks: only the chosen list is listed; every tool naming the other is refused unsent and unasked', async () => {
    const p = await connected('tasks', ({ lists }) => [lists[0]!], era)
    const [shared, secret] = p.lists as [string, string]
    const listed = await p.assistant.call('list_task_lists', {})
    expect((listed.structuredContent as any).items.map((l: any) => l.id)).toEqual([shared])
    expect((await p.assistant.call('list_tasks', { tasklist: shared })).isError ?? false).toBe(
      false,
    )

    const task = p.taskIds[1]!
    for (const [tool, args] of [
      ['list_tasks', { tasklist: secret }],
      ['get_task', { tasklist: secret, task }],
      ['create_task', { tasklist: secret, title: 'Sneaky' }],
      ['update_task', { tasklist: secret, task, title: 'Renamed' }],
      ['delete_task', { tasklist: secret, task }],
      ['move_task', { tasklist: secret, task }],
      // A move's destination counts as much as its list.
      ['move_task', { tasklist: shared, task: p.taskIds[0], destinationTasklist: secret }],
      // "@default" is a list like any other: not chosen here.
      ['list_tasks', { tasklist: '@default' }],
    ] as const)
      await refusedUnsent(
        p.assistant,
        'tasks',
        tool,
        args,
        'destinationTasklist' in args ? secret : args.tasklist,
      )
    // Nothing was asked of the person: no approval waits.
    const waiting = await suite.store.db
      .selectFrom('approvals')
      .select('id')
      .where('status', '=', 'pending')
      .execute()
    expect(waiting).toEqual([])
    await p.assistant.close()
  })

  it('search: a site is its exact siteUrl; only the chosen one is listed, the other refused everywhere', async () => {
    // The person's URL-prefix site and domain property of the same domain: two sites.
    const p = await connected('search', ({ sites }) => [sites[1]!], era)
    const [prefix, domain] = p.sites as [string, string]
    expect(domain).toMatch(/^sc-domain:/)
    const listed = await p.assistant.call('list_sites', {})
    expect((listed.structuredContent as any).siteEntry.map((s: any) => s.siteUrl)).toEqual([domain])
    const dates = { startDate: '2026-01-01', endDate: '2026-01-31' }
    expect(
      (await p.assistant.call('query_search_analytics', { siteUrl: domain, ...dates })).isError ??
        false,
    ).toBe(false)
    for (const [tool, args] of [
      ['get_site', { siteUrl: prefix }],
      ['list_sitemaps', { siteUrl: prefix }],
      ['query_search_analytics', { siteUrl: prefix, ...dates }],
      ['inspect_url', { siteUrl: prefix, inspectionUrl: `${prefix}about` }],
      ['submit_sitemap', { siteUrl: prefix, feedpath: `${prefix}sitemap.xml` }],
    ] as const)
      await refusedUnsent(p.assistant, 'search', tool, args, prefix)
    await p.assistant.close()
  })

  it('analytics: the tools name the chosen property only; every tool on another is refused', async () => {
    const p = await connected('analytics', ({ properties }) => [`properties/${properties[0]}`], era)
    const [mine, theirs] = p.properties as [string, string]
    for (const tool of await p.assistant.listTools()) {
      const field = tool.inputSchema.properties!.propertiesId as any
      expect((field.oneOf ?? []).map((o: any) => o.const).concat(field.enum ?? [])).toEqual([mine])
    }
    const week = [{ startDate: '7daysAgo', endDate: 'yesterday' }]
    const metrics = [{ name: 'sessions' }]
    expect(
      (await p.assistant.call('run_report', { propertiesId: mine, dateRanges: week, metrics }))
        .isError ?? false,
    ).toBe(false)
    for (const [tool, args] of [
      ['get_metadata', { propertiesId: theirs }],
      ['run_report', { propertiesId: theirs, dateRanges: week, metrics }],
      ['run_reports', { propertiesId: theirs, requests: [{ dateRanges: week, metrics }] }],
      ['run_realtime_report', { propertiesId: theirs, metrics: [{ name: 'activeUsers' }] }],
    ] as const)
      await refusedUnsent(p.assistant, 'analytics', tool, args, theirs)
    await p.assistant.close()
  })
})

describe('a list the assistant makes joins the grant', () => {
  it('create_task_list, approved in the client: listed and usable at once', async () => {
    const p = await connected('tasks', ({ lists }) => [lists[0]!], '2026-07-28')
    const made = await p.assistant.call('create_task_list', { title: 'Errands' })
    expect(made.isError ?? false, textOf(made)).toBe(false)
    const id = (made.structuredContent as any).id as string
    const listed = await p.assistant.call('list_task_lists', {})
    expect((listed.structuredContent as any).items.map((l: any) => l.id)).toEqual([p.lists[0], id])
    const added = await p.assistant.call('create_task', { tasklist: id, title: 'Post a letter' })
    expect(added.isError ?? false, textOf(added)).toBe(false)
    await p.assistant.close()
  })
})

describe('the default list, chosen', () => {
  it('"@default" is held to the grant as the list it names', async () => {
    const user = `coverage-default-${++people}`
    const person = suite.person(user)
    person.covers = 'as shown' // the default list, as the page ticks it
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
    const listed = await assistant.call('list_task_lists', {})
    const items = (listed.structuredContent as any).items as { id: string; title: string }[]
    expect(items.map((l) => l.title)).toEqual(['My Tasks'])
    expect((await assistant.call('list_tasks', { tasklist: '@default' })).isError ?? false).toBe(
      false,
    )
    const other = await seed(user, 0, 'Later')
    await refusedUnsent(
      assistant,
      'tasks',
      'list_tasks',
      { tasklist: other.tasklist },
      other.tasklist,
    )
    await assistant.close()
  })
})

describe('every one, or the ones chosen, as the person adds more', () => {
  it('a site added later: a grant of every one sees it at once; a grant of chosen ones does not', async () => {
    const everyOne = await connected('search', () => 'all', '2026-07-28')
    const chosen = await connected('search', ({ sites }) => [sites[0]!], '2026-07-28')
    const added = `https://blog.${chosen.user}.example/`
    for (const { user } of [everyOne, chosen])
      await suite.sandboxRequest('POST', `/_sandbox/users/${user}/sites`, {
        json: { siteUrl: added.replace(chosen.user, user) },
      })
    const sitesOf = async (p: typeof everyOne) =>
      ((await p.assistant.call('list_sites', {})).structuredContent as any).siteEntry.map(
        (s: any) => s.siteUrl,
      )
    expect(await sitesOf(everyOne)).toContain(`https://blog.${everyOne.user}.example/`)
    expect(await sitesOf(chosen)).toEqual([chosen.sites[0]])
    await refusedUnsent(chosen.assistant, 'search', 'get_site', { siteUrl: added }, added)
    await Promise.all([everyOne.assistant.close(), chosen.assistant.close()])
  })

  it('two hundred properties ticked: the choice (over 4 KiB) is read whole, and the tools name them', async () => {
    const user = `coverage-many-${++people}`
    for (let i = 1; i <= 200; i++)
      await suite.sandboxRequest('POST', `/_sandbox/users/${user}/properties`, {
        json: { displayName: `shop${i}.client.example`, account: 'Client Ltd' },
      })
    const { properties } = (await suite.sandboxRequest('GET', `/_sandbox/users/${user}`)).body
    const ticked = (properties as string[]).slice(2).map((id) => `properties/${id}`)
    expect(ticked).toHaveLength(200)
    const person = suite.person(user)
    person.covers = ticked
    const { tokens } = await suite.connect({ person, service: 'analytics' })
    const assistant = await assistantV2(suite.resource('analytics'), tokens.access_token, undefined)
    const report = (await assistant.listTools()).find((tool) => tool.name === 'run_report')!
    const field = report.inputSchema.properties!.propertiesId as any
    expect(field.description).toMatch(/only its 200 properties, 200 in all: the first 50/)
    expect(field.anyOf[0].oneOf[0]).toEqual({
      const: ticked[0]!.slice('properties/'.length),
      title: 'shop1.client.example (Client Ltd)',
    })
    // Past the first 50, one of them is used all the same.
    const last = ticked.at(-1)!.slice('properties/'.length)
    const used = await assistant.call('get_metadata', { propertiesId: last })
    expect(used.isError ?? false, textOf(used)).toBe(false)
    await assistant.close()
  })
})
