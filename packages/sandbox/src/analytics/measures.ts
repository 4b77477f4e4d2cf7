import { EVENT_NAMES, eventIndex, type SiteKind } from './vocabulary.js'

/**
 * The sums every metric is computed from. A report adds them up per row; a metric is one of
 * them (`sessions`) or a ratio of some (`engagementRate` = engagedSessions / sessions), so a total
 * is the total of the sums, never a sum of ratios.
 *
 * Session measures belong to a session cell. Event measures are counted per event, and a session
 * cell also holds their sum over its events, so that a report without event dimensions reads
 * session cells only. Item measures belong to item cells. Money is in minor units (cents).
 * Realtime minutes keep a few of the same measures.
 */
export const M = {
  sessions: 0,
  engagedSessions: 1,
  activeUsers: 2,
  totalUsers: 3,
  newUsers: 4,
  sessionDuration: 5,
  engagementDuration: 6,
  eventCount: 7,
  screenPageViews: 8,
  keyEvents: 9,
  transactions: 10,
  purchaseRevenue: 11,
  itemsViewed: 12,
  itemsAddedToCart: 13,
  itemsPurchased: 14,
  itemRevenue: 15,
} as const

export const MEASURE_COUNT = 16
export const SESSION_MEASURES = [0, 1, 2, 3, 4, 5, 6] as const
const EVENT_MEASURES = [7, 8, 9, 10, 11] as const
/** Session cells hold their own measures and the sums of their events'. */
export const SESSION_CELL_MEASURES = [...SESSION_MEASURES, ...EVENT_MEASURES]

const PAGE_VIEW = eventIndex('page_view')
const PURCHASE = eventIndex('purchase')

/** Whether each event (by its index in EVENT_NAMES) is one of the site's key events. */
export const keyEventsOf = (site: SiteKind): readonly boolean[] =>
  EVENT_NAMES.map((name) => site.keyEvents.includes(name))

/**
 * What `n` events of one name (its index in EVENT_NAMES) add to the event measures, wherever
 * they are counted (a session cell's sums, a report's rows, a realtime minute): each is an event,
 * a page_view is a view, a key event of the site a key event, a purchase a transaction; `revenue`
 * (minor units) is purchase revenue.
 */
export function addEvents(
  sums: Float64Array,
  name: number,
  n: number,
  revenue: number,
  keyEvent: readonly boolean[],
): void {
  sums[M.eventCount] = sums[M.eventCount]! + n
  if (name === PAGE_VIEW) sums[M.screenPageViews] = sums[M.screenPageViews]! + n
  if (keyEvent[name]) sums[M.keyEvents] = sums[M.keyEvents]! + n
  if (name === PURCHASE) sums[M.transactions] = sums[M.transactions]! + n
  sums[M.purchaseRevenue] = sums[M.purchaseRevenue]! + revenue
}
