import { describe, expect, it } from 'vitest'
import { reportTable, reportTableOf } from '../../../src/services/analytics/report-table.js'
import { significant } from '../../../src/services/result-table.js'

/** A report's answer as a table, value by value (through the connector: tools.test.ts). */

const values = (...texts: (string | undefined)[]) =>
  texts.map((value) => (value === undefined ? {} : { value }))

const answer = {
  dimensionHeaders: [{ name: 'date' }, { name: 'country' }],
  metricHeaders: [
    { name: 'sessions', type: 'TYPE_INTEGER' },
    { name: 'engagementRate', type: 'TYPE_FLOAT' },
    { name: 'averageSessionDuration', type: 'TYPE_SECONDS' },
    { name: 'totalRevenue', type: 'TYPE_CURRENCY' },
  ],
  rows: [
    {
      dimensionValues: values('20261105', 'France'),
      metricValues: values('3675', '0.5866666666666667', '183.45678', '1234.5678'),
    },
    {
      dimensionValues: values('20261106', undefined),
      metricValues: values('12', 'NaN', undefined, '0'),
    },
  ],
  totals: [
    {
      dimensionValues: values('RESERVED_TOTAL', 'RESERVED_TOTAL'),
      metricValues: values('3687', '0.58', '180', '1234.57'),
    },
  ],
  rowCount: 40,
  metadata: { currencyCode: 'EUR', timeZone: 'Europe/Paris', subjectToThresholding: true },
  kind: 'analyticsData#runReport' as const,
}

describe('a report as a table', () => {
  it('columns once, numbers by type, what the provider said kept, rows last', () => {
    const table = reportTableOf(answer, 10)
    expect(table).toEqual({
      dimensions: ['date', 'country'],
      metrics: [
        { name: 'sessions', type: 'integer' },
        { name: 'engagementRate', type: 'float' },
        { name: 'averageSessionDuration', type: 'seconds' },
        { name: 'totalRevenue', type: 'currency' },
      ],
      rowCount: 40,
      nextOffset: 12,
      totals: [['RESERVED_TOTAL', 'RESERVED_TOTAL', 3687, 0.58, 180, 1234.57]],
      metadata: { currencyCode: 'EUR', timeZone: 'Europe/Paris', subjectToThresholding: true },
      rows: [
        ['20261105', 'France', 3675, 0.5867, 183.5, 1234.57],
        // An empty dimension (left out of proto3 JSON), a value that is no number, none at all.
        ['20261106', '', 12, 'NaN', null, 0],
      ],
    })
    expect(Object.keys(table).at(-1)).toBe('rows')
    expect(reportTable.safeParse(table).success).toBe(true)
  })

  it('the last page names no next one; an empty report counts 0 rows; realtime has no offset', () => {
    expect(reportTableOf(answer, 38).nextOffset).toBeUndefined()
    expect(reportTableOf({ kind: 'analyticsData#runReport' as const }, 0)).toEqual({
      dimensions: [],
      metrics: [],
      rowCount: 0,
      rows: [],
    })
    expect(reportTableOf(answer).nextOffset).toBeUndefined()
  })

  it.each([
    [0.5866666, 0.5867],
    [183.4567, 183.5],
    [123456.7, 123457],
    [0.000123456, 0.0001235],
    [-2.345678, -2.346],
    [0, 0],
  ])('%s reads %s to four significant digits', (value, reads) => {
    expect(significant(value, 4)).toBe(reads)
  })
})
