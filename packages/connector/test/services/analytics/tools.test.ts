import { describe, expect, it } from 'vitest'
import { ERAS, type Era } from '../../support/mcp-client.js'
import { connectorForSuite } from '../../support/connector.js'
import { serviceTools } from '../../support/service-tools.js'

/**
 * The analytics tools through the real connector and sandbox, with the MCP SDK's own client,
 * authorized through the real flow for the analytics service, under both protocol revisions.
 */

const suite = connectorForSuite()

const tools = serviceTools(suite, 'analytics', 'analyst')
const { definition, structured, text } = tools

/** A person connected to the analytics service, their MCP client, and their two properties. */
async function analyst(era: Era) {
  const connected = await tools.newPerson(era)
  const assets = await suite.sandboxRequest('GET', `/_sandbox/users/${connected.person.user}`)
  return { ...connected, properties: assets.body.properties as [string, string] }
}

/** The analytics API calls the sandbox received since `from`, as "METHOD path status". */
async function upstreamCalls(from = 0) {
  const { next, calls } = await tools.upstreamCalls(from)
  return { next, calls: calls.map((e) => `${e.method} ${e.path} ${e.status}`) }
}

/** The call the connector makes for `tool` on a property, as upstreamCalls shows it. */
const sent = (tool: string, propertiesId: string, status = 200) => {
  const { method } = definition(tool)
  return `${method} ${suite.providerPath(tool, { propertiesId })} ${status}`
}

/** The provider's own metadata of a property, at the sandbox's own paths (Google's data too). */
async function providerMetadata(person: { user: string }, propertiesId: string) {
  const minted = await suite.sandboxRequest('POST', '/_sandbox/tokens', {
    json: { user: person.user, scopes: ['analytics.readonly'] },
  })
  const answer = await suite.sandboxRequest(
    'GET',
    `/analytics/v1/properties/${propertiesId}/metadata`,
    { token: minted.body.access_token },
  )
  expect(answer.status, answer.text).toBe(200)
  return answer.body as { dimensions: any[]; metrics: any[] }
}

/** An entry as get_metadata gives it whole: the provider's, its type as tables write it. */
const whole = (entry: Record<string, any>) =>
  entry.type ? { ...entry, type: entry.type.replace(/^TYPE_/, '').toLowerCase() } : entry

const LAST_WEEK = [{ startDate: '7daysAgo', endDate: 'yesterday' }]

describe.each(ERAS)('the analytics tools, protocol %s', (era) => {
  it('tools/list: the provider’s four reads, with schemas, hints and scope', async () => {
    const { client } = await analyst(era)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_metadata',
      'run_realtime_report',
      'run_report',
      'run_reports',
    ])
    for (const tool of tools) {
      expect(tool.description).toBe(definition(tool.name).description)
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
      expect(tool.inputSchema.required).toContain('propertiesId')
      expect(tool.outputSchema).toMatchObject({ type: 'object' })
      expect(tool.annotations).toMatchObject({ readOnlyHint: true })
      expect(tool._meta).toMatchObject({ 'countersign/scope': 'analytics.readonly' })
    }
    await client.close()
  })

  it('get_metadata, then run_report: a table of the provider’s rows, numbers by type, paged with nextOffset', async () => {
    const { call, properties, client, person } = await analyst(era)
    const metadata = structured(
      'get_metadata',
      await call('get_metadata', { propertiesId: properties[0] }),
    )
    expect(metadata.dimensions.Geography.map(([apiName]: string[]) => apiName)).toContain('country')

    const args = {
      propertiesId: properties[0],
      dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }],
      dimensions: [{ name: 'date' }, { name: 'deviceCategory' }],
      metrics: [{ name: 'activeUsers' }, { name: 'engagementRate' }],
      orderBys: [{ dimension: { dimensionName: 'date' } }],
      limit: 30,
    }
    const report = (more: Record<string, unknown>) =>
      call('run_report', { ...args, ...more }).then((result) => structured('run_report', result))
    const first = await report({})
    expect(first.dimensions).toEqual(['date', 'deviceCategory'])
    expect(first.metrics).toEqual([
      { name: 'activeUsers', type: 'integer' },
      { name: 'engagementRate', type: 'float' },
    ])
    expect(first.rows).toHaveLength(30)
    expect(first.nextOffset).toBe(30)
    expect(first.metadata).toEqual({
      currencyCode: expect.any(String),
      timeZone: expect.any(String),
    })
    const second = await report({ offset: first.nextOffset })
    expect(second.rowCount).toBe(first.rowCount)
    expect(second.nextOffset).toBe(60)
    const all = await report({ limit: 1000 })
    expect(all.nextOffset).toBeUndefined()
    expect([...first.rows, ...second.rows]).toEqual(all.rows.slice(0, 60))

    // Row for row the provider's own answer: the dimensions its text, the metrics numbers, a
    // rate to four significant digits.
    const { propertiesId, ...body } = { ...args, limit: 1000 }
    const provider = await tools.providerAnswer(
      person,
      `/analytics/v1/properties/${propertiesId}/report`,
      body,
    )
    expect(all.rowCount).toBe(provider.rowCount)
    expect(all.rows).toEqual(
      provider.rows.map((row: any) => [
        ...row.dimensionValues.map((v: { value: string }) => v.value),
        Number(row.metricValues[0].value),
        Number(Number(row.metricValues[1].value).toPrecision(4)),
      ]),
    )

    // Left to the tool: 100 rows, the next page named; totals kept as rows of their own.
    const { propertiesId: id, dateRanges, dimensions, metrics } = args
    const sized = structured(
      'run_report',
      await call('run_report', {
        ...{ propertiesId: id, dateRanges, dimensions, metrics },
        metricAggregations: ['TOTAL'],
      }),
    )
    expect(sized.rows).toHaveLength(Math.min(100, sized.rowCount))
    if (sized.rowCount > 100) expect(sized.nextOffset).toBe(100)
    expect(sized.totals).toHaveLength(1)
    expect(sized.totals[0].slice(0, 2)).toEqual(['RESERVED_TOTAL', 'RESERVED_TOTAL'])
    expect(typeof sized.totals[0][2]).toBe('number')
    await client.close()
  })

  it('get_metadata without a filter: every name, by category, in compact rows', async () => {
    const { call, properties, client, person } = await analyst(era)
    const { next } = await upstreamCalls()
    const index = structured(
      'get_metadata',
      await call('get_metadata', { propertiesId: properties[1] }),
    )
    expect((await upstreamCalls(next)).calls).toEqual([sent('get_metadata', properties[1])])
    expect(index.columns).toEqual({
      dimensions: ['apiName', 'uiName'],
      metrics: ['apiName', 'type', 'uiName'],
    })
    expect(index.more).toMatch(/names .*category or search/)
    const categories = Object.keys(index.dimensions)
    expect(categories).toEqual([...categories].sort((a, b) => a.localeCompare(b, 'en')))

    // Row for row the provider's entries, in its order within each category.
    const provider = await providerMetadata(person, properties[1])
    const rowOf = (entry: any, ...typed: string[]) => {
      const respelled =
        entry.uiName.toLowerCase().replace(/[^a-z0-9]/g, '') ===
        entry.apiName.toLowerCase().replace(/[^a-z0-9]/g, '')
      return [entry.apiName, ...typed, ...(respelled ? [] : [entry.uiName])]
    }
    const byCategory = (entries: any[], row: (entry: any) => string[]) => {
      const groups: Record<string, string[][]> = {}
      for (const entry of entries) (groups[entry.category] ??= []).push(row(entry))
      return groups
    }
    expect(index.dimensions).toEqual(byCategory(provider.dimensions, (d) => rowOf(d)))
    expect(index.metrics).toEqual(
      byCategory(provider.metrics, (m) => rowOf(m, m.type.replace(/^TYPE_/, '').toLowerCase())),
    )
    expect(index.metrics.Session).toContainEqual(['sessions', 'integer'])
    expect(index.metrics['Page / Screen']).toContainEqual(['screenPageViews', 'integer', 'Views'])

    // The property's own definitions and the metrics this person cannot see, named.
    const custom = [...provider.dimensions, ...provider.metrics].filter((e) => e.customDefinition)
    expect(index.custom).toEqual(custom.map((e) => e.apiName))
    expect(index.custom).toContain('customUser:membership_tier')
    expect(index.blocked).toEqual({
      NO_COST_METRICS: provider.metrics
        .filter((m) => m.blockedReasons?.includes('NO_COST_METRICS'))
        .map((m) => m.apiName),
    })
    await client.close()
  })

  it('get_metadata with names: those entries whole, deprecated names too, the unknown ones named', async () => {
    const { call, properties, client, person } = await analyst(era)
    const asked = structured(
      'get_metadata',
      await call('get_metadata', {
        propertiesId: properties[0],
        names: ['sessions', 'countryIsoCode', 'sesions', 'advertiserAdCost'],
      }),
    )
    const provider = await providerMetadata(person, properties[0])
    const entry = (list: any[], apiName: string) => whole(list.find((e) => e.apiName === apiName))
    expect(asked).toEqual({
      matches: 3,
      notFound: { sesions: ['sessions'] },
      dimensions: [entry(provider.dimensions, 'countryId')],
      metrics: [
        entry(provider.metrics, 'advertiserAdCost'),
        entry(provider.metrics, 'sessions'),
      ].sort(
        (a, b) =>
          provider.metrics.findIndex((m) => m.apiName === a.apiName) -
          provider.metrics.findIndex((m) => m.apiName === b.apiName),
      ),
    })
    expect(asked.dimensions[0]).toMatchObject({
      deprecatedApiNames: ['countryIsoCode'],
      description: expect.stringMatching(/\w/),
    })
    expect(asked.metrics).toContainEqual(
      expect.objectContaining({ apiName: 'advertiserAdCost', blockedReasons: ['NO_COST_METRICS'] }),
    )
    await client.close()
  })

  it('get_metadata by category and search: the matching entries whole, paged with nextOffset', async () => {
    const { call, properties, client, person } = await analyst(era)
    const metadata = (args: Record<string, unknown>) =>
      call('get_metadata', { propertiesId: properties[0], ...args }).then((result) =>
        structured('get_metadata', result),
      )
    const provider = await providerMetadata(person, properties[0])
    const traffic = provider.dimensions.filter((d) => d.category === 'Traffic Source').map(whole)
    expect(traffic.length).toBeGreaterThan(100)

    const first = await metadata({ category: 'traffic source' })
    expect(first.matches).toBe(traffic.length)
    expect(first.nextOffset).toBe(50)
    expect(first.dimensions).toEqual(traffic.slice(0, 50))
    expect(first.metrics).toEqual([])
    const pages = [first]
    while (pages.at(-1)!.nextOffset)
      pages.push(await metadata({ category: 'Traffic Source', offset: pages.at(-1)!.nextOffset }))
    expect(pages.flatMap((page) => page.dimensions)).toEqual(traffic)

    // Filters together: entries that match them all.
    const sessionSources = await metadata({ category: 'Traffic Source', search: 'session SOURCE' })
    expect(sessionSources.dimensions.map((d: any) => d.apiName)).toContain('sessionSource')
    for (const d of sessionSources.dimensions)
      expect(`${d.apiName} ${d.uiName} ${d.description}`.toLowerCase()).toMatch(
        /^(?=.*session)(?=.*source)/s,
      )
    const bounce = await metadata({ search: 'bounce rate' })
    expect(bounce.metrics.map((m: any) => m.apiName)).toContain('bounceRate')

    // A category the property does not have: none, and the ones it has.
    const none = await metadata({ category: 'Weather' })
    expect(none).toMatchObject({ matches: 0, dimensions: [], metrics: [] })
    expect(none.categories).toEqual(expect.arrayContaining(['Geography', 'Traffic Source']))
    await client.close()
  })

  it.each([
    ['offset alone', { offset: 50 }, /offset pages the entries of names, category or search/],
    ['no names but an offset', { names: [], offset: 50 }, /offset pages the entries/],
    ['51 names', { names: Array.from({ length: 51 }, (_, i) => `n${i}`) }, /at most 50 names/],
    ['a blank search', { search: '  ' }, /search must not be empty/],
  ])('get_metadata with %s: isError saying what to change, nothing sent', async (_, args, says) => {
    const { call, properties, client } = await analyst(era)
    const { next } = await upstreamCalls()
    const result = await call('get_metadata', { propertiesId: properties[0], ...args })
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(says)
    expect((await upstreamCalls(next)).calls).toEqual([])
    await client.close()
  })

  it('run_report takes a deprecated name, as the provider does', async () => {
    const { call, properties, client } = await analyst(era)
    const report = structured(
      'run_report',
      await call('run_report', {
        propertiesId: properties[0],
        dateRanges: LAST_WEEK,
        dimensions: [{ name: 'countryIsoCode' }],
        metrics: [{ name: 'sessions' }, { name: 'itemViews' }],
        limit: 3,
      }),
    )
    expect(report.dimensions).toEqual(['countryIsoCode'])
    expect(report.metrics.map((m: { name: string }) => m.name)).toEqual(['sessions', 'itemViews'])
    expect(report.rows.length).toBeGreaterThan(0)
    await client.close()
  })

  it('run_realtime_report and run_reports: tables, one per report', async () => {
    const { call, properties, client } = await analyst(era)
    const realtime = structured(
      'run_realtime_report',
      await call('run_realtime_report', {
        propertiesId: properties[1],
        dimensions: [{ name: 'minutesAgo' }],
        metrics: [{ name: 'activeUsers' }],
        minuteRanges: [{ startMinutesAgo: 9, endMinutesAgo: 0 }],
      }),
    )
    expect(realtime.dimensions).toEqual(['minutesAgo'])
    expect(realtime.metrics).toEqual([{ name: 'activeUsers', type: 'integer' }])
    expect(realtime.rowCount).toBe(10)
    expect(realtime.nextOffset).toBeUndefined()
    for (const [minute, users] of realtime.rows) {
      expect(minute).toMatch(/^0\d$/)
      expect(typeof users).toBe('number')
    }

    const batch = structured(
      'run_reports',
      await call('run_reports', {
        propertiesId: properties[1],
        requests: [
          {
            dateRanges: LAST_WEEK,
            dimensions: [{ name: 'country' }],
            metrics: [{ name: 'sessions' }],
            limit: 3,
          },
          {
            dateRanges: LAST_WEEK,
            dimensions: [{ name: 'sessionDefaultChannelGroup' }],
            metrics: [{ name: 'sessions' }],
            offset: 1,
          },
        ],
      }),
    )
    expect(batch.reports.map((r: any) => r.dimensions)).toEqual([
      ['country'],
      ['sessionDefaultChannelGroup'],
    ])
    const [countries, channels] = batch.reports
    expect(countries.rows).toHaveLength(3)
    expect(countries.nextOffset).toBe(3)
    expect(channels.rows).toHaveLength(channels.rowCount - 1)
    expect(channels.nextOffset).toBeUndefined()
    await client.close()
  })

  it('run_report with dimensionFilter {} and metricFilter {}, as a form sends them: the report with no filter', async () => {
    const { call, properties, client } = await analyst(era)
    const args = {
      propertiesId: properties[0],
      dateRanges: LAST_WEEK,
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'sessions' }],
    }
    const plain = structured('run_report', await call('run_report', args))
    const { next } = await upstreamCalls()
    const emptied = structured(
      'run_report',
      await call('run_report', {
        ...args,
        dimensionFilter: {},
        metricFilter: {},
        orderBys: [],
        metricAggregations: [],
      }),
    )
    expect(emptied).toEqual(plain)
    expect(emptied.rowCount).toBeGreaterThan(1)
    expect((await upstreamCalls(next)).calls).toEqual([sent('run_report', properties[0])])
    // A filter that is one still filters.
    const france = structured(
      'run_report',
      await call('run_report', {
        ...args,
        dimensionFilter: { filter: { fieldName: 'country', stringFilter: { value: 'France' } } },
      }),
    )
    expect(france.rows.map(([country]: string[]) => country)).toEqual(['France'])
    await client.close()
  })

  it('run_realtime_report with minuteRanges []: the whole last 30 minutes', async () => {
    const { call, properties, client } = await analyst(era)
    const args = {
      propertiesId: properties[1],
      dimensions: [{ name: 'minutesAgo' }],
      metrics: [{ name: 'activeUsers' }],
      orderBys: [{ dimension: { dimensionName: 'minutesAgo' } }],
    }
    const minutes = (table: Record<string, any>) => table.rows.map(([minute]: string[]) => minute)
    const last30 = Array.from({ length: 30 }, (_, i) => String(i).padStart(2, '0'))
    const emptied = structured(
      'run_realtime_report',
      await call('run_realtime_report', { ...args, minuteRanges: [], dimensionFilter: {} }),
    )
    expect(minutes(emptied)).toEqual(last30)
    const plain = structured('run_realtime_report', await call('run_realtime_report', args))
    expect(minutes(plain)).toEqual(last30)
    await client.close()
  })

  it('get_metadata with names []: the index of every name, as without a filter', async () => {
    const { call, properties, client } = await analyst(era)
    const index = structured(
      'get_metadata',
      await call('get_metadata', { propertiesId: properties[0], names: [] }),
    )
    expect(index.columns).toEqual({
      dimensions: ['apiName', 'uiName'],
      metrics: ['apiName', 'type', 'uiName'],
    })
    await client.close()
  })

  it.each([
    [
      { propertiesId: 'properties/123', dateRanges: LAST_WEEK, metrics: [{ name: 'sessions' }] },
      /propertiesId takes the number only: give "123"/,
    ],
    [
      {
        propertiesId: '123',
        dateRanges: [{ startDate: '7daysAgo', endDate: '9daysAgo' }],
        metrics: [{ name: 'sessions' }],
      },
      /swap them/,
    ],
    [
      {
        propertiesId: '123',
        dateRanges: LAST_WEEK,
        metrics: [{ name: 'sessions' }],
        limit: 300_000,
      },
      /limit must be at most 250,000/,
    ],
    [{ propertiesId: '123', dateRanges: LAST_WEEK, metrics: [] }, /at least one metric/],
  ])(
    'bad arguments %j: isError saying what to change, no report asked of the provider',
    async (args, says) => {
      const { call, client } = await analyst(era)
      const { next } = await upstreamCalls()
      const result = await call('run_report', args)
      expect(result.isError).toBe(true)
      expect(text(result)).toMatch(says)
      // A wrong propertiesId is answered with the grant's properties, their names read first.
      expect(text(result)).toMatch(/Nothing was (sent to|done at) the provider/)
      const reports = (await upstreamCalls(next)).calls.filter((c) => c.includes('/properties/'))
      expect(reports).toEqual([])
      await client.close()
    },
  )

  it('an unknown name: refused with the nearest one, after one metadata read and no report', async () => {
    const { call, properties, client } = await analyst(era)
    const { next } = await upstreamCalls()
    const result = await call('run_report', {
      propertiesId: properties[0],
      dateRanges: LAST_WEEK,
      metrics: [{ name: 'sesions' }],
    })
    expect(result.isError).toBe(true)
    expect(text(result)).toContain(
      `"sesions" is not a metric of property ${properties[0]}; did you mean "sessions"?`,
    )
    expect((await upstreamCalls(next)).calls).toEqual([sent('get_metadata', properties[0])])
    await client.close()
  })

  it('a warm report makes exactly one upstream call', async () => {
    const { call, properties, client } = await analyst(era)
    const args = {
      propertiesId: properties[1],
      dateRanges: LAST_WEEK,
      metrics: [{ name: 'sessions' }],
    }
    let { next } = await upstreamCalls()
    structured('run_report', await call('run_report', args))
    expect((await upstreamCalls(next)).calls).toEqual([
      sent('get_metadata', properties[1]),
      sent('run_report', properties[1]),
    ])
    ;({ next } = await upstreamCalls())
    structured('run_report', await call('run_report', { ...args, dimensions: [{ name: 'city' }] }))
    expect((await upstreamCalls(next)).calls).toEqual([sent('run_report', properties[1])])
    ;({ next } = await upstreamCalls())
    const realtime = await call('run_realtime_report', {
      propertiesId: properties[1],
      metrics: [{ name: 'activeUsers' }],
    })
    structured('run_realtime_report', realtime)
    expect((await upstreamCalls(next)).calls).toEqual([sent('run_realtime_report', properties[1])])
    await client.close()
  })

  it('an incompatible pair: the provider’s words on which field to remove', async () => {
    const { call, properties, client } = await analyst(era)
    const result = await call('run_report', {
      propertiesId: properties[0],
      dateRanges: LAST_WEEK,
      dimensions: [{ name: 'itemName' }],
      metrics: [{ name: 'sessions' }],
    })
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(
      /The provider rejected the arguments as invalid\. The provider says: Please remove sessions to make the request compatible/,
    )
    await client.close()
  })

  it("another person's property: refused access, with the provider's words", async () => {
    const { call, client } = await analyst(era)
    const other = await suite.sandboxRequest('GET', `/_sandbox/users/someone-else-${era}`)
    const result = await call('run_report', {
      propertiesId: other.body.properties[0],
      dateRanges: LAST_WEEK,
      metrics: [{ name: 'sessions' }],
    })
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(
      /^The provider refused access\. The provider says: User does not have sufficient permissions for this property/,
    )
    await client.close()
  })
})
