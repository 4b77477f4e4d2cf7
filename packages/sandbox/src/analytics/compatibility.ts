import { invalidArgument } from '../http/errors.js'
import type { CoreDimension } from './core-dimension.js'
import type { Metric, Scope } from './fields.js'

/**
 * Which dimensions and metrics go together in one core report: a small, realistic subset of the
 * real API's rules, decided by what each field is counted per (its scope).
 *
 * 1. Item fields (itemName, itemCategory, itemBrand, ...; itemsViewed, itemsPurchased,
 *    itemRevenue, cartToViewRate, ...: those of scope `item` in schema/) describe the items of
 *    e-commerce events. With any of them, every metric must be an item metric, and no dimension
 *    may be event-scoped (eventName, pagePath, ...).
 * 2. Event-scoped custom dimensions (customEvent:...) describe single events: they cannot be
 *    combined with user or session metrics (activeUsers, sessions, engagementRate, ...).
 *
 * Dimensions used only in the dimension filter count too. Everything else combines; user and
 * session metrics split by an event dimension count each user or session once per row.
 *
 * The report then reads the cells of the finest scope it needs: item cells, event cells, or
 * session cells.
 */
export function compatibleScope(
  dimensions: readonly CoreDimension[],
  metrics: readonly Metric[],
): Scope {
  const items = [...dimensions, ...metrics].some((field) => field.scope === 'item')
  if (items) {
    const offender =
      metrics.find((m) => m.scope !== 'item') ?? dimensions.find((d) => d.scope === 'event')
    if (offender) throw incompatible(offender.apiName)
    return 'item'
  }
  const customEvent = dimensions.find((d) => d.scope === 'event' && d.customDefinition)
  if (customEvent && metrics.some((m) => m.scope === 'session'))
    throw incompatible(customEvent.apiName)
  return dimensions.some((d) => d.scope === 'event') ? 'event' : 'session'
}

const incompatible = (name: string) =>
  invalidArgument(
    `Please remove ${name} to make the request compatible. The request's dimensions & metrics are incompatible. To learn more, see https://ga-dev-tools.web.app/ga4/dimensions-metrics-explorer/`,
  )
