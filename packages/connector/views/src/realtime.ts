import { Chart } from './chart.js'
import { h } from './dom.js'
import { nameOf } from './format.js'
import { metricChoice } from './over-time.js'
import { rankedTable } from './ranked.js'
import { dimensionValue, metricValue, tableOf, type Table } from './table.js'
import { titleOf } from './titles.js'
import { figures, heading, notes, startView, type Drawing } from './view.js'

/**
 * run_realtime_report: what is happening on the site now. Without dimensions, the figures
 * themselves, large; by minute, a bar for each of the last 30 minutes; by anything else (country,
 * page, event), the rows ranked.
 */

startView({
  name: 'realtime',
  waiting: 'Waiting for the realtime report…',
  draw(drawing) {
    const table = tableOf(drawing.content)
    if (!table) throw new Error('not a realtime table')
    const { formats, input } = drawing
    const now = new Intl.DateTimeFormat(formats.locale, { hour: '2-digit', minute: '2-digit' })
    const top = heading(
      titleOf(table),
      typeof input.propertiesId === 'string' ? `Property ${input.propertiesId}` : undefined,
      `the last 30 minutes, at ${now.format(new Date())}`,
    )
    if (!table.rows.length)
      return [top, h('p', { class: 'notice' }, 'Nobody on the site in the last 30 minutes.')]
    const figuresRow = table.totals?.[0] ?? (table.dimensions.length ? undefined : table.rows[0])
    const big =
      figuresRow &&
      figures(
        table.metrics.map((metric, i) => ({
          label: nameOf(metric.name),
          value: formats.value(metric, metricValue(table, figuresRow, i)),
        })),
        true,
      )
    if (!table.dimensions.length) return [top, big!]
    const more = notes(
      table.rowCount !== undefined &&
        table.rowCount > table.rows.length &&
        `${table.rows.length} of ${table.rowCount} rows.`,
    )
    const drawn =
      table.dimensions.length === 1 && table.dimensions[0] === 'minutesAgo'
        ? byMinute(table, drawing)
        : [rankedTable(table, formats, `Last 30 minutes by ${table.dimensions.join(' and ')}`)]
    return [top, ...(big ? [big] : []), ...drawn, ...(more ? [more] : [])]
  },
})

/** A bar per minute, oldest on the left; with several metrics, one chosen at a time. */
function byMinute(table: Table, drawing: Drawing): Node[] {
  const { formats } = drawing
  const { index, picker } = metricChoice(table, drawing)
  const metric = table.metrics[index]!
  const byAgo = new Map<number, number | null>()
  for (const row of table.rows)
    byAgo.set(-Number(dimensionValue(row, 0)), metricValue(table, row, index))
  const x = [...byAgo.keys()].filter(Number.isFinite).sort((a, b) => a - b)
  const label = (value: number) => (value === 0 ? 'now' : `${-value} min ago`)
  const chart = new Chart(formats)
  chart.draw({
    x,
    time: false,
    bars: true,
    axisLabel: (value) => (value % 5 === 0 ? label(value) : ''),
    pointLabel: label,
    series: [
      { label: nameOf(metric.name), metric, color: 1, values: x.map((v) => byAgo.get(v) ?? null) },
    ],
    description: `${nameOf(metric.name)} in each of the last 30 minutes`,
  })
  return [...(picker ? [picker] : []), chart.element]
}
