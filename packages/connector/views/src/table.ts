/**
 * The compact tables the tools return (packages/connector/src/services/result-table.ts), as the
 * views read them: columns once, then rows of values. A view draws only what a table holds.
 */

export type Cell = string | number | null

export interface Metric {
  name: string
  /** The metric's unit: integer, float, seconds, currency… */
  type: string
}

export interface Table {
  dimensions: string[]
  metrics: Metric[]
  rows: Cell[][]
  /** Rows in the whole report (analytics), when it says. */
  rowCount?: number
  totals?: Cell[][]
  pageOrigin?: string
  firstIncompleteDate?: string
  nextStartRow?: number
  nextOffset?: number
  metadata?: { currencyCode?: string; timeZone?: string }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A table, when `value` is one; anything else is not drawn. */
export function tableOf(value: unknown): Table | undefined {
  if (!isObject(value)) return undefined
  const { dimensions, metrics, rows } = value
  if (!Array.isArray(dimensions) || !Array.isArray(metrics) || !Array.isArray(rows))
    return undefined
  return value as unknown as Table
}

/** A row's value of a metric, as a number (null where the provider gave none). */
export function metricValue(table: Table, row: Cell[], metric: number): number | null {
  const value = row[table.dimensions.length + metric]
  return typeof value === 'number' ? value : null
}

export const dimensionValue = (row: Cell[], dimension: number): string =>
  String(row[dimension] ?? '')

/** The time dimensions a view draws along an axis, and how each is written. */
const TIME_PATTERNS: Readonly<Record<string, RegExp>> = {
  // Search Console
  date: /^(\d{4})-?(\d{2})-?(\d{2})$/,
  // GA4: 20261125, 2026112514, 202611251405, 202611
  dateHour: /^(\d{4})(\d{2})(\d{2})(\d{2})$/,
  dateHourMinute: /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/,
  yearMonth: /^(\d{4})(\d{2})$/,
}

export type TimeUnit = 'day' | 'hour' | 'minute' | 'month'

const UNITS: Readonly<Record<string, TimeUnit>> = {
  date: 'day',
  hour: 'hour',
  dateHour: 'hour',
  dateHourMinute: 'minute',
  yearMonth: 'month',
}

export const timeUnitOf = (dimension: string): TimeUnit | undefined => UNITS[dimension]

/**
 * A time dimension's value as seconds since the epoch, in the clock of the data (treated as UTC so
 * that a day stays that day wherever the person is): undefined when it is not one.
 */
export function timeOf(dimension: string, value: string): number | undefined {
  if (dimension === 'hour') {
    // Search Console's hours: 2026-11-20T13:00:00-08:00, read in the site's clock.
    const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})/.exec(value)
    return match ? utc(match.slice(1)) : undefined
  }
  const match = TIME_PATTERNS[dimension]?.exec(value)
  if (!match) return undefined
  const parts = match.slice(1)
  if (dimension === 'yearMonth') parts.push('01')
  return utc(parts)
}

function utc([year, month, day, hour = '0', minute = '0']: string[]): number {
  return Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute)) / 1000
}
