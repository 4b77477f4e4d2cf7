import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, column, dims, invalid, LAST_28_DAYS, metrics, ok, sum } from './client.js'

const sandbox = sandboxForSuite()

const INCOMPATIBLE =
  /^Please remove (\S+) to make the request compatible\. The request's dimensions & metrics are incompatible\. To learn more, see https:\/\/ga-dev-tools\.web\.app\/ga4\/dimensions-metrics-explorer\/$/

/** A custom event dimension of the user's first property. */
async function customEventDimension(u: Awaited<ReturnType<typeof analyticsUser>>) {
  const metadata = ok(await u.metadata())
  return metadata.dimensions.find((d: any) => d.apiName.startsWith('customEvent:'))
    .apiName as string
}

describe('analytics API: which dimensions and metrics go together', () => {
  it.each([
    [['itemName'], ['sessions'], 'sessions'],
    [['itemCategory'], ['eventCount'], 'eventCount'],
    [['date'], ['itemsPurchased', 'activeUsers'], 'activeUsers'],
    [['itemName', 'pagePath'], ['itemRevenue'], 'pagePath'],
    [['itemName', 'eventName'], ['itemsViewed'], 'eventName'],
  ])('item fields with %j and %j: 400 naming %s', async (dimensions, metricNames, offender) => {
    const u = await analyticsUser(sandbox)
    const res = await u.post('report', {
      dateRanges: LAST_28_DAYS,
      dimensions: dims(...dimensions),
      metrics: metrics(...metricNames),
    })
    expect(invalid(res)).toMatch(INCOMPATIBLE)
    expect(invalid(res)).toMatch(`Please remove ${offender} `)
  })

  it('item dimensions and metrics with session-scoped dimensions (date, country) are fine', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: LAST_28_DAYS,
      dimensions: dims('itemName', 'country'),
      metrics: metrics('itemsViewed', 'itemsPurchased', 'itemRevenue'),
      metricAggregations: ['TOTAL'],
    })
    expect(report.rowCount).toBeGreaterThan(0)
    // Item revenue is purchase revenue: the same money seen from the items.
    const revenue = await u.report({
      dateRanges: LAST_28_DAYS,
      metrics: metrics('purchaseRevenue'),
    })
    expect(Number(report.totals[0].metricValues[2].value)).toBeCloseTo(
      Number(revenue.rows[0].metricValues[0].value),
      6,
    )
  })

  it('an event-scoped custom dimension with user or session metrics: 400 naming it', async () => {
    const u = await analyticsUser(sandbox)
    const custom = await customEventDimension(u)
    for (const metric of ['activeUsers', 'sessions', 'engagementRate', 'eventsPerSession']) {
      const res = await u.post('report', {
        dateRanges: LAST_28_DAYS,
        dimensions: dims(custom),
        metrics: metrics('eventCount', metric),
      })
      expect(invalid(res)).toMatch(`Please remove ${custom} to make the request compatible.`)
    }
    // In the dimension filter only, it counts too.
    const filtered = await u.post('report', {
      dateRanges: LAST_28_DAYS,
      metrics: metrics('sessions'),
      dimensionFilter: { filter: { fieldName: custom, stringFilter: { value: 'x' } } },
    })
    expect(invalid(filtered)).toMatch(`Please remove ${custom}`)
  })

  it('an event-scoped custom dimension with event metrics is fine', async () => {
    const u = await analyticsUser(sandbox)
    const custom = await customEventDimension(u)
    const report = await u.report({
      dateRanges: LAST_28_DAYS,
      dimensions: dims(custom),
      metrics: metrics('eventCount', 'keyEvents'),
    })
    const values = report.rows.map((r: any) => r.dimensionValues[0].value)
    expect(values).toContain('(not set)')
    expect(values.length).toBeGreaterThan(1)
  })

  it('pagePath with users: each user counted once per row, so rows add up to more than the total', async () => {
    const u = await analyticsUser(sandbox)
    const report = await u.report({
      dateRanges: LAST_28_DAYS,
      dimensions: dims('pagePath'),
      metrics: metrics('activeUsers', 'screenPageViews'),
      metricAggregations: ['TOTAL'],
    })
    const overall = await u.report({
      dateRanges: LAST_28_DAYS,
      metrics: metrics('activeUsers', 'screenPageViews'),
    })
    const [users, views] = [column(report, 0), column(report, 1)]
    const [totalUsers, totalViews] = report.totals[0].metricValues.map((v: any) => Number(v.value))
    expect(totalUsers).toBe(Number(overall.rows[0].metricValues[0].value))
    expect(sum(users)).toBeGreaterThan(totalUsers)
    expect(Math.max(...users)).toBeLessThanOrEqual(totalUsers)
    // Views are counted per event: they add up.
    expect(sum(views)).toBe(totalViews)
    expect(totalViews).toBe(Number(overall.rows[0].metricValues[1].value))
  })
})
