import { nameOf } from './format.js'
import type { Table } from './table.js'

/**
 * What a report shows, from its columns: Sessions and active users by date and country; past
 * three metrics, the first two and how many more.
 */
export function titleOf(table: Table): string {
  const names = table.metrics.map((m) => nameOf(m.name))
  const metrics =
    names.length > 3 ? `${names.slice(0, 2).join(', ')} and ${names.length - 2} more` : list(names)
  const dimensions = list(table.dimensions.map((d) => nameOf(d).toLowerCase()))
  return dimensions ? `${metrics} by ${dimensions}` : metrics
}

function list(items: string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  const rest = items.slice(1).map((item) => item.charAt(0).toLowerCase() + item.slice(1))
  return `${[items[0], ...rest.slice(0, -1)].join(', ')} and ${rest.at(-1)}`
}
