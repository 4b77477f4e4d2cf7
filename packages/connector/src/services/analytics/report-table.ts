import { z } from 'zod'
import {
  numberOf,
  roundTo,
  significant,
  tableBody,
  tableColumns,
  tableRows,
  type Cell,
  type MetricColumn,
} from '../result-table.js'
import type { realtimeReport, report as reportAnswer } from './resources.js'

/**
 * A report as the model reads it: the analytics API's answer (resources.ts) as a compact table
 * (services/result-table.ts). The metric values, which the API writes as strings, become numbers
 * by their declared type; the dimension values stay the API's text. What the provider said that
 * a person would want is kept: the row count of the whole report, totals, maximums and minimums,
 * the currency, time zone, sampling and thresholding notes, and the quota where asked.
 */

/** The rows of a metric aggregation: as `rows`, one per date range, with reserved dimensions. */
const aggregateRows = (aggregation: string, reserved: string) =>
  tableRows(
    `With metricAggregations ${aggregation}: one row per date range, its dimensions reading ${reserved}.`,
  ).optional()

const rowCount = z
  .number()
  .int()
  .describe('Rows in the whole report, whatever limit and offset; 0 when it is empty.')

const nextOffset = z
  .number()
  .int()
  .optional()
  .describe('The offset of the next page; absent on the last one.')

/** What a report says beside its rows, after its row count (and next page). */
const aside = {
  totals: aggregateRows('TOTAL or COUNT', 'RESERVED_TOTAL or RESERVED_COUNT'),
  maximums: aggregateRows('MAXIMUM', 'RESERVED_MAX'),
  minimums: aggregateRows('MINIMUM', 'RESERVED_MIN'),
  metadata: z
    .looseObject({ currencyCode: z.string().optional(), timeZone: z.string().optional() })
    .optional()
    .describe('The currency of revenue values, the time zone of dates, and any sampling notes.'),
  propertyQuota: z
    .looseObject({})
    .optional()
    .describe('With returnPropertyQuota: the property’s quota, consumed and remaining.'),
}

export const reportTable = z
  .strictObject({ ...tableColumns, rowCount, nextOffset, ...aside, ...tableBody })
  .describe('A report, as a table.')

/** The realtime API has no offset. */
export const realtimeTable = z
  .strictObject({ ...tableColumns, rowCount, ...aside, ...tableBody })
  .describe('A report of the last 30 minutes, as a table.')

export const reportTables = z
  .strictObject({
    reports: z.array(reportTable).describe('One table per request, in order.'),
  })
  .describe('Several reports, as tables.')

/** A core or realtime report's answer: the same fields. */
type ReportAnswer = z.output<typeof reportAnswer> | z.output<typeof realtimeReport>
type AnswerRow = NonNullable<ReportAnswer['rows']>[number]

/**
 * The table of one report. `offset` is where the page asked for starts, for `nextOffset`; a
 * realtime report, which has no paging, gives none.
 */
export function reportTableOf(answer: ReportAnswer, offset?: number): Record<string, unknown> {
  const metrics: MetricColumn[] = (answer.metricHeaders ?? []).map(({ name, type }) => ({
    name,
    type: metricType(type),
  }))
  const asRows = (rows: AnswerRow[]) => rows.map((row) => tableRow(row, metrics))
  const rows = answer.rows ?? []
  const count = answer.rowCount ?? 0
  const table: Record<string, unknown> = {
    dimensions: (answer.dimensionHeaders ?? []).map((header) => header.name),
    metrics,
    rowCount: count,
  }
  if (offset !== undefined && offset + rows.length < count) table.nextOffset = offset + rows.length
  for (const key of ['totals', 'maximums', 'minimums'] as const) {
    const aggregate = answer[key]
    if (aggregate?.length) table[key] = asRows(aggregate)
  }
  if (answer.metadata) table.metadata = answer.metadata
  if (answer.propertyQuota) table.propertyQuota = answer.propertyQuota
  table.rows = asRows(rows)
  return table
}

/** `TYPE_INTEGER` as `integer`; a type the API left out (unspecified) as `standard`. */
export const metricType = (type: string | undefined) =>
  type ? type.replace(/^TYPE_/, '').toLowerCase() : 'standard'

function tableRow(row: AnswerRow, metrics: readonly MetricColumn[]): Cell[] {
  const cells: Cell[] = (row.dimensionValues ?? []).map((value) => value.value ?? '')
  ;(row.metricValues ?? []).forEach(({ value }, i) => {
    const number = numberOf(value)
    cells.push(typeof number === 'number' ? rounded(number, metrics[i]?.type) : number)
  })
  return cells
}

/**
 * A metric's value as a person reads it: counts whole, money to the cent, and the rest (rates,
 * averages, durations, distances) to four significant digits without touching the whole part:
 * an engagement rate of 0.5866666 reads 0.5867, a duration of 183.4567 s reads 183.5.
 */
function rounded(value: number, type: string | undefined): number {
  if (type === 'integer') return value
  if (type === 'currency') return roundTo(value, 2)
  return significant(value, 4)
}
