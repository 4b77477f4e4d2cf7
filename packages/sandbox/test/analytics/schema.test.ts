import { afterEach, describe, expect, it, vi } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  analyticsUser,
  column,
  dims,
  invalid,
  metrics,
  names,
  ok,
  sum,
  table,
  type AnalyticsUser,
  type Body,
} from './client.js'

const sandbox = sandboxForSuite()

/**
 * Everything getMetadata lists works in a report: the entries the engine computes, and the
 * others, which answer as a property without such data does ("(not set)", 0) and keep totals
 * the sums of their rows. Deprecated names are answered under the name asked for; blocked
 * metrics answer zeros; cohort fields want a cohortSpec the sandbox does not take.
 */

const DAYS = [{ startDate: '3daysAgo', endDate: 'yesterday' }]

/** Runs reports five to a batch; returns each report or its error. */
async function runAll(u: AnalyticsUser, requests: Body[]) {
  const reports: any[] = []
  for (let i = 0; i < requests.length; i += 5) {
    const batch = ok(await u.post('reports', { requests: requests.slice(i, i + 5) }))
    reports.push(...batch.reports)
  }
  return reports
}

async function listed(u: AnalyticsUser) {
  const metadata = ok(await u.metadata())
  const usable = (list: any[]) => list.filter((e) => e.category !== 'Cohort')
  return { dimensions: usable(metadata.dimensions), metrics: usable(metadata.metrics) }
}

const isItemField = (name: string) =>
  name.startsWith('item') ||
  ['grossItemRevenue', 'cartToViewRate', 'purchaseToViewRate'].includes(name)

describe('analytics API: every listed field in a report', () => {
  it('every dimension: its values, and totals that are the sums of its rows', async () => {
    const u = await analyticsUser(sandbox)
    const { dimensions } = await listed(u)
    const requests = dimensions.map((d: any) => ({
      dateRanges: DAYS,
      dimensions: dims(d.apiName),
      metrics: metrics(isItemField(d.apiName) ? 'itemsViewed' : 'eventCount'),
      metricAggregations: ['TOTAL'],
      limit: 100_000,
    }))
    const reports = await runAll(u, requests)
    let notSet = 0
    reports.forEach((report, i) => {
      const name = dimensions[i].apiName
      expect(names(report.dimensionHeaders), name).toEqual([name])
      const rows = table(report)
      expect(rows.length, name).toBeGreaterThan(0)
      expect(Number(report.totals[0].metricValues[0].value), name).toBe(sum(column(report, 0)))
      if (rows.length === 1 && rows[0]!.dims[0] === '(not set)') notSet++
    })
    // Most standard dimensions have nothing to show in a web property without ads or apps.
    expect(notSet).toBeGreaterThan(dimensions.length / 2)
  })

  it('every metric: a number, one "(not set)" row whose value is the total', async () => {
    const u = await analyticsUser(sandbox)
    const { metrics: listedMetrics } = await listed(u)
    const requests = listedMetrics.map((m: any) => ({
      dateRanges: DAYS,
      // A session-level dimension the property never records: one row, as a total.
      dimensions: dims('signedInWithUserId'),
      metrics: metrics(m.apiName),
      metricAggregations: ['TOTAL'],
    }))
    const reports = await runAll(u, requests)
    reports.forEach((report, i) => {
      const { apiName, type } = listedMetrics[i]
      expect(report.metricHeaders, apiName).toEqual([{ name: apiName, type }])
      for (const row of table(report)) {
        expect(row.dims, apiName).toEqual(['(not set)'])
        expect(Number.isFinite(Number(row.metrics[0])), apiName).toBe(true)
        expect(row.metrics[0], apiName).toBe(report.totals[0].metricValues[0].value)
      }
    })
  })

  it('a "(not set)" dimension splits nothing, and a metric without data is 0 in every row', async () => {
    const u = await analyticsUser(sandbox)
    const request = (...dimensions: string[]) =>
      u.report({
        dateRanges: DAYS,
        dimensions: dims(...dimensions),
        metrics: metrics('sessions', 'eventCount', 'taxAmount', 'publisherAdClicks'),
        metricAggregations: ['TOTAL'],
        orderBys: [{ dimension: { dimensionName: 'country' } }],
      })
    const [byCountry, split] = [await request('country'), await request('country', 'achievementId')]
    expect(table(split).map((r) => r.dims[1])).toEqual(table(split).map(() => '(not set)'))
    expect(table(split).map((r) => [r.dims[0], ...r.metrics])).toEqual(
      table(byCountry).map((r) => [r.dims[0], ...r.metrics]),
    )
    expect(split.totals[0].metricValues).toEqual(byCountry.totals[0].metricValues)
    for (const index of [2, 3]) expect(column(split, index).every((v) => v === 0)).toBe(true)
    // Filters see "(not set)" as the value, and as empty.
    const filtered = await u.report({
      dateRanges: DAYS,
      dimensions: dims('country'),
      metrics: metrics('sessions'),
      dimensionFilter: { filter: { fieldName: 'achievementId', emptyFilter: {} } },
      metricAggregations: ['TOTAL'],
    })
    expect(filtered.totals[0].metricValues[0].value).toBe(byCountry.totals[0].metricValues[0].value)
  })

  it('computes what the synthetic data holds: weeks, first-user source, key-event rates', async () => {
    const u = await analyticsUser(sandbox)
    const range = [{ startDate: '2026-01-01', endDate: '2026-01-07' }]
    const byDay = await u.report({
      dateRanges: range,
      dimensions: dims('date', 'week', 'isoWeek', 'day', 'yearWeek'),
      metrics: metrics('sessions'),
      orderBys: [{ dimension: { dimensionName: 'date' } }],
    })
    // 2026-01-01 is a Thursday: Sunday weeks start on the 4th, ISO weeks on Monday the 5th.
    expect(table(byDay).map((r) => r.dims.join(' '))).toEqual([
      '20260101 01 01 01 202601',
      '20260102 01 01 02 202601',
      '20260103 01 01 03 202601',
      '20260104 02 01 04 202602',
      '20260105 02 02 05 202602',
      '20260106 02 02 06 202602',
      '20260107 02 02 07 202602',
    ])
    const sources = async (dimension: string) =>
      table(
        await u.report({
          dateRanges: range,
          dimensions: dims(dimension),
          metrics: metrics('sessions'),
          orderBys: [{ dimension: { dimensionName: dimension } }],
        }),
      )
    expect(await sources('firstUserSource')).toEqual(await sources('sessionSource'))

    const report = await u.report({
      dateRanges: range,
      metrics: metrics(
        'sessions',
        'activeUsers',
        'transactions',
        'keyEvents:purchase',
        'ecommercePurchases',
        'sessionKeyEventRate',
        'userKeyEventRate:purchase',
        'totalPurchasers',
      ),
    })
    const [sessions, users, transactions, purchases, ecommerce, rate, purchaserRate, purchasers] =
      report.rows[0].metricValues.map((v: any) => Number(v.value))
    expect(purchases).toBe(transactions)
    expect(ecommerce).toBe(transactions)
    expect(rate).toBeGreaterThan(0)
    expect(rate).toBeLessThanOrEqual(1)
    expect(purchasers).toBeGreaterThan(0)
    expect(purchasers).toBeLessThanOrEqual(Math.min(users, transactions))
    expect(purchaserRate).toBeCloseTo(purchasers / users, 9)
    expect(sessions).toBeGreaterThan(0)
  })

  it('a deprecated name is accepted and answered under that name, in orders and filters too', async () => {
    const u = await analyticsUser(sandbox)
    const byCountry = (dimension: string) =>
      u.report({
        dateRanges: DAYS,
        dimensions: dims(dimension),
        metrics: metrics('sessions'),
        orderBys: [{ dimension: { dimensionName: dimension } }],
        dimensionFilter: { filter: { fieldName: dimension, stringFilter: { value: 'US' } } },
      })
    const [current, old] = [await byCountry('countryId'), await byCountry('countryIsoCode')]
    expect(names(old.dimensionHeaders)).toEqual(['countryIsoCode'])
    expect(table(old)).toEqual(table(current))
    expect(table(old).map((r) => r.dims[0])).toEqual(['US'])

    const items = await u.report({
      dateRanges: DAYS,
      metrics: metrics('itemPurchaseQuantity', 'itemsPurchased'),
    })
    expect(items.metricHeaders).toEqual([
      { name: 'itemPurchaseQuantity', type: 'TYPE_INTEGER' },
      { name: 'itemsPurchased', type: 'TYPE_INTEGER' },
    ])
    const [quantity, purchased] = items.rows[0].metricValues
    expect(quantity).toEqual(purchased)
  })

  it('a blocked metric answers 0 and says so; a metric filter on it is refused', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: DAYS,
      metrics: metrics('sessions', 'advertiserAdCost'),
    })
    expect(report.rows[0].metricValues[1].value).toBe('0')
    expect(report.metadata.schemaRestrictionResponse).toEqual({
      activeMetricRestrictions: [
        { metricName: 'advertiserAdCost', restrictedMetricTypes: ['COST_DATA'] },
      ],
    })
    const unrestricted = await u.report({ dateRanges: DAYS, metrics: metrics('sessions') })
    expect(unrestricted.metadata.schemaRestrictionResponse).toBeUndefined()

    const message = invalid(
      await u.post('report', {
        dateRanges: DAYS,
        metrics: metrics('sessions', 'returnOnAdSpend'),
        metricFilter: {
          filter: {
            fieldName: 'returnOnAdSpend',
            numericFilter: { operation: 'GREATER_THAN', value: { doubleValue: 1 } },
          },
        },
      }),
    )
    expect(message).toContain('returnOnAdSpend')
    expect(message).toContain('NO_COST_METRICS')
  })

  it('cohort fields need a cohortSpec, which the sandbox does not take', async () => {
    const u = await analyticsUser(sandbox)
    for (const request of [
      { dimensions: dims('cohortNthDay'), metrics: metrics('activeUsers') },
      { metrics: metrics('cohortActiveUsers') },
    ]) {
      const message = invalid(await u.post('report', { dateRanges: DAYS, ...request }))
      expect(message).toContain('cohortSpec')
    }
  })
})

describe('analytics API: every realtime field', () => {
  afterEach(() => vi.useRealTimers())

  const REALTIME_DIMENSIONS = [
    'appVersion',
    'audienceId',
    'audienceName',
    'audienceResourceName',
    'city',
    'cityId',
    'country',
    'countryId',
    'deviceCategory',
    'eventName',
    'minutesAgo',
    'platform',
    'streamId',
    'streamName',
    'unifiedScreenName',
    'customUser:membership_tier',
  ]

  it("the realtime schema's dimensions, with totals that are the sums of rows", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-04-03T16:45:10Z'))
    const u = await analyticsUser(sandbox)
    for (const dimension of REALTIME_DIMENSIONS) {
      const report = await u.realtime({
        dimensions: dims(dimension),
        metrics: metrics('activeUsers', 'eventCount', 'keyEvents', 'screenPageViews'),
        metricAggregations: ['TOTAL'],
      })
      const rows = table(report)
      expect(rows.length, dimension).toBeGreaterThan(0)
      expect(Number(report.totals[0].metricValues[1].value), dimension).toBe(sum(column(report, 1)))
      if (dimension === 'appVersion') expect(rows.map((r) => r.dims[0])).toEqual(['(not set)'])
      if (dimension === 'audienceName') expect(rows.map((r) => r.dims[0])).toEqual(['All Users'])
      if (dimension === 'customUser:membership_tier') expect(rows.length).toBeGreaterThan(1)
    }
  })
})
