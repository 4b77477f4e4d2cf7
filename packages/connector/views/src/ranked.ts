import { h } from './dom.js'
import { nameOf, type Formats } from './format.js'
import { dimensionValue, metricValue, timeOf, timeUnitOf, type Table } from './table.js'

/**
 * Rows ranked as the provider ordered them: each dimension's text in full, each metric's value
 * readable, and a bar behind the first metric's value to show the ranking at a glance. It
 * scrolls inside the view, which stays within the host's inline height.
 */
export function rankedTable(table: Table, formats: Formats, caption: string): HTMLElement {
  const first = table.metrics.length ? 0 : -1
  const peak = Math.max(
    0,
    ...table.rows.map((row) => (first < 0 ? 0 : (metricValue(table, row, first) ?? 0))),
  )
  const head = h(
    'tr',
    {},
    ...table.dimensions.map((d) => h('th', { scope: 'col' }, dimensionHeading(table, d))),
    ...table.metrics.map((m) => h('th', { scope: 'col', class: 'num' }, nameOf(m.name))),
  )
  const body = table.rows.map((row) =>
    h(
      'tr',
      {},
      ...table.dimensions.map((d, i) =>
        h(
          'td',
          { class: 'text', 'data-label': nameOf(d) },
          dimensionText(formats, d, dimensionValue(row, i)),
        ),
      ),
      ...table.metrics.map((metric, i) => {
        const value = metricValue(table, row, i)
        const cell = h(
          'td',
          { class: 'num', 'data-label': nameOf(metric.name) },
          formats.value(metric, value),
        )
        if (i === first && peak > 0 && value !== null && value > 0) {
          cell.classList.add('bar')
          cell.style.setProperty('--share', `${Math.round((value / peak) * 100)}%`)
        }
        return cell
      }),
    ),
  )
  const scroller = h(
    'div',
    { class: 'scroll', role: 'region', 'aria-label': caption, tabindex: '0' },
    h('table', {}, h('thead', {}, head), h('tbody', {}, ...body)),
  )
  return scroller
}

function dimensionHeading(table: Table, dimension: string): string {
  const name = nameOf(dimension)
  return dimension === 'page' && table.pageOrigin ? `${name} (on ${table.pageOrigin})` : name
}

/** A dimension's value as a person reads it: dates as dates, DESKTOP as Desktop. */
export function dimensionText(formats: Formats, dimension: string, value: string): string {
  const unit = timeUnitOf(dimension)
  const time = unit && timeOf(dimension, value)
  if (unit && time !== undefined) return formats.time(unit, time, true)
  if (dimension === 'device' && /^[A-Z]+$/.test(value))
    return value.charAt(0) + value.slice(1).toLowerCase()
  if (dimension === 'country' && /^[a-z]{3}$/.test(value)) return value.toUpperCase()
  return value === '' ? '(not set)' : value
}
