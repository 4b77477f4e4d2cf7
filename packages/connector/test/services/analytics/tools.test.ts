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

const LAST_WEEK = [{ startDate: '7daysAgo', endDate: 'yesterday' }]

describe.each(ERAS)('the analytics tools, protocol %s', (era) => {
  it('tools/list: list_properties, then the seed’s four reads, with schemas, hints and scope', async () => {
    const { client } = await analyst(era)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_properties',
      'get_metadata',
      'run_realtime_report',
      'run_report',
      'run_reports',
    ])
    for (const tool of tools) {
      expect(tool.description).toBe(definition(tool.name).description)
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
      if (tool.name !== 'list_properties')
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
    expect(metadata.name).toBe(`properties/${properties[0]}/metadata`)
    expect(metadata.dimensions.map((d: any) => d.apiName)).toContain('country')

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
    'bad arguments %j: isError saying what to change, nothing sent upstream',
    async (args, says) => {
      const { call, client } = await analyst(era)
      const { next } = await upstreamCalls()
      const result = await call('run_report', args)
      expect(result.isError).toBe(true)
      expect(text(result)).toMatch(says)
      expect(text(result)).toMatch(/Nothing was sent to the provider/)
      expect((await upstreamCalls(next)).calls).toEqual([])
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
