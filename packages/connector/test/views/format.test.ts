import { describe, expect, it } from 'vitest'
import { Formats, nameOf } from '../../views/src/format.js'
import { scaleKeys } from '../../views/src/scales.js'
import { tableOf, timeOf, timeUnitOf } from '../../views/src/table.js'

/** What the views write for people, and how they read the tables: no browser needed. */

const en = new Formats('en-GB', 'EUR')
const integer = { name: 'sessions', type: 'integer' }

describe('the views’ numbers, dates and names', () => {
  it('numbers as a person reads them: thousands, percentages, positions, durations, money', () => {
    expect(en.value({ name: 'clicks', type: 'integer' }, 1234567)).toBe('1,234,567')
    expect(en.value({ name: 'ctr', type: 'float' }, 0.0437)).toBe('4.4%')
    expect(en.value({ name: 'engagementRate', type: 'float' }, 0.5867)).toBe('58.7%')
    expect(en.value({ name: 'position', type: 'float' }, 7.25)).toBe('7.3')
    expect(en.value({ name: 'averageSessionDuration', type: 'seconds' }, 185.4)).toBe('3m 05s')
    expect(en.value({ name: 'averageSessionDuration', type: 'seconds' }, 8.26)).toBe('8.3s')
    expect(en.value({ name: 'userEngagementDuration', type: 'seconds' }, 7260)).toBe('2h 01m')
    expect(en.value({ name: 'totalRevenue', type: 'currency' }, 1234.5)).toBe('€1,234.50')
    expect(en.value(integer, null)).toBe('–')
    expect(new Formats('de-DE', undefined).value(integer, 1234567)).toBe('1.234.567')
  })

  it('axes short, dates as dates', () => {
    expect(en.axis(integer, 12_500)).toBe('12.5k')
    expect(en.axis({ name: 'ctr', type: 'float' }, 0.05)).toBe('5%')
    expect(en.day('2026-11-03')).toBe('3 Nov 2026')
    expect(en.time('hour', Date.UTC(2026, 10, 3, 14) / 1000)).toBe('3 Nov, 14:00')
    expect(en.time('month', Date.UTC(2026, 10, 1) / 1000)).toBe('Nov 2026')
  })

  it('names in words', () => {
    expect(nameOf('activeUsers')).toBe('Active users')
    expect(nameOf('sessionDefaultChannelGroup')).toBe('Session default channel group')
    expect(nameOf('ctr')).toBe('CTR')
    expect(nameOf('customUser:membership_tier')).toBe('membership_tier')
  })
})

describe('the views’ reading of a table', () => {
  it('time dimensions of both providers, read in the data’s own clock', () => {
    const day = Date.UTC(2026, 10, 3) / 1000
    expect(timeOf('date', '2026-11-03')).toBe(day)
    expect(timeOf('date', '20261103')).toBe(day)
    expect(timeOf('dateHour', '2026110314')).toBe(day + 14 * 3600)
    expect(timeOf('dateHourMinute', '202611031405')).toBe(day + 14 * 3600 + 300)
    expect(timeOf('yearMonth', '202611')).toBe(Date.UTC(2026, 10, 1) / 1000)
    expect(timeOf('hour', '2026-11-03T14:00:00-08:00')).toBe(day + 14 * 3600)
    expect(timeOf('date', '(other)')).toBeUndefined()
    expect(timeUnitOf('country')).toBeUndefined()
  })

  it('draws only what is a table', () => {
    expect(tableOf({ dimensions: [], metrics: [], rows: [] })).toBeDefined()
    expect(tableOf({ reports: [] })).toBeUndefined()
    expect(tableOf('text')).toBeUndefined()
  })

  it('scales: clicks and impressions each their own, users and sessions one, a rate its own', () => {
    const series = (name: string, type: string, peak: number) => ({
      metric: { name, type },
      values: [peak / 2, peak],
    })
    expect(
      scaleKeys([series('clicks', 'integer', 1_000), series('impressions', 'integer', 7_000)]),
    ).toEqual(['y0', 'y1'])
    expect(
      scaleKeys([
        series('activeUsers', 'integer', 5_000),
        series('sessions', 'integer', 6_500),
        series('engagementRate', 'float', 0.6),
        series('bounceRate', 'float', 0.4),
      ]),
    ).toEqual(['y0', 'y0', 'y1', 'y1'])
  })
})
