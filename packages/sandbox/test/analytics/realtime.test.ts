import { afterEach, describe, expect, it, vi } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, column, dims, invalid, metrics, names, sum, table } from './client.js'

const sandbox = sandboxForSuite()

const REALTIME_SCHEMA =
  'For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema'

/** A new analytics user, with the clock (Date only) stopped at `iso` until the test ends. */
async function analystAt(iso: string) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date(iso))
  return analyticsUser(sandbox)
}

describe('analytics API: runRealtimeReport', () => {
  afterEach(() => vi.useRealTimers())

  it('the last 30 minutes by default: minutesAgo 00 to 29, in the realtime shape', async () => {
    const u = await analystAt('2026-04-03T16:45:10Z')
    const report = await u.realtime({
      dimensions: dims('minutesAgo'),
      metrics: metrics('activeUsers', 'eventCount', 'screenPageViews', 'keyEvents'),
      orderBys: [{ dimension: { dimensionName: 'minutesAgo' } }],
      metricAggregations: ['TOTAL'],
    })
    expect(report.kind).toBe('analyticsData#runRealtimeReport')
    expect(report.metadata).toBeUndefined()
    expect(report.metricHeaders.every((h: any) => h.type === 'TYPE_INTEGER')).toBe(true)
    expect(table(report).map((r) => r.dims[0])).toEqual(
      Array.from({ length: 30 }, (_, i) => String(i).padStart(2, '0')),
    )
    expect(report.rowCount).toBe(30)
    for (const r of table(report))
      expect(Number(r.metrics[1])).toBeGreaterThanOrEqual(Number(r.metrics[0]))
    expect(Number(report.totals[0].metricValues[0].value)).toBe(sum(column(report, 0)))
  })

  it('moves with the clock: a minute later, each minute is one minute further back', async () => {
    const u = await analystAt('2026-04-01T12:00:30Z')
    const byMinute = async () =>
      Object.fromEntries(
        table(
          await u.realtime({
            dimensions: dims('minutesAgo', 'deviceCategory'),
            metrics: metrics('activeUsers', 'eventCount'),
          }),
        ).map((r) => [r.dims.join('/'), r.metrics.join('/')]),
      )
    const now = await byMinute()
    expect(await byMinute()).toEqual(now)
    vi.setSystemTime(new Date('2026-04-01T12:01:30Z'))
    const later = await byMinute()
    for (const device of ['desktop', 'mobile']) {
      for (let ago = 0; ago < 29; ago++) {
        const at = (n: number) => `${String(n).padStart(2, '0')}/${device}`
        expect(later[at(ago + 1)]).toBe(now[at(ago)])
      }
    }
    expect(later).not.toEqual(now)
  })

  it('minuteRanges: up to two, each its own dateRange, within minutes 0 to 29', async () => {
    const u = await analystAt('2026-04-01T18:20:00Z')
    const report = await u.realtime({
      metrics: metrics('eventCount'),
      minuteRanges: [
        { startMinutesAgo: 29, endMinutesAgo: 15, name: 'earlier' },
        { startMinutesAgo: 14, endMinutesAgo: 0 },
      ],
    })
    expect(names(report.dimensionHeaders)).toEqual(['dateRange'])
    const byRange = Object.fromEntries(table(report).map((r) => [r.dims[0], Number(r.metrics[0])]))
    const whole = await u.realtime({ metrics: metrics('eventCount') })
    // The clock stands still: the two halves are the whole.
    expect(Object.keys(byRange).sort()).toEqual(['date_range_1', 'earlier'])
    expect(byRange.earlier! + byRange.date_range_1!).toBe(
      Number(whole.rows[0].metricValues[0].value),
    )
    const range = { startMinutesAgo: 5, endMinutesAgo: 0 }
    expect(
      invalid(
        await u.post('realtime-report', {
          metrics: metrics('eventCount'),
          minuteRanges: [range, range, range],
        }),
      ),
    ).toMatch(/up to 2 minute ranges/)
    expect(
      invalid(
        await u.post('realtime-report', {
          metrics: metrics('eventCount'),
          minuteRanges: [{ startMinutesAgo: 30 }],
        }),
      ),
    ).toMatch(/minutes 0 to 29/)
    expect(
      invalid(
        await u.post('realtime-report', {
          metrics: metrics('eventCount'),
          minuteRanges: [{ endMinutesAgo: -1 }],
        }),
      ),
    ).toMatch(/minutes 0 to 29/)
    expect(
      invalid(
        await u.post('realtime-report', {
          metrics: metrics('eventCount'),
          minuteRanges: [{ startMinutesAgo: 3, endMinutesAgo: 10 }],
        }),
      ),
    ).toMatch(/startMinutesAgo 3 is after endMinutesAgo 10/)
  })

  it('one minute range with a fixed clock: the rows of its minutes only', async () => {
    const u = await analystAt('2026-04-02T08:00:00Z')
    const all = await u.realtime({
      dimensions: dims('minutesAgo'),
      metrics: metrics('activeUsers'),
    })
    const some = await u.realtime({
      dimensions: dims('minutesAgo'),
      metrics: metrics('activeUsers'),
      minuteRanges: [{ startMinutesAgo: 4, endMinutesAgo: 2 }],
    })
    const keep = ['02', '03', '04']
    expect(table(some).sort()).toEqual(
      table(all)
        .filter((r) => keep.includes(r.dims[0]!))
        .sort(),
    )
  })

  it('realtime has its own dimensions: core-only names are not valid', async () => {
    const u = await analystAt('2026-04-03T16:45:10Z')
    const res = await u.post('realtime-report', {
      dimensions: dims('date'),
      metrics: metrics('activeUsers'),
    })
    expect(invalid(res)).toBe(`Field date is not a valid dimension. ${REALTIME_SCHEMA}`)
    expect(invalid(await u.post('realtime-report', { metrics: metrics('sessions') }))).toMatch(
      /^Field sessions is not a valid metric/,
    )
    const fine = await u.realtime({
      dimensions: dims(
        'country',
        'city',
        'deviceCategory',
        'platform',
        'unifiedScreenName',
        'eventName',
      ),
      metrics: metrics('activeUsers'),
      limit: 5,
    })
    expect(fine.rows).toHaveLength(5)
  })

  it('filters, orderBys and limit work as in core reports; there is no offset', async () => {
    const u = await analystAt('2026-04-03T16:45:10Z')
    const report = await u.realtime({
      dimensions: dims('eventName'),
      metrics: metrics('eventCount'),
      dimensionFilter: {
        filter: { fieldName: 'eventName', inListFilter: { values: ['page_view', 'scroll'] } },
      },
      orderBys: [{ dimension: { dimensionName: 'eventName' }, desc: true }],
    })
    expect(table(report).map((r) => r.dims[0])).toEqual(['scroll', 'page_view'])
    expect(
      invalid(await u.post('realtime-report', { metrics: metrics('eventCount'), offset: 5 })),
    ).toMatch(/Unknown name "offset"/)
  })
})
