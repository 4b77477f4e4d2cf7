import { h } from './dom.js'
import { nameOf, type Formats } from './format.js'
import { breakdown, lines, timeAxisOf } from './over-time.js'
import { rankedTable } from './ranked.js'
import { metricValue, tableOf, type Table } from './table.js'
import { titleOf } from './titles.js'
import { heading, notes, startView, type Drawing } from './view.js'

/**
 * run_report and run_reports: each report by a time dimension as lines over time (with a second
 * dimension, one line for each of its largest values), by anything else as ranked rows; several
 * reports one after the other.
 */

startView({
  name: 'report',
  waiting: 'Waiting for the report…',
  draw(drawing) {
    const content = drawing.content as { reports?: unknown[] } | undefined
    const several = Array.isArray(content?.reports)
    const tables = several ? content!.reports! : [content]
    const requests = several
      ? ((drawing.input.requests as unknown[] | undefined) ?? [])
      : [drawing.input]
    const property =
      typeof drawing.input.propertiesId === 'string'
        ? `Property ${drawing.input.propertiesId}`
        : undefined
    return tables.flatMap((value, i) => {
      const table = tableOf(value)
      if (!table) throw new Error('not a report table')
      const request = (requests[i] ?? {}) as Record<string, unknown>
      // Each report keeps its own controls.
      const controls = (drawing.controls[i] ??= {}) as Record<string, unknown>
      const title = several
        ? `Report ${i + 1} of ${tables.length}: ${titleOf(table)}`
        : titleOf(table)
      return [
        h(
          'section',
          { class: 'report' },
          heading(title, property, rangeOf(drawing.formats, request.dateRanges)),
          ...drawReport(table, { ...drawing, controls }),
        ),
      ]
    })
  },
})

function drawReport(table: Table, drawing: Drawing): Node[] {
  const { formats } = drawing
  const caption = titleOf(table)
  const more = notes(
    table.rowCount !== undefined &&
      table.rowCount > table.rows.length &&
      `${table.rows.length} of ${formats.value({ name: 'rows', type: 'integer' }, table.rowCount)} rows; the assistant can fetch the rest.`,
    table.metrics.some((m) => m.type === 'currency') &&
      table.metadata?.currencyCode &&
      `Money in ${table.metadata.currencyCode}.`,
  )
  if (!table.rows.length) return [h('p', { class: 'notice' }, 'No data for this report.')]
  const drawn = !timeAxisOf(table)
    ? [rankedTable(table, formats, caption)]
    : table.dimensions.length === 1
      ? lines(table, drawing, {
          tiles: table.metrics.map((metric, i) => ({
            label: nameOf(metric.name),
            value: totalOf(table, i, formats),
          })),
          shown: table.metrics.map((_, i) => i).slice(0, 2),
          caption,
        })
      : table.dimensions.length === 2
        ? breakdown(table, drawing, caption)
        : [rankedTable(table, formats, caption)]
  return [...drawn, ...(more ? [more] : [])]
}

/** A metric's total, where the report has one (metricAggregations TOTAL). */
function totalOf(table: Table, metric: number, formats: Formats): string | undefined {
  const row = table.totals?.[0]
  if (!row) return undefined
  return formats.value(table.metrics[metric]!, metricValue(table, row, metric))
}

/** The report's date ranges as asked: 28daysAgo – yesterday reads 28 days ago – yesterday. */
function rangeOf(formats: Formats, ranges: unknown): string | undefined {
  if (!Array.isArray(ranges) || !ranges.length) return undefined
  const day = (text: unknown) =>
    typeof text !== 'string'
      ? '?'
      : /^\d+daysAgo$/.test(text)
        ? text.replace(/^(\d+)daysAgo$/, '$1 days ago')
        : formats.day(text)
  const read = (range: { startDate?: unknown; endDate?: unknown }) =>
    `${day(range.startDate)} – ${day(range.endDate)}`
  const shown = ranges.slice(0, 2).map((r) => read(r as { startDate?: unknown }))
  return ranges.length > 1 ? `${shown.join(' vs ')}${ranges.length > 2 ? ' …' : ''}` : shown[0]
}
