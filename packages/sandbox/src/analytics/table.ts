import type { Dimension, Metric } from './fields.js'
import type { RowTest } from './filters.js'
import type { OrderBy } from './request.js'
import { OTHER, type SumRow } from './rows.js'

/**
 * The second half of every report, core or realtime: from rows of sums to the API's answer.
 * Metric values are computed from the sums; rows with nothing in them go (unless keepEmptyRows),
 * then those the metric filter refuses; the rest are sorted (the orderBys, then every dimension
 * value, so that pages are stable), aggregated (totals, minimums, maximums, counts) and paged.
 */

interface TableSpec {
  dimensions: readonly Dimension<never>[]
  /** Several ranges add the `dateRange` dimension, valued by their names. */
  rangeNames: readonly string[]
  /** The requested metrics first, then those only filtered on. */
  metrics: readonly Metric[]
  visible: number
  rows: SumRow[]
  metricFilter?: RowTest
  orderBys: readonly OrderBy[]
  offset: number
  limit: number
  aggregations: readonly string[]
  keepEmptyRows: boolean
  /** The sums of the kept rows, per range: their sum, unless users must be counted once. */
  totalSums(kept: readonly SumRow[]): Float64Array[]
}

interface Kept {
  row: SumRow
  values: number[]
  labels: string[]
}

const AGGREGATION_ROWS = {
  TOTAL: { key: 'totals', label: 'RESERVED_TOTAL' },
  COUNT: { key: 'totals', label: 'RESERVED_COUNT' },
  MAXIMUM: { key: 'maximums', label: 'RESERVED_MAX' },
  MINIMUM: { key: 'minimums', label: 'RESERVED_MIN' },
} as const

export function reportTable(spec: TableSpec) {
  const { dimensions, metrics, visible, rangeNames } = spec
  const ranged = rangeNames.length > 1
  const kept: Kept[] = []
  for (const row of spec.rows) {
    const values = metrics.map((metric) => metric.value(row.sums))
    if (!spec.keepEmptyRows && values.slice(0, visible).every((v) => v === 0)) continue
    if (spec.metricFilter && !spec.metricFilter(values)) continue
    const labels = dimensions.map((d, i) =>
      row.codes[i] === OTHER ? '(other)' : d.label(row.codes[i]!),
    )
    if (ranged) labels.push(rangeNames[row.range]!)
    kept.push({ row, values, labels })
  }
  kept.sort(comparator(spec))

  const table: Record<string, unknown> = {}
  const names = dimensions.map((d) => d.apiName)
  if (ranged) names.push('dateRange')
  if (names.length) table.dimensionHeaders = names.map((name) => ({ name }))
  table.metricHeaders = metrics.slice(0, visible).map((m) => ({ name: m.apiName, type: m.type }))
  const page = kept.slice(spec.offset, spec.offset + spec.limit)
  if (page.length) table.rows = page.map((k) => rowJson(k.labels, k.values, metrics, visible))
  if (kept.length && spec.aggregations.length) {
    const totals = spec.totalSums(kept.map((k) => k.row))
    for (const aggregation of new Set(spec.aggregations)) {
      const { key, label } = AGGREGATION_ROWS[aggregation as keyof typeof AGGREGATION_ROWS]
      const list = (table[key] ??= []) as unknown[]
      rangeNames.forEach((name, range) => {
        const labels: string[] = dimensions.map(() => label)
        if (ranged) labels.push(name)
        const inRange = kept.filter((k) => k.row.range === range)
        const values = metrics.map((metric, i) => {
          if (aggregation === 'TOTAL') return metric.value(totals[range]!)
          if (aggregation === 'COUNT') return inRange.length
          let extreme = inRange.length ? inRange[0]!.values[i]! : 0
          for (const k of inRange)
            extreme =
              aggregation === 'MAXIMUM'
                ? Math.max(extreme, k.values[i]!)
                : Math.min(extreme, k.values[i]!)
          return extreme
        })
        list.push(rowJson(labels, values, metrics, visible))
      })
    }
  }
  if (kept.length) table.rowCount = kept.length
  return table
}

function rowJson(labels: string[], values: number[], metrics: readonly Metric[], visible: number) {
  const metricValues = values
    .slice(0, visible)
    .map((value, i) => ({ value: formatted(value, metrics[i]!) }))
  return labels.length
    ? { dimensionValues: labels.map((value) => ({ value })), metricValues }
    : { metricValues }
}

/** All values are strings, as in the real API: integers without a fraction. */
function formatted(value: number, metric: Metric): string {
  if (metric.type === 'TYPE_INTEGER') return String(Math.round(value))
  return String(value)
}

function comparator(spec: TableSpec): (a: Kept, b: Kept) => number {
  const { dimensions, metrics, visible } = spec
  const dateRangeColumn = dimensions.length
  const orders = spec.orderBys.length
    ? spec.orderBys
    : [{ metric: { metricName: metrics[0]!.apiName }, desc: true }]
  const steps = orders.map((order) => {
    const sign = order.desc ? -1 : 1
    if (order.metric) {
      const index = metrics
        .slice(0, visible)
        .findIndex((m) => m.apiName === order.metric!.metricName)
      return (a: Kept, b: Kept) => sign * (a.values[index]! - b.values[index]!)
    }
    const name = order.dimension!.dimensionName
    const index =
      name === 'dateRange' ? dateRangeColumn : dimensions.findIndex((d) => d.apiName === name)
    const compare = valueComparator(order.dimension!.orderType)
    return (a: Kept, b: Kept) => sign * compare(a.labels[index]!, b.labels[index]!)
  })
  return (a, b) => {
    for (const step of steps) {
      const result = step(a, b)
      if (result !== 0) return result
    }
    for (let i = 0; i < a.labels.length; i++) {
      const result = byCodePoint(a.labels[i]!, b.labels[i]!)
      if (result !== 0) return result
    }
    return a.row.range - b.row.range
  }
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function valueComparator(orderType: string | undefined): (a: string, b: string) => number {
  if (orderType === 'CASE_INSENSITIVE_ALPHANUMERIC')
    return (a, b) => byCodePoint(a.toLowerCase(), b.toLowerCase())
  if (orderType === 'NUMERIC')
    // Values that are not numbers sort together, below every number.
    return (a, b) => {
      const [x, y] = [asNumber(a), asNumber(b)]
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1
      if (Number.isNaN(y)) return 1
      return x - y
    }
  return byCodePoint
}

const asNumber = (value: string) => (value.trim() === '' ? NaN : Number(value))
