import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, dims, metrics, table, type AnalyticsUser, type Body } from './client.js'

const sandbox = sandboxForSuite()

/**
 * Random reports, checked against what any report must satisfy: totals are the sums of the rows
 * for additive metrics, splitting by a dimension does not change the whole, paging returns each
 * row once, and rates are their definitions.
 */

const SESSION_DIMENSIONS = [
  'country',
  'city',
  'continent',
  'deviceCategory',
  'browser',
  'operatingSystem',
  'sessionSource',
  'sessionDefaultChannelGroup',
  'newVsReturning',
  'landingPage',
  'dayOfWeek',
  'hour',
  'yearMonth',
  'customUser:membership_tier',
  'week',
  'continentId',
  'platformDeviceCategory',
  'firstUserDefaultChannelGroup',
  // Never recorded: "(not set)" in one row.
  'signedInWithUserId',
  'sessionCm360Source',
]
const EVENT_DIMENSIONS = ['eventName', 'pagePath', 'pageTitle', 'isKeyEvent', 'source', 'linkUrl']
/** Counted per session cell: additive over session-scoped splits only. */
const SESSION_SUMS = [
  'activeUsers',
  'newUsers',
  'totalUsers',
  'sessions',
  'engagedSessions',
  'userEngagementDuration',
  'totalPurchasers',
]
/** Counted per event: additive over any split. */
const EVENT_SUMS = [
  'eventCount',
  'screenPageViews',
  'keyEvents',
  'transactions',
  'totalRevenue',
  'addToCarts',
  'keyEvents:purchase',
  'taxAmount',
]
const MONEY = new Set(['totalRevenue'])

const dateRange = fc
  .record({ ago: fc.integer({ min: 1, max: 400 }), days: fc.integer({ min: 1, max: 45 }) })
  .map(({ ago, days }) => ({ startDate: `${ago + days - 1}daysAgo`, endDate: `${ago}daysAgo` }))

const deviceFilter = fc.option(
  fc
    .record({ device: fc.constantFrom('desktop', 'mobile', 'tablet'), not: fc.boolean() })
    .map(({ device, not }) => {
      const filter = { filter: { fieldName: 'deviceCategory', stringFilter: { value: device } } }
      return not ? { notExpression: filter } : filter
    }),
  { nil: undefined },
)

const subset = (list: string[], min: number, max: number) =>
  fc.shuffledSubarray(list, { minLength: min, maxLength: max })

/** A session report (any session dimensions and additive metrics) or an event report. */
const reportCase = fc.oneof(
  fc.record({
    dimensions: subset(SESSION_DIMENSIONS, 0, 3),
    metrics: subset([...SESSION_SUMS, ...EVENT_SUMS], 1, 6),
  }),
  fc.record({
    dimensions: fc
      .tuple(subset(EVENT_DIMENSIONS, 1, 2), subset(SESSION_DIMENSIONS, 0, 1))
      .map(([a, b]) => [...a, ...b]),
    metrics: subset(EVENT_SUMS, 1, 4),
  }),
)

const valuesOf = (report: any, row: number) =>
  report.rows[row].metricValues.map((v: { value: string }) => Number(v.value)) as number[]

function expectSums(names: string[], actual: number[], expected: number[]) {
  names.forEach((name, i) => {
    if (MONEY.has(name)) expect(actual[i]).toBeCloseTo(expected[i]!, 6)
    else expect(actual[i], name).toBe(expected[i])
  })
}

function columnSums(report: any, count: number): number[] {
  const sums = Array<number>(count).fill(0)
  for (let row = 0; row < (report.rows?.length ?? 0); row++)
    valuesOf(report, row).forEach((v, i) => (sums[i]! += v))
  return sums
}

let user: AnalyticsUser | undefined
const analyst = async () => (user ??= await analyticsUser(sandbox))

describe('analytics reports: consistency of random reports', () => {
  it('TOTAL is the sum of the rows for additive metrics (with or without a metric filter)', async () => {
    const u = await analyst()
    await fc.assert(
      fc.asyncProperty(
        reportCase,
        fc.array(dateRange, { minLength: 1, maxLength: 2 }),
        deviceFilter,
        fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
        fc.integer({ min: 0, max: 1 }),
        async (shape, dateRanges, dimensionFilter, over, property) => {
          const body: Body = {
            dateRanges,
            dimensions: dims(...shape.dimensions),
            metrics: metrics(...shape.metrics),
            metricAggregations: ['TOTAL'],
            limit: 250_000,
            ...(dimensionFilter && { dimensionFilter }),
            ...(over !== undefined && {
              metricFilter: {
                filter: {
                  fieldName: shape.metrics[0],
                  numericFilter: { operation: 'GREATER_THAN', value: { int64Value: over } },
                },
              },
            }),
          }
          const report = await u.report(body, u.properties[property])
          if (!report.rows) return
          expect(report.rows).toHaveLength(report.rowCount)
          dateRanges.forEach((_, range) => {
            const ranged = dateRanges.length > 1
            const rows = ranged
              ? {
                  rows: report.rows.filter(
                    (r: any) =>
                      r.dimensionValues.at(-1).value ===
                      report.totals[range].dimensionValues.at(-1).value,
                  ),
                }
              : report
            const totals = report.totals[range].metricValues.map((v: any) => Number(v.value))
            expectSums(shape.metrics, totals, columnSums(rows, shape.metrics.length))
          })
        },
      ),
      { numRuns: 40 },
    )
  })

  it('a report split by a dimension adds up to the report without it', async () => {
    const u = await analyst()
    const split = fc.oneof(
      fc.record({
        dimension: fc.constantFrom(...SESSION_DIMENSIONS),
        metrics: subset([...SESSION_SUMS, ...EVENT_SUMS], 1, 5),
      }),
      fc.record({
        dimension: fc.constantFrom(...EVENT_DIMENSIONS),
        metrics: subset(EVENT_SUMS, 1, 4),
      }),
    )
    await fc.assert(
      fc.asyncProperty(split, dateRange, deviceFilter, async (shape, range, dimensionFilter) => {
        const body: Body = {
          dateRanges: [range],
          metrics: metrics(...shape.metrics),
          keepEmptyRows: true,
          limit: 250_000,
          ...(dimensionFilter && { dimensionFilter }),
        }
        const whole = await u.report(body)
        const parts = await u.report({ ...body, dimensions: dims(shape.dimension) })
        const expected = whole.rows ? valuesOf(whole, 0) : shape.metrics.map(() => 0)
        expectSums(shape.metrics, columnSums(parts, shape.metrics.length), expected)
      }),
      { numRuns: 40 },
    )
  })

  it('paging with limit and offset returns each row exactly once, with a stable rowCount', async () => {
    const u = await analyst()
    await fc.assert(
      fc.asyncProperty(
        subset(SESSION_DIMENSIONS, 1, 2),
        dateRange,
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom<unknown[]>(
          [],
          [{ metric: { metricName: 'sessions' } }],
          [{ dimension: { dimensionName: 'placeholder' }, desc: true }],
        ),
        async (dimensionNames, range, limit, order) => {
          const orderBys = order.map((o: any) =>
            o.dimension ? { ...o, dimension: { dimensionName: dimensionNames[0] } } : o,
          )
          const body: Body = {
            dateRanges: [range],
            dimensions: dims(...dimensionNames),
            metrics: metrics('sessions'),
            orderBys,
          }
          const all = await u.report({ ...body, limit: 250_000 })
          const count = all.rowCount ?? 0
          const paged: unknown[] = []
          for (let offset = 0; offset < count; offset += limit) {
            const page = await u.report({ ...body, limit, offset })
            expect(page.rowCount).toBe(count)
            expect(page.rows.length).toBe(Math.min(limit, count - offset))
            paged.push(...table(page))
          }
          expect(paged).toEqual(table(all))
          const keys = paged.map((row: any) => row.dims.join('\u0000'))
          expect(new Set(keys).size).toBe(keys.length)
        },
      ),
      { numRuns: 25 },
    )
  })

  it('rates follow their definitions on every row and in the totals', async () => {
    const u = await analyst()
    await fc.assert(
      fc.asyncProperty(
        subset(SESSION_DIMENSIONS, 0, 2),
        dateRange,
        async (dimensionNames, range) => {
          const names = [
            'sessions',
            'engagedSessions',
            'activeUsers',
            'engagementRate',
            'bounceRate',
            'sessionsPerUser',
            'screenPageViews',
            'screenPageViewsPerSession',
          ]
          const report = await u.report({
            dateRanges: [range],
            dimensions: dims(...dimensionNames),
            metrics: metrics(...names),
            metricAggregations: ['TOTAL'],
          })
          if (!report.rows) return
          const rows = [...report.rows, ...report.totals]
          for (const row of rows) {
            const [sessions, engaged, users, rate, bounce, perUser, views, perSession] =
              row.metricValues.map((v: any) => Number(v.value))
            expect(engaged).toBeLessThanOrEqual(sessions)
            expect(users).toBeLessThanOrEqual(sessions)
            expect(rate).toBeCloseTo(engaged / sessions, 12)
            expect(bounce).toBeCloseTo(1 - engaged / sessions, 12)
            expect(perUser).toBeCloseTo(sessions / users, 12)
            expect(perSession).toBeCloseTo(views / sessions, 12)
            expect(views).toBeGreaterThanOrEqual(sessions)
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})
