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
 *
 * A session cell stands for several sessions, so which of them had a key event is not known: it
 * counts as many as it had key events, at most all of them (`keyEventSessions`), and as many
 * users (`keyEventUsers`), per key event too (`purchaseSessions`, ...). These are not stored:
 * they are derived from the cell's own measures whenever a cell is added up (addKeyEventReach).
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
  addToCarts: 16,
  checkouts: 17,
  itemViewEvents: 18,
  signUps: 19,
  leads: 20,
  keyEventSessions: 21,
  keyEventUsers: 22,
  purchaseSessions: 23,
  purchaseUsers: 24,
  signUpSessions: 25,
  signUpUsers: 26,
  leadSessions: 27,
  leadUsers: 28,
} as const

export const MEASURE_COUNT = 29
export const SESSION_MEASURES = [0, 1, 2, 3, 4, 5, 6] as const
const EVENT_MEASURES = [7, 8, 9, 10, 11, 16, 17, 18, 19, 20] as const
/** Session cells hold their own measures and the sums of their events'. */
export const SESSION_CELL_MEASURES = [...SESSION_MEASURES, ...EVENT_MEASURES]

const PAGE_VIEW = eventIndex('page_view')
const PURCHASE = eventIndex('purchase')

/** Event measures that count one event name each. */
const COUNTED: readonly [number, number][] = [
  [eventIndex('add_to_cart'), M.addToCarts],
  [eventIndex('begin_checkout'), M.checkouts],
  [eventIndex('view_item'), M.itemViewEvents],
  [eventIndex('sign_up'), M.signUps],
  [eventIndex('generate_lead'), M.leads],
]

/**
 * The key events a site can have, each with the measures that count it: its events, and the
 * sessions and users that had it.
 */
export const KEY_EVENT_MEASURES = {
  purchase: { events: M.transactions, sessions: M.purchaseSessions, users: M.purchaseUsers },
  sign_up: { events: M.signUps, sessions: M.signUpSessions, users: M.signUpUsers },
  generate_lead: { events: M.leads, sessions: M.leadSessions, users: M.leadUsers },
} as const
export type KeyEventName = keyof typeof KEY_EVENT_MEASURES

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
  for (const [counted, m] of COUNTED) if (name === counted) sums[m] = sums[m]! + n
  sums[M.purchaseRevenue] = sums[M.purchaseRevenue]! + revenue
}

const REACHES = [
  { events: M.keyEvents, sessions: M.keyEventSessions, users: M.keyEventUsers },
  ...Object.values(KEY_EVENT_MEASURES),
]

/**
 * Adds to `sums` the sessions and users of a session cell (its measures read by `cell`) that had
 * a key event: as many as its key events, at most all of the cell's.
 */
export function addKeyEventReach(sums: Float64Array, cell: (measure: number) => number): void {
  const sessions = cell(M.sessions)
  const users = cell(M.activeUsers)
  for (const reach of REACHES) {
    const events = cell(reach.events)
    sums[reach.sessions] = sums[reach.sessions]! + Math.min(events, sessions)
    sums[reach.users] = sums[reach.users]! + Math.min(events, users)
  }
}
