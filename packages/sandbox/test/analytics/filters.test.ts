import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  analyticsUser,
  dims,
  invalid,
  LAST_28_DAYS,
  metrics,
  table,
  type AnalyticsUser,
} from './client.js'

const sandbox = sandboxForSuite()

/** The values of one dimension that a dimension filter lets through. */
async function valuesThrough(u: AnalyticsUser, dimension: string, dimensionFilter: unknown) {
  const report = await u.report({
    dateRanges: LAST_28_DAYS,
    dimensions: dims(dimension),
    metrics: metrics('eventCount'),
    dimensionFilter,
  })
  return table(report)
    .map((row) => row.dims[0]!)
    .sort()
}

const all = (u: AnalyticsUser, dimension: string) =>
  valuesThrough(u, dimension, undefined as unknown)
const stringFilter = (
  fieldName: string,
  value: string,
  matchType?: string,
  caseSensitive?: boolean,
) => ({
  filter: {
    fieldName,
    stringFilter: {
      value,
      ...(matchType && { matchType }),
      ...(caseSensitive !== undefined && { caseSensitive }),
    },
  },
})

describe('analytics API: dimension filters', () => {
  it.each([
    ['EXACT', 'mobile', (v: string) => v === 'mobile'],
    ['BEGINS_WITH', 'de', (v: string) => v.startsWith('de')],
    ['ENDS_WITH', 'let', (v: string) => v.endsWith('let')],
    ['CONTAINS', 'o', (v: string) => v.includes('o')],
    ['FULL_REGEXP', '(mobile|tablet)', (v: string) => v === 'mobile' || v === 'tablet'],
    ['PARTIAL_REGEXP', 'ob', (v: string) => v.includes('ob')],
  ])('stringFilter %s %s', async (matchType, value, expected) => {
    const u = await analyticsUser(sandbox)
    const everything = await all(u, 'deviceCategory')
    const through = await valuesThrough(
      u,
      'deviceCategory',
      stringFilter('deviceCategory', value, matchType),
    )
    expect(through).toEqual(everything.filter(expected))
    expect(through.length).toBeGreaterThan(0)
  })

  it('stringFilter without matchType is EXACT; case-insensitive unless caseSensitive', async () => {
    const u = await analyticsUser(sandbox)
    expect(
      await valuesThrough(u, 'deviceCategory', stringFilter('deviceCategory', 'MOBILE')),
    ).toEqual(['mobile'])
    expect(
      await valuesThrough(
        u,
        'deviceCategory',
        stringFilter('deviceCategory', 'MOBILE', 'EXACT', true),
      ),
    ).toEqual([])
    expect(
      await valuesThrough(
        u,
        'deviceCategory',
        stringFilter('deviceCategory', 'Mob', 'PARTIAL_REGEXP', true),
      ),
    ).toEqual([])
  })

  it('inListFilter, case-insensitive unless caseSensitive', async () => {
    const u = await analyticsUser(sandbox)
    const filter = (caseSensitive: boolean) => ({
      filter: {
        fieldName: 'browser',
        inListFilter: { values: ['chrome', 'Safari'], caseSensitive },
      },
    })
    expect(await valuesThrough(u, 'browser', filter(false))).toEqual(['Chrome', 'Safari'])
    expect(await valuesThrough(u, 'browser', filter(true))).toEqual(['Safari'])
  })

  it('numericFilter and betweenFilter on a numeric dimension (int64Value as a string too)', async () => {
    const u = await analyticsUser(sandbox)
    const numeric = (operation: string, value: object) => ({
      filter: { fieldName: 'hour', numericFilter: { operation, value } },
    })
    const hours = (list: string[]) => list.map(Number)
    expect(
      hours(await valuesThrough(u, 'hour', numeric('LESS_THAN', { int64Value: '3' }))),
    ).toEqual([0, 1, 2])
    expect(
      hours(await valuesThrough(u, 'hour', numeric('LESS_THAN_OR_EQUAL', { int64Value: 1 }))),
    ).toEqual([0, 1])
    expect(
      hours(await valuesThrough(u, 'hour', numeric('GREATER_THAN', { doubleValue: 21.5 }))),
    ).toEqual([22, 23])
    expect(
      hours(await valuesThrough(u, 'hour', numeric('GREATER_THAN_OR_EQUAL', { int64Value: '22' }))),
    ).toEqual([22, 23])
    expect(hours(await valuesThrough(u, 'hour', numeric('EQUAL', { int64Value: 7 })))).toEqual([7])
    expect(
      hours(
        await valuesThrough(u, 'hour', {
          filter: {
            fieldName: 'hour',
            betweenFilter: { fromValue: { int64Value: 9 }, toValue: { int64Value: 11 } },
          },
        }),
      ),
    ).toEqual([9, 10, 11])
  })

  it('emptyFilter matches empty values (a page without a title)', async () => {
    const u = await analyticsUser(sandbox)
    expect(
      await valuesThrough(u, 'pageTitle', { filter: { fieldName: 'pageTitle', emptyFilter: {} } }),
    ).toEqual([''])
    const untitled = await valuesThrough(u, 'pagePath', {
      filter: { fieldName: 'pageTitle', emptyFilter: {} },
    })
    expect(untitled).toHaveLength(1)
  })

  it('andGroup, orGroup and notExpression combine filters', async () => {
    const u = await analyticsUser(sandbox)
    const mobile = stringFilter('deviceCategory', 'mobile')
    const tablet = stringFilter('deviceCategory', 'tablet')
    const safari = stringFilter('browser', 'Safari')
    const pairs = async (dimensionFilter: unknown) =>
      table(
        await u.report({
          dateRanges: LAST_28_DAYS,
          dimensions: dims('deviceCategory', 'browser'),
          metrics: metrics('sessions'),
          dimensionFilter,
        }),
      )
        .map((r) => r.dims.join('/'))
        .sort()
    const everything = await pairs(undefined)
    expect(await pairs({ andGroup: { expressions: [mobile, safari] } })).toEqual(['mobile/Safari'])
    expect(await pairs({ orGroup: { expressions: [mobile, tablet] } })).toEqual(
      everything.filter((p) => p.startsWith('mobile/') || p.startsWith('tablet/')),
    )
    expect(await pairs({ notExpression: mobile })).toEqual(
      everything.filter((p) => !p.startsWith('mobile/')),
    )
    expect(
      await pairs({
        andGroup: {
          expressions: [{ notExpression: safari }, { orGroup: { expressions: [mobile, tablet] } }],
        },
      }),
    ).toEqual(everything.filter((p) => !p.endsWith('/Safari') && !p.startsWith('desktop/')))
  })

  it('a filter on a dimension the report does not show still filters it', async () => {
    const u = await analyticsUser(sandbox)
    const sessions = async (dimensionFilter?: unknown) =>
      Number(
        (
          await u.report({
            dateRanges: LAST_28_DAYS,
            metrics: metrics('sessions'),
            dimensionFilter,
          })
        ).rows[0].metricValues[0].value,
      )
    const [total, mobile, other] = await Promise.all([
      sessions(),
      sessions(stringFilter('deviceCategory', 'mobile')),
      sessions({ notExpression: stringFilter('deviceCategory', 'mobile') }),
    ])
    expect(mobile + other).toBe(total)
    expect(mobile).toBeGreaterThan(0)
  })

  it.each([
    [
      { filter: { fieldName: 'sessions', stringFilter: { value: 'x' } } },
      /Field sessions in dimensionFilter is not a valid dimension.*metricFilter/,
    ],
    [
      { filter: { fieldName: 'contry', stringFilter: { value: 'x' } } },
      /Field contry in dimensionFilter is not a valid dimension/,
    ],
    [
      { filter: { fieldName: 'browser', stringFilter: { value: '(', matchType: 'FULL_REGEXP' } } },
      /Invalid regular expression/,
    ],
    [{ filter: { fieldName: 'browser', inListFilter: { values: [] } } }, /must not be empty/],
    [{ filter: { fieldName: 'browser' } }, /a Filter needs one of stringFilter/],
    [
      { filter: { fieldName: 'browser', stringFilter: { value: 'a' }, emptyFilter: {} } },
      /only one of/,
    ],
    [{}, /a FilterExpression needs one of andGroup, orGroup, notExpression, filter/],
    [
      {
        filter: {
          fieldName: 'hour',
          numericFilter: { operation: 'ABOUT', value: { int64Value: 1 } },
        },
      },
      /EQUAL/,
    ],
    [
      { filter: { fieldName: 'hour', numericFilter: { operation: 'EQUAL', value: {} } } },
      /a NumericValue needs one of int64Value, doubleValue/,
    ],
  ])('a bad dimension filter %j: 400', async (dimensionFilter, says) => {
    const u = await analyticsUser(sandbox)
    const res = await u.post('report', {
      dateRanges: LAST_28_DAYS,
      metrics: metrics('sessions'),
      dimensionFilter,
    })
    expect(invalid(res)).toMatch(says)
  })

  it('filters nested deeper than 10 levels are refused, not parsed', async () => {
    const u = await analyticsUser(sandbox)
    const depth = 50_000
    const leaf = JSON.stringify(stringFilter('browser', 'Chrome'))
    const dimensionFilter = '{"notExpression":'.repeat(depth) + leaf + '}'.repeat(depth)
    const res = await sandbox.request('POST', `/analytics/v1/properties/${u.property}/report`, {
      token: u.token,
      headers: { 'content-type': 'application/json' },
      rawBody: `{"dateRanges":[{"startDate":"7daysAgo","endDate":"today"}],"metrics":[{"name":"sessions"}],"dimensionFilter":${dimensionFilter}}`,
    })
    expect(invalid(res)).toMatch(/nested at most 10 levels/)
    let ten: unknown = stringFilter('browser', 'Chrome')
    for (let i = 1; i < 10; i++) ten = { notExpression: ten }
    expect(
      (
        await u.post('report', {
          dateRanges: LAST_28_DAYS,
          metrics: metrics('sessions'),
          dimensionFilter: ten,
        })
      ).status,
    ).toBe(200)
  })
})

describe('analytics API: metric filters', () => {
  const body = {
    dateRanges: LAST_28_DAYS,
    dimensions: dims('city'),
    metrics: metrics('sessions', 'engagementRate'),
  }

  /** The report of `body` (or with `extra` fields) keeping the rows that pass `filter`. */
  const kept = (u: AnalyticsUser, filter: unknown, extra: Record<string, unknown> = {}) =>
    u.report({ ...body, ...extra, metricFilter: { filter } })
  /** The thresholds come from the unfiltered rows, so the filters do drop some of them. */
  const medianOf = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

  it('keep the rows whose metric values pass, after adding up (numeric and between)', async () => {
    const u = await analyticsUser(sandbox)
    const rows = table(await u.report(body))
    const sessions = rows.map((r) => Number(r.metrics[0]))
    const median = medianOf(sessions)
    const over = table(
      await kept(u, {
        fieldName: 'sessions',
        numericFilter: { operation: 'GREATER_THAN', value: { int64Value: String(median) } },
      }),
    )
    expect(over).toEqual(rows.filter((r) => Number(r.metrics[0]) > median))
    // The middle half of the engagement rates, with bounds halfway between two rows' rates.
    const rates = [...new Set(rows.map((r) => Number(r.metrics[1])))].sort((a, b) => a - b)
    expect(rates.length).toBeGreaterThan(3)
    const q1 = Math.floor(rates.length / 4)
    const q3 = Math.ceil((rates.length * 3) / 4) - 1
    const from = (rates[q1 - 1]! + rates[q1]!) / 2
    const to = (rates[q3]! + rates[q3 + 1]!) / 2
    const between = table(
      await kept(u, {
        fieldName: 'engagementRate',
        betweenFilter: { fromValue: { doubleValue: from }, toValue: { doubleValue: to } },
      }),
    )
    expect(between).toEqual(
      rows.filter((r) => Number(r.metrics[1]) >= from && Number(r.metrics[1]) <= to),
    )
    expect(between.length).toBeGreaterThan(0)
    expect(between.length).toBeLessThan(rows.length)
  })

  it('may use a metric the report does not show; totals are those of the rows kept', async () => {
    const u = await analyticsUser(sandbox)
    const all = table(await u.report(body))
    const median = medianOf(all.map((r) => Number(r.metrics[0])))
    const report = await kept(
      u,
      {
        fieldName: 'sessions',
        numericFilter: { operation: 'GREATER_THAN', value: { int64Value: median } },
      },
      { metrics: metrics('engagedSessions'), metricAggregations: ['TOTAL'] },
    )
    expect(report.metricHeaders).toEqual([{ name: 'engagedSessions', type: 'TYPE_INTEGER' }])
    const rows = table(report)
    expect(Number(report.totals[0].metricValues[0].value)).toBe(
      rows.reduce((a, r) => a + Number(r.metrics[0]), 0),
    )
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(all.length)
  })

  it.each([
    [
      { filter: { fieldName: 'sessions', stringFilter: { value: '5' } } },
      /must be a numericFilter or a betweenFilter/,
    ],
    [
      {
        filter: {
          fieldName: 'city',
          numericFilter: { operation: 'EQUAL', value: { int64Value: 1 } },
        },
      },
      /Field city in metricFilter is not a valid metric.*dimensionFilter/,
    ],
  ])('a bad metric filter %j: 400', async (metricFilter, says) => {
    const u = await analyticsUser(sandbox)
    expect(invalid(await u.post('report', { ...body, metricFilter }))).toMatch(says)
  })
})
