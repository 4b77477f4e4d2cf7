import { afterEach, describe, expect, it, vi } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  analyticsUser,
  column,
  dims,
  invalid,
  LAST_28_DAYS,
  metrics,
  names,
  sum,
  table,
} from './client.js'

const sandbox = sandboxForSuite()

/** The date a time zone is at, now, as YYYY-MM-DD. */
const localDate = (timeZone: string, at = Date.now()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(at)
const compact = (iso: string) => iso.replaceAll('-', '')
const daysBefore = (iso: string, n: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)

describe('analytics API: runReport', () => {
  afterEach(() => vi.useRealTimers())

  it('answers in the real API shape: headers, rows of strings, rowCount, metadata, kind', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: LAST_28_DAYS,
      dimensions: dims('country', 'deviceCategory'),
      metrics: metrics('activeUsers', 'engagementRate', 'averageSessionDuration', 'totalRevenue'),
    })
    expect(report.kind).toBe('analyticsData#runReport')
    expect(names(report.dimensionHeaders)).toEqual(['country', 'deviceCategory'])
    expect(report.metricHeaders).toEqual([
      { name: 'activeUsers', type: 'TYPE_INTEGER' },
      { name: 'engagementRate', type: 'TYPE_FLOAT' },
      { name: 'averageSessionDuration', type: 'TYPE_SECONDS' },
      { name: 'totalRevenue', type: 'TYPE_CURRENCY' },
    ])
    expect(report.rowCount).toBe(report.rows.length)
    expect(report.rowCount).toBeGreaterThan(10)
    for (const row of report.rows) {
      expect(row.dimensionValues).toHaveLength(2)
      for (const { value } of [...row.dimensionValues, ...row.metricValues])
        expect(typeof value).toBe('string')
      expect(row.metricValues[0].value).toMatch(/^\d+$/)
    }
    expect(report.metadata.currencyCode).toMatch(/^[A-Z]{3}$/)
    expect(report.metadata.timeZone).toMatch(/\//)
    // By default, rows come by the first metric, largest first.
    const users = column(report, 0)
    expect(users).toEqual([...users].sort((a, b) => b - a))
  })

  it('is deterministic: the same request gives the same report', async () => {
    const u = await analyticsUser(sandbox)
    const body = {
      dateRanges: LAST_28_DAYS,
      dimensions: dims('date'),
      metrics: metrics('sessions'),
    }
    expect(await u.report(body)).toEqual(await u.report(body))
  })

  it('without dimensions: one row without dimensionValues, and no dimensionHeaders', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({ dateRanges: LAST_28_DAYS, metrics: metrics('sessions') })
    expect(report.dimensionHeaders).toBeUndefined()
    expect(report.rows).toHaveLength(1)
    expect(report.rows[0].dimensionValues).toBeUndefined()
    expect(Number(report.rows[0].metricValues[0].value)).toBeGreaterThan(1000)
  })

  it('an empty report (before the property had data) has no rows and no rowCount', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: [{ startDate: '2016-01-01', endDate: '2016-03-31' }],
      dimensions: dims('country'),
      metrics: metrics('sessions'),
      metricAggregations: ['TOTAL'],
    })
    expect(report).toEqual({
      dimensionHeaders: [{ name: 'country' }],
      metricHeaders: [{ name: 'sessions', type: 'TYPE_INTEGER' }],
      metadata: report.metadata,
      kind: 'analyticsData#runReport',
    })
  })

  it('relative dates are days of the property time zone: today, yesterday, NdaysAgo', async () => {
    // A fixed clock: the day cannot turn between the test's reading of it and the sandbox's.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-05-20T12:00:00Z'))
    const u = await analyticsUser(sandbox)
    const { metadata } = await u.report({ dateRanges: LAST_28_DAYS, metrics: metrics('sessions') })
    const today = localDate(metadata.timeZone)
    const dates = async (startDate: string, endDate: string) =>
      table(
        await u.report({
          dateRanges: [{ startDate, endDate }],
          dimensions: dims('date'),
          metrics: metrics('sessions'),
          orderBys: [{ dimension: { dimensionName: 'date' } }],
        }),
      ).map((row) => row.dims[0])
    expect(await dates('yesterday', 'yesterday')).toEqual([compact(daysBefore(today, 1))])
    expect(await dates('7daysAgo', '5daysAgo')).toEqual(
      [7, 6, 5].map((n) => compact(daysBefore(today, n))),
    )
    expect(await dates('3daysAgo', 'today')).toEqual(await dates(daysBefore(today, 3), today))
    expect(await dates('0daysAgo', '0daysAgo')).toEqual([compact(today)])
  })

  it("today holds only the hours that have passed in the property's time zone", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-10T15:30:00Z'))
    const u = await analyticsUser(sandbox)
    const { metadata } = await u.report({ dateRanges: LAST_28_DAYS, metrics: metrics('sessions') })
    const hourNow = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: metadata.timeZone, hour: '2-digit' }).format(
        Date.now(),
      ),
    )
    const hours = table(
      await u.report({
        dateRanges: [{ startDate: 'today', endDate: 'today' }],
        dimensions: dims('hour'),
        metrics: metrics('sessions'),
      }),
    ).map((row) => Number(row.dims[0]))
    expect(hours.length).toBeGreaterThan(0)
    expect(Math.max(...hours)).toBeLessThanOrEqual(hourNow)
    const tomorrow = await u.report({
      dateRanges: [
        { startDate: daysBefore(localDate(metadata.timeZone), -1), endDate: '2099-01-01' },
      ],
      metrics: metrics('sessions'),
    })
    expect(tomorrow.rows).toBeUndefined()
  })

  describe('several date ranges', () => {
    it('add the dateRange dimension, last, valued by the ranges’ names', async () => {
      const u = await analyticsUser(sandbox)
      const report = await u.report({
        dateRanges: [
          { startDate: '14daysAgo', endDate: '8daysAgo' },
          { startDate: '7daysAgo', endDate: '1daysAgo', name: 'last_week' },
        ],
        dimensions: dims('deviceCategory'),
        metrics: metrics('sessions'),
        metricAggregations: ['TOTAL'],
      })
      expect(names(report.dimensionHeaders)).toEqual(['deviceCategory', 'dateRange'])
      const rows = table(report)
      expect(new Set(rows.map((r) => r.dims[1]))).toEqual(new Set(['date_range_0', 'last_week']))
      expect(rows).toHaveLength(6)
      expect(report.totals.map((t: any) => t.dimensionValues.map((v: any) => v.value))).toEqual([
        ['RESERVED_TOTAL', 'date_range_0'],
        ['RESERVED_TOTAL', 'last_week'],
      ])
      // Each range's rows are the report of that range alone.
      const alone = await u.report({
        dateRanges: [{ startDate: '7daysAgo', endDate: '1daysAgo' }],
        dimensions: dims('deviceCategory'),
        metrics: metrics('sessions'),
      })
      const byDevice = (rs: ReturnType<typeof table>) =>
        Object.fromEntries(rs.map((r) => [r.dims[0], r.metrics[0]]))
      expect(byDevice(rows.filter((r) => r.dims[1] === 'last_week'))).toEqual(
        byDevice(table(alone)),
      )
    })

    it('overlapping ranges count the shared days in both', async () => {
      const u = await analyticsUser(sandbox)
      const report = await u.report({
        dateRanges: [
          { startDate: '10daysAgo', endDate: '1daysAgo' },
          { startDate: '10daysAgo', endDate: '1daysAgo', name: 'again' },
        ],
        metrics: metrics('sessions'),
      })
      const [a, b] = table(report)
      expect(a!.metrics).toEqual(b!.metrics)
    })

    it('at most 4, and names cannot take the reserved prefixes', async () => {
      const u = await analyticsUser(sandbox)
      const range = { startDate: '7daysAgo', endDate: 'yesterday' }
      expect(
        invalid(
          await u.post('report', {
            dateRanges: Array(5).fill(range),
            metrics: metrics('sessions'),
          }),
        ),
      ).toMatch(/up to 4 date ranges/)
      for (const name of ['date_range_1', 'RESERVED_x'])
        expect(
          invalid(
            await u.post('report', {
              dateRanges: [{ ...range, name }],
              metrics: metrics('sessions'),
            }),
          ),
        ).toMatch(/cannot begin with date_range_ or RESERVED_/)
    })
  })

  it.each([
    [{ startDate: '2025-02-30', endDate: 'today' }, /startDate "2025-02-30"/],
    [{ startDate: 'last week', endDate: 'today' }, /YYYY-MM-DD/],
    [{ startDate: '3daysAgo', endDate: '5daysAgo' }, /is after endDate/],
    [{ startDate: '2025-01-10', endDate: '2025-01-01' }, /is after endDate/],
  ])('a bad date range %j: 400 saying so', async (range, says) => {
    const u = await analyticsUser(sandbox)
    expect(
      invalid(await u.post('report', { dateRanges: [range], metrics: metrics('sessions') })),
    ).toMatch(says)
  })

  it('no dateRanges: 400', async () => {
    const u = await analyticsUser(sandbox)
    expect(invalid(await u.post('report', { metrics: metrics('sessions') }))).toMatch(/dateRanges/)
  })

  describe('limit and offset', () => {
    const body = {
      dateRanges: LAST_28_DAYS,
      dimensions: dims('date', 'deviceCategory'),
      metrics: metrics('sessions'),
    }

    it('page through rows; rowCount is the whole count on every page', async () => {
      const u = await analyticsUser(sandbox)
      const all = table(await u.report(body))
      const first = await u.report({ ...body, limit: 10 })
      const second = await u.report({ ...body, limit: '10', offset: '10' })
      expect(first.rowCount).toBe(all.length)
      expect(second.rowCount).toBe(all.length)
      expect([...table(first), ...table(second)]).toEqual(all.slice(0, 20))
      const past = await u.report({ ...body, offset: all.length })
      expect(past.rows).toBeUndefined()
      expect(past.rowCount).toBe(all.length)
    })

    it('limit must be positive, offset not negative; more than 250,000 gives what there is', async () => {
      const u = await analyticsUser(sandbox)
      expect(invalid(await u.post('report', { ...body, limit: 0 }))).toMatch(
        /limit must be positive/,
      )
      expect(invalid(await u.post('report', { ...body, offset: -1 }))).toMatch(/offset/)
      expect(invalid(await u.post('report', { ...body, limit: 'ten' }))).toMatch(/'limit'/)
      const big = await u.report({ ...body, limit: 1_000_000 })
      expect(big.rows).toHaveLength(big.rowCount)
    })
  })

  describe('metricAggregations', () => {
    it('TOTAL, MAXIMUM, MINIMUM and COUNT rows, with RESERVED_ dimension values', async () => {
      const u = await analyticsUser(sandbox)
      const report = await u.report({
        dateRanges: LAST_28_DAYS,
        dimensions: dims('deviceCategory'),
        metrics: metrics('sessions', 'engagedSessions', 'engagementRate'),
        metricAggregations: ['TOTAL', 'MAXIMUM', 'MINIMUM', 'COUNT'],
        limit: 1,
      })
      const sessions = (
        await u.report({
          dateRanges: LAST_28_DAYS,
          dimensions: dims('deviceCategory'),
          metrics: metrics('sessions', 'engagedSessions'),
        })
      ).rows.map((r: any) => Number(r.metricValues[0].value))
      const [total, count] = report.totals
      expect(total.dimensionValues).toEqual([{ value: 'RESERVED_TOTAL' }])
      expect(Number(total.metricValues[0].value)).toBe(sum(sessions))
      // A rate's total is the rate of the totals, not a sum of rates.
      const [s, e, rate] = total.metricValues.map((v: any) => Number(v.value))
      expect(rate).toBeCloseTo(e / s, 12)
      expect(count.dimensionValues).toEqual([{ value: 'RESERVED_COUNT' }])
      expect(count.metricValues[0].value).toBe('3')
      expect(report.maximums[0].dimensionValues).toEqual([{ value: 'RESERVED_MAX' }])
      expect(Number(report.maximums[0].metricValues[0].value)).toBe(Math.max(...sessions))
      expect(report.minimums[0].dimensionValues).toEqual([{ value: 'RESERVED_MIN' }])
      expect(Number(report.minimums[0].metricValues[0].value)).toBe(Math.min(...sessions))
    })

    it('an unknown aggregation: 400 naming the choices', async () => {
      const u = await analyticsUser(sandbox)
      const res = await u.post('report', {
        dateRanges: LAST_28_DAYS,
        metrics: metrics('sessions'),
        metricAggregations: ['SUM'],
      })
      expect(invalid(res)).toMatch(/metric_aggregations\[0\].*TOTAL, MINIMUM, MAXIMUM, COUNT/)
    })
  })

  describe('orderBys', () => {
    const base = { dateRanges: LAST_28_DAYS, metrics: metrics('sessions') }

    it('by a metric, ascending or descending', async () => {
      const u = await analyticsUser(sandbox)
      const up = column(
        await u.report({
          ...base,
          dimensions: dims('city'),
          orderBys: [{ metric: { metricName: 'sessions' } }],
        }),
        0,
      )
      expect(up).toEqual([...up].sort((a, b) => a - b))
      const down = column(
        await u.report({
          ...base,
          dimensions: dims('city'),
          orderBys: [{ metric: { metricName: 'sessions' }, desc: true }],
        }),
        0,
      )
      expect(down).toEqual([...up].reverse().sort((a, b) => b - a))
    })

    it('by a dimension: ALPHANUMERIC, CASE_INSENSITIVE_ALPHANUMERIC, NUMERIC', async () => {
      const u = await analyticsUser(sandbox)
      const order = async (name: string, orderType: string, desc = false) =>
        table(
          await u.report({
            ...base,
            dimensions: dims(name),
            orderBys: [{ dimension: { dimensionName: name, orderType }, desc }],
          }),
        ).map((row) => row.dims[0]!)
      const browsers = await order('browser', 'ALPHANUMERIC')
      expect(browsers).toEqual([...browsers].sort())
      const sources = await order('sessionSource', 'CASE_INSENSITIVE_ALPHANUMERIC')
      expect(sources).toEqual(
        [...sources].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)),
      )
      // "9" before "10" numerically; alphanumerically "10" comes first.
      const hours = await order('hour', 'NUMERIC', true)
      expect(hours.map(Number)).toEqual([...hours].map(Number).sort((a, b) => b - a))
      const byText = await order('dayOfWeek', 'ALPHANUMERIC')
      expect(byText).toEqual(['0', '1', '2', '3', '4', '5', '6'])
    })

    it('ties are broken by the dimension values, so pages are stable', async () => {
      const u = await analyticsUser(sandbox)
      const rows = table(
        await u.report({
          ...base,
          dimensions: dims('country', 'deviceCategory'),
          metrics: metrics('sessions'),
          keepEmptyRows: true,
          orderBys: [{ dimension: { dimensionName: 'deviceCategory' } }],
        }),
      )
      const keys = rows.map((r) => r.dims.join('|'))
      expect(keys).toEqual(
        [...keys].sort((a, b) => {
          const [ca, da] = a.split('|')
          const [cb, db] = b.split('|')
          return da! < db! ? -1 : da! > db! ? 1 : ca! < cb! ? -1 : ca! > cb! ? 1 : 0
        }),
      )
    })

    it('only by what the report asks for', async () => {
      const u = await analyticsUser(sandbox)
      expect(
        invalid(
          await u.post('report', { ...base, orderBys: [{ metric: { metricName: 'newUsers' } }] }),
        ),
      ).toMatch(/OrderBy metric newUsers is not a metric of the request/)
      expect(
        invalid(
          await u.post('report', {
            ...base,
            orderBys: [{ dimension: { dimensionName: 'country' } }],
          }),
        ),
      ).toMatch(/OrderBy dimension country/)
      expect(
        invalid(
          await u.post('report', {
            ...base,
            orderBys: [{ metric: { metricName: 'sessions' }, dimension: { dimensionName: 'x' } }],
          }),
        ),
      ).toMatch(/only one of metric, dimension, pivot/)
    })
  })

  it('past 100,000 distinct rows the rest go into an (other) row, and the metadata says so', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: [{ startDate: '220daysAgo', endDate: 'yesterday' }],
      dimensions: dims('dateHour', 'city', 'pagePath', 'eventName', 'browser'),
      metrics: metrics('eventCount'),
      orderBys: [{ dimension: { dimensionName: 'dateHour' } }],
      limit: 1,
    })
    expect(report.rowCount).toBe(100_001)
    expect(table(report)[0]!.dims).toEqual(Array(5).fill('(other)'))
    expect(report.metadata.dataLossFromOtherRow).toBe(true)
    const small = await u.report({ dateRanges: LAST_28_DAYS, metrics: metrics('eventCount') })
    expect(small.metadata.dataLossFromOtherRow).toBeUndefined()
  })

  it('keepEmptyRows keeps rows whose metrics are all zero', async () => {
    const u = await analyticsUser(sandbox)
    const body = {
      dateRanges: LAST_28_DAYS,
      dimensions: dims('eventName'),
      metrics: metrics('keyEvents'),
    }
    const without = table(await u.report(body))
    const kept = table(await u.report({ ...body, keepEmptyRows: true }))
    expect(without.every((r) => r.metrics[0] !== '0')).toBe(true)
    expect(kept.some((r) => r.dims[0] === 'page_view' && r.metrics[0] === '0')).toBe(true)
    expect(kept.length).toBeGreaterThan(without.length)
  })

  it('currencyCode converts revenue and is echoed; an unknown code is refused', async () => {
    const u = await analyticsUser(sandbox)
    const body = { dateRanges: LAST_28_DAYS, metrics: metrics('totalRevenue', 'transactions') }
    const usd = await u.report({ ...body, currencyCode: 'USD' })
    const jpy = await u.report({ ...body, currencyCode: 'JPY' })
    expect(usd.metadata.currencyCode).toBe('USD')
    expect(jpy.metadata.currencyCode).toBe('JPY')
    const [dollars, yen] = [usd, jpy].map((r) => Number(r.rows[0].metricValues[0].value))
    expect(yen! / dollars!).toBeCloseTo(151, 0)
    expect(usd.rows[0].metricValues[1]).toEqual(jpy.rows[0].metricValues[1])
    expect(invalid(await u.post('report', { ...body, currencyCode: 'XYZ' }))).toMatch(
      /currencyCode/,
    )
  })

  it('returnPropertyQuota adds the quota state', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: LAST_28_DAYS,
      metrics: metrics('sessions'),
      returnPropertyQuota: true,
    })
    expect(report.propertyQuota.tokensPerDay).toMatchObject({
      consumed: expect.any(Number),
      remaining: expect.any(Number),
    })
    expect(report.propertyQuota.concurrentRequests.remaining).toBe(10)
  })

  describe('names and counts', () => {
    const base = { dateRanges: LAST_28_DAYS }

    it("unknown names: 400 with the real API's words", async () => {
      const u = await analyticsUser(sandbox)
      expect(invalid(await u.post('report', { ...base, metrics: metrics('sesions') }))).toMatch(
        /^Field sesions is not a valid metric\. For a list of valid dimensions and metrics, see https:\/\/developers\.google\.com\/analytics\/devguides\/reporting\/data\/v1\/api-schema/,
      )
      expect(
        invalid(
          await u.post('report', {
            ...base,
            dimensions: dims('contry'),
            metrics: metrics('sessions'),
          }),
        ),
      ).toMatch(/^Field contry is not a valid dimension\./)
      expect(
        invalid(
          await u.post('report', {
            ...base,
            dimensions: dims('sessions'),
            metrics: metrics('sessions'),
          }),
        ),
      ).toMatch(/sessions is a metric/)
      // Another property's custom dimension is not this one's.
      const other = await u.metadata(u.properties[1])
      const foreign = other.body.dimensions
        .filter((d: any) => d.apiName.startsWith('customEvent:'))
        .map((d: any) => d.apiName)
      const own = (await u.metadata()).body.dimensions.map((d: any) => d.apiName)
      const missing = foreign.find((name: string) => !own.includes(name))
      expect(
        invalid(
          await u.post('report', {
            ...base,
            dimensions: dims(missing),
            metrics: metrics('eventCount'),
          }),
        ),
      ).toMatch(`Field ${missing} is not a valid dimension`)
    })

    it('at most 9 dimensions, 1 to 10 metrics, each once', async () => {
      const u = await analyticsUser(sandbox)
      const ten = [
        'date',
        'hour',
        'country',
        'city',
        'browser',
        'deviceCategory',
        'operatingSystem',
        'sessionSource',
        'sessionMedium',
        'landingPage',
      ]
      expect(
        invalid(
          await u.post('report', {
            ...base,
            dimensions: dims(...ten),
            metrics: metrics('sessions'),
          }),
        ),
      ).toMatch(/up to 9 dimensions/)
      const nine = await u.report({
        ...base,
        dimensions: dims(...ten.slice(0, 9)),
        metrics: metrics('sessions'),
        limit: 1,
      })
      expect(nine.dimensionHeaders).toHaveLength(9)
      expect(invalid(await u.post('report', { ...base, metrics: [] }))).toMatch(
        /at least one metric/,
      )
      const eleven = [
        'activeUsers',
        'newUsers',
        'totalUsers',
        'sessions',
        'engagedSessions',
        'engagementRate',
        'bounceRate',
        'screenPageViews',
        'eventCount',
        'keyEvents',
        'userEngagementDuration',
      ]
      expect(invalid(await u.post('report', { ...base, metrics: metrics(...eleven) }))).toMatch(
        /up to 10 metrics/,
      )
      expect(
        invalid(await u.post('report', { ...base, metrics: metrics('sessions', 'sessions') })),
      ).toMatch(/more than once/)
    })

    it("unknown fields: Google's JSON parser's words, with the field's path", async () => {
      const u = await analyticsUser(sandbox)
      expect(
        invalid(await u.post('report', { ...base, metrics: metrics('sessions'), rowLimit: 5 })),
      ).toBe('Invalid JSON payload received. Unknown name "rowLimit": Cannot find field.')
      expect(
        invalid(
          await u.post('report', {
            dateRanges: [{ startDate: 'today', endDate: 'today', label: 'x' }],
            metrics: metrics('sessions'),
          }),
        ),
      ).toBe(
        `Invalid JSON payload received. Unknown name "label" at 'date_ranges[0]': Cannot find field.`,
      )
    })

    it('fields the sandbox does not implement are refused by name', async () => {
      const u = await analyticsUser(sandbox)
      expect(
        invalid(await u.post('report', { ...base, metrics: metrics('sessions'), cohortSpec: {} })),
      ).toMatch(/cohortSpec is not supported/)
      expect(
        invalid(
          await u.post('report', {
            ...base,
            metrics: [{ name: 'perSession', expression: 'eventCount/sessions' }],
          }),
        ),
      ).toMatch(/expression is not supported/)
    })

    it('a property in the body must be the path’s', async () => {
      const u = await analyticsUser(sandbox)
      const body = { ...base, metrics: metrics('sessions') }
      expect(
        (await u.post('report', { ...body, property: `properties/${u.property}` })).status,
      ).toBe(200)
      expect(
        invalid(await u.post('report', { ...body, property: `properties/${u.properties[1]}` })),
      ).toMatch(/not the property of the URL/)
    })
  })
})
