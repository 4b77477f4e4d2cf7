import { localNow, MS_PER_MINUTE } from '../synthetic/calendar.js'
import { Mulberry32, seedOf, Weighted } from '../synthetic/random.js'
import { addEvents, keyEventsOf, M, MEASURE_COUNT } from './measures.js'
import type { PropertyProfile } from './property.js'
import { DIURNAL, EVENT_NAMES, TECHNOLOGIES, type EventName } from './vocabulary.js'

/**
 * A property's activity minute by minute, for realtime reports: generated from the property and
 * the minute's number (minutes since 1970), so that the same minute always reads the same, and
 * about as busy as the property's traffic at that hour of its day. Kept in a bounded cache.
 */

/** One minute of activity: cells of users doing one thing on one page. */
export interface MinuteBlock {
  place: Uint8Array
  technology: Uint8Array
  page: Uint8Array
  name: Uint8Array
  /** The users' membership tier (the user-scoped custom dimension). */
  tier: Uint8Array
  /** By measure (measures.ts): only the REALTIME_MEASURES are kept, the others are empty. */
  measures: Uint32Array[]
  count: number
}

/** What a realtime cell counts: its active users and its events. */
export const REALTIME_MEASURES = [
  M.activeUsers,
  M.eventCount,
  M.screenPageViews,
  M.keyEvents,
] as const

const REALTIME_EVENTS: readonly [EventName, number][] = [
  ['page_view', 40],
  ['user_engagement', 25],
  ['scroll', 14],
  ['session_start', 8],
  ['click', 5],
  ['view_item', 3],
  ['add_to_cart', 1.5],
  ['sign_up', 1],
  ['form_submit', 1],
  ['purchase', 0.5],
]
const EVENT_PICK = new Weighted(REALTIME_EVENTS.map(([, w]) => w))
const TECHNOLOGY = new Weighted(TECHNOLOGIES.map((t) => t.weight))
const TIERS = new Weighted([1, 5, 3, 1.5])
const DIURNAL_TOTAL = DIURNAL.reduce((a, b) => a + b, 0)
const NOT_KEPT = new Uint32Array(0)

const minutes = new Map<string, MinuteBlock>()
const MAX_MINUTES = 5000

export function minuteBlock(profile: PropertyProfile, minute: number): MinuteBlock {
  const key = `${profile.id}:${minute}`
  const known = minutes.get(key)
  if (known) return known
  const random = new Mulberry32(seedOf(profile.id, 'minute', minute))
  const { hour } = localNow(profile.timeZone, minute * MS_PER_MINUTE)
  const day = Math.floor(minute / 1440)
  const growth = 1 + Math.max(0, day - profile.firstDay) / 900
  const users = (profile.dailySessions * growth * DIURNAL[hour]!) / DIURNAL_TOTAL / 60
  const count = random.around(users * 1.5, 0.5, 1)
  const browse = new Weighted(profile.site.pages.map((p) => p.weight))
  const keyEvent = keyEventsOf(profile.site)
  const measures: Uint32Array[] = Array.from({ length: MEASURE_COUNT }, () => NOT_KEPT)
  for (const m of REALTIME_MEASURES) measures[m] = new Uint32Array(count)
  const block: MinuteBlock = {
    count,
    place: new Uint8Array(count),
    technology: new Uint8Array(count),
    page: new Uint8Array(count),
    name: new Uint8Array(count),
    tier: new Uint8Array(count),
    measures,
  }
  // A stream of its own, so that the other columns stay what they were.
  const tiers = new Mulberry32(seedOf(profile.id, 'minute-tier', minute))
  for (let i = 0; i < count; i++) block.tier[i] = TIERS.pick(tiers)
  const sums = new Float64Array(MEASURE_COUNT)
  for (let i = 0; i < count; i++) {
    const name = EVENT_NAMES.indexOf(REALTIME_EVENTS[EVENT_PICK.pick(random)]![0])
    const active = 1 + Math.floor(random.next() * 3)
    const events = active + Math.floor(random.next() * active * 2)
    block.place[i] = profile.places.pick(random)
    block.technology[i] = TECHNOLOGY.pick(random)
    block.page[i] = browse.pick(random)
    block.name[i] = name
    sums.fill(0)
    sums[M.activeUsers] = active
    addEvents(sums, name, events, 0, keyEvent)
    for (const m of REALTIME_MEASURES) measures[m]![i] = sums[m]!
  }
  if (minutes.size >= MAX_MINUTES) minutes.delete(minutes.keys().next().value!)
  minutes.set(key, block)
  return block
}
