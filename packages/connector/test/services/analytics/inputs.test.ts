import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { ANALYTICS_TOOLS } from '../../../src/services/analytics/index.js'

/**
 * Arguments the analytics tools refuse before anything is sent, and what they say. The messages
 * are read by a model: each names the field and what to send instead.
 */

const tool = (name: string) => ANALYTICS_TOOLS.find((t) => t.name === name)!
const REPORT = {
  propertiesId: '123456789',
  dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }],
  metrics: [{ name: 'sessions' }],
}

/** The messages of a refusal, each prefixed with its field path as the MCP layer shows it. */
function refusal(name: string, args: unknown): string {
  const result = tool(name).input.safeParse(args)
  if (result.success) throw new Error(`${name} accepted ${JSON.stringify(args)}`)
  return (result.error as z.ZodError).issues
    .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    .join('\n')
}
const accepts = (name: string, args: Record<string, unknown>) => {
  const result = tool(name).input.safeParse(args)
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true)
  // Nothing is transformed: what the model sends is what the provider gets, with the tool's own
  // page size (100 rows, the description says) where the model gave none.
  expect(result.data).toEqual(withPageSize(name, args))
}
const withPageSize = (name: string, args: Record<string, unknown>) => {
  const sized = (report: Record<string, unknown>) => ({ limit: 100, ...report })
  if (name === 'get_metadata') return args
  if (name !== 'run_reports') return sized(args)
  return { ...args, requests: (args.requests as Record<string, unknown>[]).map(sized) }
}

describe('analytics tool inputs', () => {
  it('propertiesId: the number, not "properties/N", nothing else', () => {
    accepts('get_metadata', { propertiesId: '123456789' })
    expect(refusal('get_metadata', { propertiesId: 'properties/123' })).toMatch(
      'propertiesId takes the number only: give "123", not "properties/123"',
    )
    expect(refusal('get_metadata', { propertiesId: 'abc' })).toMatch(
      /must be the property's number/,
    )
    expect(refusal('get_metadata', { propertiesId: 123 })).toMatch(/must be a string of digits/)
    expect(refusal('get_metadata', {})).toMatch(/propertiesId is required/)
    expect(refusal('get_metadata', { propertiesId: '1', extra: 1 })).toMatch(
      /get_metadata does not take "extra": remove it/,
    )
  })

  describe('dateRanges', () => {
    it.each([
      ['2026-01-31', 'today'],
      ['yesterday', 'today'],
      ['365daysAgo', '0daysAgo'],
      ['7daysAgo', '2026-01-01'],
    ])('accepts %s to %s', (startDate, endDate) => {
      accepts('run_report', { ...REPORT, dateRanges: [{ startDate, endDate }] })
    })

    it.each([
      [{ startDate: '2026-02-30', endDate: 'today' }, /startDate must be YYYY-MM-DD \(a real date/],
      [{ startDate: 'last week', endDate: 'today' }, /got "last week"/],
      [{ startDate: '7daysAgo' }, /endDate is required/],
      [
        { startDate: '3daysAgo', endDate: '7daysAgo' },
        /startDate 3daysAgo is after endDate 7daysAgo: swap them/,
      ],
      [
        { startDate: '2026-02-01', endDate: '2026-01-01' },
        /is after endDate 2026-01-01: swap them/,
      ],
      [{ startDate: 'today', endDate: 'yesterday' }, /swap them/],
      [
        { startDate: 'today', endDate: 'today', name: 'date_range_9' },
        /cannot begin with date_range_ or RESERVED_/,
      ],
    ])('refuses %j', (range, says) => {
      expect(refusal('run_report', { ...REPORT, dateRanges: [range] })).toMatch(says)
    })

    it('1 to 4 of them', () => {
      const range = REPORT.dateRanges[0]
      expect(refusal('run_report', { ...REPORT, dateRanges: [] })).toMatch(
        /at least one date range/,
      )
      expect(refusal('run_report', { ...REPORT, dateRanges: Array(5).fill(range) })).toMatch(
        /at most 4 date ranges/,
      )
      const { dateRanges: _, ...undated } = REPORT
      expect(refusal('run_report', undated)).toMatch(/dateRanges is required/)
    })
  })

  it('dimensions up to 9, metrics 1 to 10, each once, with name-shaped names', () => {
    const named = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}` }))
    accepts('run_report', { ...REPORT, dimensions: named(9, 'd'), metrics: named(10, 'm') })
    expect(refusal('run_report', { ...REPORT, dimensions: named(10, 'd') })).toMatch(
      /at most 9 dimensions/,
    )
    expect(refusal('run_report', { ...REPORT, metrics: named(11, 'm') })).toMatch(
      /at most 10 metrics/,
    )
    expect(refusal('run_report', { ...REPORT, metrics: [] })).toMatch(/at least one metric/)
    expect(refusal('run_report', { ...REPORT, metrics: ['sessions'] })).toMatch(
      /expected object|metrics/,
    )
    expect(
      refusal('run_report', { ...REPORT, metrics: [{ name: 'sessions' }, { name: 'sessions' }] }),
    ).toMatch(/metrics.1: "sessions" is listed twice/)
    expect(refusal('run_report', { ...REPORT, dimensions: [{ name: 'page path' }] })).toMatch(
      /"page path" is not a dimension name/,
    )
    accepts('run_report', { ...REPORT, dimensions: [{ name: 'customEvent:plan_name' }] })
  })

  it('limit 1 to 250,000, offset 0 or more, whole numbers', () => {
    accepts('run_report', { ...REPORT, limit: 250_000, offset: 0 })
    expect(refusal('run_report', { ...REPORT, limit: 250_001 })).toMatch(
      /at most 250,000: page with offset/,
    )
    expect(refusal('run_report', { ...REPORT, limit: 0 })).toMatch(/limit must be at least 1/)
    expect(refusal('run_report', { ...REPORT, limit: 2.5 })).toMatch(/whole number/)
    expect(refusal('run_report', { ...REPORT, offset: -1 })).toMatch(/offset must be 0 or more/)
    const realtime = { propertiesId: '1', metrics: [{ name: 'activeUsers' }] }
    expect(refusal('run_realtime_report', { ...realtime, offset: 5 })).toMatch(
      /does not take "offset"/,
    )
  })

  it('enums: metricAggregations, orderType, matchType, operation, currencyCode', () => {
    accepts('run_report', {
      ...REPORT,
      metricAggregations: ['TOTAL', 'MINIMUM', 'MAXIMUM', 'COUNT'],
    })
    expect(refusal('run_report', { ...REPORT, metricAggregations: ['SUM'] })).toMatch(
      /metricAggregations takes TOTAL, MINIMUM, MAXIMUM, COUNT/,
    )
    expect(
      refusal('run_report', {
        ...REPORT,
        dimensions: [{ name: 'date' }],
        orderBys: [{ dimension: { dimensionName: 'date', orderType: 'DATE' } }],
      }),
    ).toMatch(/orderType must be one of ALPHANUMERIC, CASE_INSENSITIVE_ALPHANUMERIC, NUMERIC/)
    expect(
      refusal('run_report', {
        ...REPORT,
        dimensionFilter: {
          filter: { fieldName: 'city', stringFilter: { value: 'x', matchType: 'LIKE' } },
        },
      }),
    ).toMatch(/matchType must be one of EXACT, BEGINS_WITH/)
    expect(refusal('run_report', { ...REPORT, currencyCode: 'euro' })).toMatch(/ISO 4217/)
  })

  it('orderBys sort by what the report asks for; dateRange when there are several ranges', () => {
    expect(
      refusal('run_report', { ...REPORT, orderBys: [{ metric: { metricName: 'activeUsers' } }] }),
    ).toMatch(
      /orderBys.0: sorts by "activeUsers", which is not in metrics: add it there or sort by one of sessions/,
    )
    expect(
      refusal('run_report', { ...REPORT, orderBys: [{ dimension: { dimensionName: 'date' } }] }),
    ).toMatch(/sorts by "date", which is not in dimensions/)
    expect(refusal('run_report', { ...REPORT, orderBys: [{ desc: true }] })).toMatch(
      /an orderBy takes one of metric or dimension/,
    )
    expect(refusal('run_report', { ...REPORT, orderBys: [{ dateRange: { x: 1 } }] })).toMatch(
      /dateRange/,
    )
    accepts('run_report', {
      ...REPORT,
      dateRanges: [REPORT.dateRanges[0], { startDate: '56daysAgo', endDate: '29daysAgo' }],
      orderBys: [{ dimension: { dimensionName: 'dateRange' } }],
    })
  })

  describe('filters', () => {
    const leaf = { filter: { fieldName: 'country', stringFilter: { value: 'France' } } }

    it('every kind, nested with andGroup, orGroup and notExpression', () => {
      accepts('run_report', {
        ...REPORT,
        dimensionFilter: {
          andGroup: {
            expressions: [
              leaf,
              {
                notExpression: {
                  filter: {
                    fieldName: 'city',
                    inListFilter: { values: ['Paris'], caseSensitive: true },
                  },
                },
              },
              {
                orGroup: {
                  expressions: [
                    { filter: { fieldName: 'pageTitle', emptyFilter: {} } },
                    {
                      filter: {
                        fieldName: 'hour',
                        numericFilter: { operation: 'LESS_THAN', value: { int64Value: '6' } },
                      },
                    },
                  ],
                },
              },
              {
                filter: {
                  fieldName: 'hour',
                  betweenFilter: { fromValue: { int64Value: 1 }, toValue: { doubleValue: 2.5 } },
                },
              },
              {
                filter: {
                  fieldName: 'pagePath',
                  stringFilter: { value: '^/blog/', matchType: 'PARTIAL_REGEXP' },
                },
              },
            ],
          },
        },
        metricFilter: {
          filter: {
            fieldName: 'sessions',
            numericFilter: { operation: 'GREATER_THAN_OR_EQUAL', value: { doubleValue: 10 } },
          },
        },
      })
    })

    it.each([
      [
        { notExpression: {} },
        /a filter expression needs one of andGroup, orGroup, notExpression, filter/,
      ],
      [
        { filter: leaf.filter, notExpression: leaf },
        /takes one of .* not notExpression and filter: keep one/,
      ],
      [
        { filter: { fieldName: 'country' } },
        /a filter needs one of stringFilter, inListFilter, numericFilter, betweenFilter, emptyFilter/,
      ],
      [
        {
          filter: {
            fieldName: 'country',
            stringFilter: { value: 'a' },
            inListFilter: { values: ['b'] },
          },
        },
        /not stringFilter and inListFilter/,
      ],
      [
        {
          filter: {
            fieldName: 'hour',
            numericFilter: { operation: 'ABOUT', value: { int64Value: 1 } },
          },
        },
        /operation must be one of EQUAL/,
      ],
      [
        { filter: { fieldName: 'hour', numericFilter: { operation: 'EQUAL', value: {} } } },
        /a value needs one of int64Value, doubleValue/,
      ],
      [
        {
          filter: {
            fieldName: 'hour',
            numericFilter: { operation: 'EQUAL', value: { int64Value: 'x' } },
          },
        },
        /int64Value must be a whole number/,
      ],
      [
        { filter: { fieldName: 'city', inListFilter: { values: [] } } },
        /inListFilter needs at least one value/,
      ],
      [{ andGroup: { expressions: [] } }, /needs at least one expression/],
      [
        {
          filter: {
            fieldName: 'hour',
            numericFilter: { operation: 'EQUAL', value: { int64Value: '9223372036854775808' } },
          },
        },
        /int64Value is beyond a 64-bit integer/,
      ],
      [{ filter: { fieldName: 'a'.repeat(201), emptyFilter: {} } }, /at most 200 characters/],
      [{ filter: { stringFilter: { value: 'x' } } }, /fieldName is required/],
    ])('refuses the dimension filter %j', (dimensionFilter, says) => {
      expect(refusal('run_report', { ...REPORT, dimensionFilter })).toMatch(says)
    })

    it('an empty part of an expression is none; emptyFilter’s {} is a filter', () => {
      const parsed = tool('run_report').input.parse({
        ...REPORT,
        dimensionFilter: {
          filter: { fieldName: 'pageTitle', emptyFilter: {}, stringFilter: {}, inListFilter: {} },
          andGroup: {},
          notExpression: {},
        },
      })
      expect(parsed.dimensionFilter).toEqual({
        filter: { fieldName: 'pageTitle', emptyFilter: {} },
      })
    })

    it('int64Value: any 64-bit integer, as a number or its digits', () => {
      const between = (fromValue: unknown, toValue: unknown) => ({
        ...REPORT,
        dimensionFilter: {
          filter: {
            fieldName: 'hour',
            betweenFilter: {
              fromValue: { int64Value: fromValue },
              toValue: { int64Value: toValue },
            },
          },
        },
      })
      accepts('run_report', between('-9223372036854775808', '9223372036854775807'))
      accepts('run_report', between(-9007199254740991, 9007199254740991))
    })

    it('text up to its bound in characters, emoji counted once', () => {
      accepts('run_report', {
        ...REPORT,
        dimensionFilter: {
          filter: { fieldName: '😀'.repeat(200), stringFilter: { value: '😀'.repeat(1024) } },
        },
      })
      expect(
        refusal('run_report', {
          ...REPORT,
          dimensionFilter: {
            filter: { fieldName: 'x', inListFilter: { values: ['😀'.repeat(1025)] } },
          },
        }),
      ).toMatch(/filter values are at most 1024 characters/)
    })

    it('metric filters compare numbers', () => {
      expect(
        refusal('run_report', {
          ...REPORT,
          metricFilter: {
            notExpression: { filter: { fieldName: 'sessions', stringFilter: { value: '5' } } },
          },
        }),
      ).toMatch(
        /metricFilter.notExpression.filter: metric filters compare numbers: use numericFilter or betweenFilter/,
      )
    })

    it('nesting deeper than 10 levels is refused before it is walked', () => {
      let deep: unknown = leaf
      for (let i = 0; i < 100_000; i++) deep = { notExpression: deep }
      expect(refusal('run_report', { ...REPORT, dimensionFilter: deep })).toMatch(
        /nested at most 10 levels deep/,
      )
      let ten: unknown = leaf
      for (let i = 1; i < 10; i++) ten = { notExpression: ten }
      accepts('run_report', { ...REPORT, dimensionFilter: ten })
    })
  })

  describe('an empty optional object or list is none, as forms and models send it', () => {
    const realtime = { propertiesId: '1', metrics: [{ name: 'activeUsers' }] }
    const EMPTY_REPORT = {
      dimensions: [],
      dimensionFilter: {},
      metricFilter: {},
      metricAggregations: [],
      orderBys: [],
    }

    it('run_report, and each request of run_reports: none of them sent', () => {
      const parsed = tool('run_report').input.parse({ ...REPORT, ...EMPTY_REPORT })
      expect(parsed).toEqual({ ...REPORT, limit: 100 })
      const { propertiesId: _, ...request } = REPORT
      const batch = tool('run_reports').input.parse({
        propertiesId: '1',
        requests: [{ ...request, ...EMPTY_REPORT }],
      })
      expect(batch).toEqual({ propertiesId: '1', requests: [{ ...request, limit: 100 }] })
    })

    it('run_realtime_report: minuteRanges [] is the whole last 30 minutes', () => {
      expect(
        tool('run_realtime_report').input.parse({ ...realtime, ...EMPTY_REPORT, minuteRanges: [] }),
      ).toEqual({ ...realtime, limit: 100 })
    })

    it('get_metadata: names [] is no filter by name, so offset alone is still refused', () => {
      accepts('get_metadata', { propertiesId: '1' })
      expect(tool('get_metadata').input.parse({ propertiesId: '1', names: [] })).toEqual({
        propertiesId: '1',
      })
      expect(refusal('get_metadata', { propertiesId: '1', names: [], offset: 50 })).toMatch(
        /offset pages the entries of names, category or search/,
      )
    })

    it('an orderBy’s empty metric or dimension is none: it sorts by the other', () => {
      const parsed = tool('run_report').input.parse({
        ...REPORT,
        orderBys: [{ metric: { metricName: 'sessions' }, dimension: {} }],
      })
      expect(parsed.orderBys).toEqual([{ metric: { metricName: 'sessions' } }])
      expect(refusal('run_report', { ...REPORT, orderBys: [{ metric: {}, desc: true }] })).toMatch(
        /an orderBy takes one of metric or dimension/,
      )
    })

    it('a required list is not optional: metrics [] and dateRanges [] are refused', () => {
      expect(refusal('run_report', { ...REPORT, metrics: [] })).toMatch(/at least one metric/)
      expect(refusal('run_report', { ...REPORT, dateRanges: [] })).toMatch(
        /at least one date range/,
      )
      expect(refusal('run_reports', { propertiesId: '1', requests: [] })).toMatch(
        /at least one report request/,
      )
    })
  })

  it('run_realtime_report: minuteRanges within 0 to 29, at most 2, start at least end', () => {
    const realtime = { propertiesId: '1', metrics: [{ name: 'activeUsers' }] }
    accepts('run_realtime_report', realtime)
    accepts('run_realtime_report', {
      ...realtime,
      minuteRanges: [{ startMinutesAgo: 29, endMinutesAgo: 15 }, {}],
    })
    expect(
      refusal('run_realtime_report', { ...realtime, minuteRanges: [{ startMinutesAgo: 30 }] }),
    ).toMatch(/startMinutesAgo must be from 0 to 29: realtime covers the last 30 minutes/)
    expect(
      refusal('run_realtime_report', {
        ...realtime,
        minuteRanges: [{ startMinutesAgo: 2, endMinutesAgo: 5 }],
      }),
    ).toMatch(/startMinutesAgo 2 is more recent than endMinutesAgo 5/)
    expect(refusal('run_realtime_report', { ...realtime, minuteRanges: [{}, {}, {}] })).toMatch(
      /at most 2 minute ranges/,
    )
    expect(refusal('run_realtime_report', { ...realtime, dateRanges: REPORT.dateRanges })).toMatch(
      /does not take "dateRanges"/,
    )
  })

  it('run_reports: 1 to 5 requests, each a report without propertiesId', () => {
    const { propertiesId: _, ...request } = REPORT
    accepts('run_reports', { propertiesId: '1', requests: Array(5).fill(request) })
    expect(refusal('run_reports', { propertiesId: '1', requests: Array(6).fill(request) })).toMatch(
      /at most 5 reports in one call: split them over several calls/,
    )
    expect(refusal('run_reports', { propertiesId: '1', requests: [] })).toMatch(
      /at least one report request/,
    )
    expect(refusal('run_reports', { propertiesId: '1', requests: [REPORT] })).toMatch(
      /requests.0: a report request has no field "propertiesId": remove it/,
    )
    expect(
      refusal('run_reports', { propertiesId: '1', requests: [request, { ...request, limit: 0 }] }),
    ).toMatch(/requests.1.limit: limit must be at least 1/)
  })
})
