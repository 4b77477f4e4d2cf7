import { Chart, type ChartData, type Series } from './chart.js'
import { h } from './dom.js'
import { nameOf, type Formats } from './format.js'
import { rankedTable } from './ranked.js'
import {
  dimensionValue,
  metricValue,
  timeOf,
  timeUnitOf,
  type Cell,
  type Table,
  type TimeUnit,
} from './table.js'
import { choice, tiles } from './tiles.js'
import type { Drawing } from './view.js'

/**
 * A table whose first dimension is time, drawn along it: one line per metric (with a second
 * dimension, one line per value of it for a chosen metric), or the same rows as a table.
 */

/** The time dimension a table is drawn along, if its first dimension is one. */
export function timeAxisOf(table: Table): TimeUnit | undefined {
  const first = table.dimensions[0]
  return first === undefined ? undefined : timeUnitOf(first)
}

interface Point {
  x: number
  row: Cell[]
}

/** The rows in time order, each with its moment; rows whose time cannot be read are left out. */
function pointsOf(table: Table): Point[] {
  const dimension = table.dimensions[0]!
  return table.rows
    .map((row) => ({ x: timeOf(dimension, dimensionValue(row, 0)), row }))
    .filter((p): p is Point => p.x !== undefined)
    .sort((a, b) => a.x - b.x)
}

export interface Lines {
  /** What each metric's toggle says, and its value over the whole span if known. */
  tiles: { label: string; value?: string }[]
  /** The metrics drawn at first. */
  shown: number[]
  /** What the chart and table are of, for people who cannot see it. */
  caption: string
}

/** One line per metric: the metrics' toggles, a chart or table switch, and the chart. */
export function lines(table: Table, drawing: Drawing, lines: Lines): Node[] {
  const { controls, redraw } = drawing
  const unit = timeAxisOf(table)!
  const points = pointsOf(table)
  const shown = (controls.shown ??= new Set(lines.shown)) as Set<number>
  const toggles = tiles(
    lines.tiles.map((tile, i) => ({ ...tile, color: i + 1, on: shown.has(i) })),
    (i) => {
      if (shown.has(i)) shown.delete(i)
      else shown.add(i)
      redraw()
    },
  )
  const series: Series[] = table.metrics.flatMap((metric, i) =>
    shown.has(i)
      ? [
          {
            label: nameOf(metric.name),
            metric,
            color: i + 1,
            values: points.map((p) => metricValue(table, p.row, i)),
          },
        ]
      : [],
  )
  const rows = points.map((p) => p.row)
  return [toggles, ...chartOrTable(table, drawing, unit, rows, points, series, lines.caption)]
}

/**
 * Time and a second dimension: for the chosen metric, one line for each of the second
 * dimension's five largest values (by the metric's sum over the rows shown).
 */
export function breakdown(table: Table, drawing: Drawing, caption: string): Node[] {
  const { formats } = drawing
  const unit = timeAxisOf(table)!
  const { index: metricIndex, picker } = metricChoice(table, drawing)
  const metric = table.metrics[metricIndex]!
  const points = pointsOf(table)
  const times = [...new Set(points.map((p) => p.x))]
  const sums = new Map<string, number>()
  for (const { row } of points) {
    const key = dimensionValue(row, 1)
    sums.set(key, (sums.get(key) ?? 0) + (metricValue(table, row, metricIndex) ?? 0))
  }
  const top = [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5)
  // With every row of the report here, a day without a row for a value had none of it; with
  // only the first rows, it may be among the rest, and its line breaks there.
  const whole = table.rowCount === undefined || table.rowCount <= table.rows.length
  const series: Series[] = top.map(([key], i) => {
    const byTime = new Map<number, number | null>()
    for (const p of points)
      if (dimensionValue(p.row, 1) === key) byTime.set(p.x, metricValue(table, p.row, metricIndex))
    return {
      label: key || '(not set)',
      metric,
      color: i + 1,
      values: times.map((x) => byTime.get(x) ?? (whole ? 0 : null)),
    }
  })
  const legend = legendOf(series, formats)
  const what = nameOf(table.dimensions[1]!).toLowerCase()
  const more = [
    sums.size > top.length && `The ${top.length} largest of ${sums.size} ${what} values.`,
    !whole && 'Lines break where a row is not among those fetched.',
  ]
    .filter(Boolean)
    .join(' ')
  const chartPoints = times.map((x) => ({ x, row: [] as Cell[] }))
  return [
    ...(picker ? [picker] : []),
    legend,
    ...chartOrTable(
      table,
      drawing,
      unit,
      points.map((p) => p.row),
      chartPoints,
      series,
      `${caption}, ${nameOf(metric.name)}`,
      true,
    ),
    ...(more ? [note(more)] : []),
  ]
}

/** The key of a breakdown's lines: each value's colour and name. */
function legendOf(series: Series[], formats: Formats): HTMLElement {
  return h(
    'ul',
    { class: 'legend' },
    ...series.map((s) => {
      const total = s.values.reduce<number>((sum, v) => sum + (v ?? 0), 0)
      return h('li', { class: `c${s.color}` }, `${s.label} (${formats.value(s.metric, total)})`)
    }),
  )
}

const note = (text: string) => h('p', { class: 'note' }, text)

/** `rows`: the table's rows in time order, for its table; `points`: the chart's moments. */
function chartOrTable(
  table: Table,
  drawing: Drawing,
  unit: TimeUnit,
  rows: Cell[][],
  points: { x: number }[],
  series: Series[],
  caption: string,
  oneScale = false,
): Node[] {
  const { formats, controls, redraw } = drawing
  const mode = Number(controls.mode ?? 0)
  const switcher = choice('Show as', ['Chart', 'Table'], mode, (i) => {
    controls.mode = i
    redraw()
  })
  switcher.classList.add('switch')
  if (mode === 1) {
    const ranked = rankedTable({ ...table, rows }, formats, caption)
    return [ranked, h('div', { class: 'chart-footer' }, h('p', { class: 'readout' }), switcher)]
  }
  const x = points.map((p) => p.x)
  const chart = new Chart(formats)
  const withYear = spansYears(x)
  const data: ChartData = {
    x,
    time: true,
    axisLabel: (value, step) =>
      step >= 28 * DAY
        ? formats.time('month', value)
        : step >= DAY || value % DAY === 0
          ? formats.time('day', value)
          : formats.time('clock', value),
    pointLabel: (value) => formats.time(unit, value, withYear),
    series,
    description: caption,
    oneScale,
  }
  chart.draw(data)
  chart.aside(switcher)
  return [chart.element]
}

const DAY = 86_400

const spansYears = (x: number[]) =>
  x.length > 1 &&
  new Date(x[0]! * 1000).getUTCFullYear() !== new Date(x.at(-1)! * 1000).getUTCFullYear()

/** The metric drawn when one is drawn at a time, and its picker where there is a choice. */
export function metricChoice(
  table: Table,
  { controls, redraw }: Drawing,
): { index: number; picker?: HTMLElement } {
  const index = Math.min(Number(controls.metric ?? 0), table.metrics.length - 1)
  if (table.metrics.length < 2) return { index }
  const names = table.metrics.map((m) => nameOf(m.name))
  const picker = choice('Metric', names, index, (i) => {
    controls.metric = i
    redraw()
  })
  return { index, picker }
}
