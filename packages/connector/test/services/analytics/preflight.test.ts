import { beforeEach, describe, expect, it } from 'vitest'
import type { ProviderReader } from '../../../src/services/definition.js'
import { GENERIC_PROFILE } from '../../../src/services/profiles/generic.js'
import { forgetMetadata, nearest } from '../../../src/services/analytics/names.js'
import { runRealtimeReport, runReport, runReports } from '../../../src/services/analytics/tools.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'

/**
 * The report tools' preflight against the real sandbox: names are checked against the
 * property's metadata, read through a ProviderReader as the connector's would (one GET as the
 * grant), and an unknown name comes back with the nearest valid ones.
 */

const sandbox = sandboxForSuite()

/** A ProviderReader over fetch on one sandbox token, counting its calls. */
function reader(token: string): ProviderReader & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async get(operation, params) {
      const { path } = GENERIC_PROFILE.operations[operation]!
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(params[name]!),
      )
      calls.push(filled)
      const res = await fetch(`${sandbox.url}/analytics/v1${filled}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      if (!res.ok) throw new Error(`GET ${filled}: ${res.status}`)
      return res.json()
    },
  }
}

let people = 0
async function person() {
  const user = `preflight${++people}`
  const token = await sandbox.token(user, ['analytics.readonly'])
  const { properties } = (await sandbox.request('GET', `/_sandbox/users/${user}`)).body
  return { user, token, properties: properties as [string, string], provider: reader(token) }
}

const report = (propertiesId: string, fields: Record<string, unknown> = {}) => ({
  propertiesId,
  dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
  metrics: [{ name: 'sessions' }],
  ...fields,
})

const check = (args: Record<string, unknown>, provider: ProviderReader) =>
  runReport.preflight!(runReport.input.parse(args) as any, provider)

describe('analytics preflight: names against the property', () => {
  beforeEach(() => forgetMetadata())

  it('known names pass; an unknown metric is named with the nearest valid one', async () => {
    const p = await person()
    const id = p.properties[0]
    expect(
      await check(report(id, { dimensions: [{ name: 'country' }] }), p.provider),
    ).toBeUndefined()
    const problem = await check(report(id, { metrics: [{ name: 'sesions' }] }), p.provider)
    expect(problem).toBe(
      `"sesions" is not a metric of property ${id}; did you mean "sessions"? Call get_metadata for all of the property's dimensions and metrics.`,
    )
  })

  it.each([
    [
      'dimensions',
      'contry',
      /"contry" is not a dimension of property \d+; did you mean "country"\?/,
    ],
    ['dimensions', 'PagePath', /did you mean "pagePath"/],
    ['metrics', 'pageviews', /"pageviews" is not a metric .*did you mean "screenPageViews"/],
    ['metrics', 'activeUser', /did you mean "activeUsers"/],
    [
      'dimensions',
      'sessions',
      /"sessions" is not a dimension of property \d+; it is a metric: move it to metrics/,
    ],
    [
      'metrics',
      'country',
      /"country" is not a metric of property \d+; it is a dimension: move it to dimensions/,
    ],
    ['metrics', 'qqqqqqq', /^"qqqqqqq" is not a metric of property \d+\. Call get_metadata/],
  ])('%s %s: %s', async (field, name, says) => {
    const p = await person()
    const fields = field === 'dimensions' ? { dimensions: [{ name }] } : { metrics: [{ name }] }
    expect(await check(report(p.properties[0], fields), p.provider)).toMatch(says)
  })

  it('a deprecated name passes, as the provider still answers it; of the other kind, it is moved', async () => {
    const p = await person()
    const id = p.properties[0]
    const fields = {
      dimensions: [{ name: 'countryIsoCode' }],
      metrics: [{ name: 'sessions' }, { name: 'itemViews' }],
    }
    expect(await check(report(id, fields), p.provider)).toBeUndefined()
    expect(await check(report(id, { metrics: [{ name: 'countryIsoCode' }] }), p.provider)).toMatch(
      /"countryIsoCode" is not a metric of property \d+; it is a dimension: move it/,
    )
  })

  it('filter field names are checked too, each against its kind', async () => {
    const p = await person()
    const problem = await check(
      report(p.properties[0], {
        dimensionFilter: { filter: { fieldName: 'sessions', stringFilter: { value: '1' } } },
        metricFilter: {
          filter: {
            fieldName: 'engagmentRate',
            numericFilter: { operation: 'GREATER_THAN', value: { doubleValue: 0.5 } },
          },
        },
      }),
      p.provider,
    )
    expect(problem).toMatch(
      /"sessions" in dimensionFilter is not a dimension of property \d+; it is a metric: filter it in metricFilter/,
    )
    expect(problem).toMatch(
      /"engagmentRate" in metricFilter is not a metric of property \d+; did you mean "engagementRate"\?/,
    )
  })

  it("a custom dimension is the property's own: another property's is unknown here", async () => {
    const p = await person()
    const [first, second] = p.properties
    const metadata = (await p.provider.get('get_metadata', {
      propertiesId: second,
    })) as any
    const own = (await p.provider.get('get_metadata', {
      propertiesId: first,
    })) as any
    const ownNames = own.dimensions.map((d: any) => d.apiName)
    const foreign = metadata.dimensions
      .map((d: any) => d.apiName)
      .find((name: string) => name.startsWith('customEvent:') && !ownNames.includes(name))
    const fields = { dimensions: [{ name: foreign }], metrics: [{ name: 'eventCount' }] }
    expect(await check(report(second, fields), p.provider)).toBeUndefined()
    expect(await check(report(first, fields), p.provider)).toMatch(
      `"${foreign}" is not a dimension of property ${first}`,
    )
  })

  it('run_reports says which request holds the unknown name', async () => {
    const p = await person()
    const { propertiesId: _, ...request } = report(p.properties[0])
    const args = runReports.input.parse({
      propertiesId: p.properties[0],
      requests: [request, { ...request, dimensions: [{ name: 'devicecategory' }] }],
    })
    expect(await runReports.preflight!(args as any, p.provider)).toMatch(
      /^requests\[1\]: "devicecategory" is not a dimension of property \d+; did you mean "deviceCategory"\?/,
    )
  })

  describe('the metadata read', () => {
    it('is kept: a warm check makes no call; an unknown name on kept metadata reads it again', async () => {
      const p = await person()
      const id = p.properties[0]
      await check(report(id), p.provider)
      expect(p.provider.calls).toEqual([`/properties/${id}/metadata`])
      await check(report(id, { dimensions: [{ name: 'city' }] }), p.provider)
      expect(p.provider.calls).toHaveLength(1)
      expect(await check(report(id, { metrics: [{ name: 'nope' }] }), p.provider)).toMatch(/"nope"/)
      expect(p.provider.calls).toHaveLength(2)
    })

    it("is never used to refuse on another grant's behalf: the refusal re-reads as this grant", async () => {
      const [owner, stranger] = [await person(), await person()]
      const id = owner.properties[0]
      await check(report(id), owner.provider)
      // Known names pass on what is kept (the report call itself is then refused by the provider).
      expect(await check(report(id), stranger.provider)).toBeUndefined()
      expect(stranger.provider.calls).toEqual([])
      // An unknown name is only refused after reading as this grant: here the provider says 403.
      await expect(
        check(report(id, { metrics: [{ name: 'sesions' }] }), stranger.provider),
      ).rejects.toThrow(/403/)
    })
  })

  it('realtime names are checked against the realtime set, with no call', async () => {
    const p = await person()
    const realtime = (fields: Record<string, unknown>) =>
      runRealtimeReport.preflight!(
        runRealtimeReport.input.parse({
          propertiesId: p.properties[0],
          metrics: [{ name: 'activeUsers' }],
          ...fields,
        }) as any,
        p.provider,
      )
    expect(
      await realtime({ dimensions: [{ name: 'minutesAgo' }, { name: 'customUser:tier' }] }),
    ).toBeUndefined()
    expect(await realtime({ dimensions: [{ name: 'date' }] })).toMatch(
      /^"date" is not a dimension of realtime reports/,
    )
    expect(await realtime({ metrics: [{ name: 'sessions' }] })).toMatch(
      /"sessions" is not a metric of realtime reports/,
    )
    expect(await realtime({ dimensions: [{ name: 'cuntry' }] })).toMatch(/did you mean "country"\?/)
    expect(p.provider.calls).toEqual([])
  })
})

describe('nearest names', () => {
  const names = [
    'sessions',
    'engagedSessions',
    'activeUsers',
    'newUsers',
    'totalUsers',
    'screenPageViews',
  ]
  it.each([
    ['sesions', ['sessions']],
    ['SESSIONS', ['sessions']],
    ['users', ['newUsers', 'totalUsers', 'activeUsers']],
    ['totalusers', ['totalUsers']],
    ['pageViews', ['screenPageViews']],
    ['xyz', []],
  ])('%s -> %j', (name, expected) => {
    expect(nearest(name, names)).toEqual(expected)
  })
})
