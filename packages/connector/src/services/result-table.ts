import { z } from 'zod'

/**
 * The compact table a model reads for search performance and for analytics reports (docs/design.md,
 * "Results sized for a model"). The columns are named once, dimensions then metrics, each metric
 * with its type; each row is an array of values in that order, numbers as JSON numbers rounded to
 * what a person reads. Each service's table adds what its provider said (paging, aggregation,
 * totals) between the columns and the rows. Measured against the provider's own JSON of the same
 * page, such a row costs about half the tokens (docs/decisions.md, "Results sized for a model").
 */

/** A metric's type, as the analytics API's MetricType without its `TYPE_` prefix. */
const METRIC_TYPES =
  'integer, float, seconds, milliseconds, minutes, hours, standard, currency, feet, miles, meters or kilometers'

/** One value of a row: a dimension's text, a metric's number, or null where none was given. */
const cell = z.union([z.string(), z.number(), z.null()])

export const tableRows = (what: string) => z.array(z.array(cell)).describe(what)

const metricColumn = z.strictObject({
  name: z.string(),
  type: z.string().describe(`The metric's unit: ${METRIC_TYPES}.`),
})

/** The columns every table names first. */
export const tableColumns = {
  dimensions: z.array(z.string()).describe('The dimension columns: each row starts with them.'),
  metrics: z.array(metricColumn).describe('The metric columns, after the dimensions.'),
}

/**
 * The rows, which every table puts last: a host that cuts a long result (VS Code keeps what fits
 * its prompt) still leaves the model the columns and the way to the next page.
 */
export const tableBody = {
  rows: tableRows('The rows: the dimensions’ values, then the metrics’ values, in that order.'),
}

export type MetricColumn = z.output<typeof metricColumn>

export type Cell = string | number | null

/** `value` rounded to `decimals` places (0.123456, 4: 0.1235); JSON then writes it short. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals
  return Math.round(value * scale) / scale
}

/**
 * `value` to `digits` significant digits, never rounding its whole part: 0.586666 -> 0.5867,
 * 183.4567 -> 183.5, 123456.7 -> 123457, 0.000123456 -> 0.0001235.
 */
export function significant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value
  const whole = Math.floor(Math.log10(Math.abs(value))) + 1
  return roundTo(value, Math.max(0, digits - whole))
}

/**
 * A number the provider wrote as text (the analytics API's int64 and double values), as a
 * number; text that is not a number stays as it is, and no text is null.
 */
export function numberOf(text: string | undefined): Cell {
  if (text === undefined) return null
  const value = Number(text)
  return text.trim() === '' || !Number.isFinite(value) ? text : value
}
