import type { LocalNow } from './calendar.js'
import type { CoreDimension } from './catalog.js'
import type { DayBlock } from './day.js'
import { dayBlock } from './day-cache.js'
import type { Scope } from './fields.js'
import type { CellTest } from './filters.js'
import { M, MEASURE_COUNT, SESSION_CELL_MEASURES, SESSION_MEASURES } from './measures.js'
import type { PropertyProfile } from './property.js'
import { OTHER, type SumRow } from './table.js'
import { EVENT_NAMES, eventIndex } from './vocabulary.js'

/**
 * The first half of a core report: the cells of each day of each date range, filtered by the
 * dimension filter and added up by the requested dimensions' values. Session reports add session
 * cells; event reports add event cells, counting each session cell's users and sessions once per
 * row; item reports add item cells. The day's hours still to come are not there yet.
 */

export interface DayRange {
  first: number
  last: number
}

export interface AddUpSpec {
  profile: PropertyProfile
  scope: Scope
  ranges: readonly DayRange[]
  today: LocalNow
  dimensions: readonly CoreDimension[]
  test: CellTest<DayBlock> | undefined
  /** Report currency units per property currency unit. */
  rate: number
  /** Whether totals are asked for (metricAggregations): else they are not counted. */
  totals: boolean
}

interface Group extends SumRow {
  /** The session cell whose users were last added here, so that they are added once. */
  last: number
}

/**
 * Past this many distinct rows, new combinations are added to one "(other)" row per range, as
 * the real API does for reports of high cardinality (and says so: dataLossFromOtherRow). It
 * bounds the memory a report can take.
 */
export const MAX_DISTINCT_ROWS = 100_000

const PAGE_VIEW = eventIndex('page_view')
const PURCHASE = eventIndex('purchase')

export function addUp(spec: AddUpSpec) {
  const keyEvent = EVENT_NAMES.map((name) => spec.profile.site.keyEvents.includes(name))
  const groups = new Map<string, Group>()
  const totals: Group[] = spec.ranges.map((_, range) => newGroup([], range))
  const { dimensions } = spec
  const codes: number[] = new Array(dimensions.length)

  const others: Group[] = []
  const add = (to: Group, block: DayBlock, s: number, x: number, session: number) =>
    addCell(spec, keyEvent, to, block, s, x, session)
  /** The row of a key: found, new, or once there are too many, the range's "(other)" row. */
  const rowOf = (key: string, range: number, create: boolean) => {
    let group = groups.get(key)
    if (group) return group
    if (groups.size < MAX_DISTINCT_ROWS && create) {
      groups.set(key, (group = newGroup([...codes], range)))
      return group
    }
    return (others[range] ??= newGroup(
      dimensions.map(() => OTHER),
      range,
    ))
  }
  /** The key of a cell's row; it leaves the cell's dimension codes in `codes`. */
  const keyOf = (block: DayBlock, s: number, x: number, range: number) => {
    let key = spec.ranges.length > 1 ? `${range}` : ''
    for (let i = 0; i < dimensions.length; i++) {
      codes[i] = dimensions[i]!.code(block, s, x)
      key += `,${codes[i]}`
    }
    return key
  }

  scan(spec, (block, s, x, range, session) => {
    add(rowOf(keyOf(block, s, x, range), range, true), block, s, x, session)
    if (spec.totals) add(totals[range]!, block, s, x, session)
  })
  const rows = [...groups.values(), ...others.filter(Boolean)]

  /**
   * Totals of the rows kept: all rows' totals, a sum, or for event reports a second count. Only
   * asked for when the report has metricAggregations, that is when `spec.totals` is set.
   */
  const totalSums = (kept: readonly SumRow[]): Float64Array[] => {
    if (kept.length === rows.length) return totals.map((t) => t.sums)
    const sums = spec.ranges.map((_, range) => newGroup([], range))
    if (spec.scope !== 'event') {
      for (const row of kept)
        for (let m = 0; m < MEASURE_COUNT; m++)
          sums[row.range]!.sums[m] = sums[row.range]!.sums[m]! + row.sums[m]!
      return sums.map((t) => t.sums)
    }
    const keep = new Set(kept)
    scan(spec, (block, s, x, range, session) => {
      if (keep.has(rowOf(keyOf(block, s, x, range), range, false)))
        add(sums[range]!, block, s, x, session)
    })
    return sums.map((t) => t.sums)
  }
  return { rows, totalSums, dataLossFromOtherRow: others.length > 0 }
}

const newGroup = (codes: number[], range: number): Group => ({
  codes,
  range,
  sums: new Float64Array(MEASURE_COUNT),
  last: -1,
})

type Visit = (block: DayBlock, s: number, x: number, range: number, session: number) => void

/** Every cell of the report's scope that the filter lets through, range by range, day by day. */
function scan(spec: AddUpSpec, visit: Visit) {
  const { profile, scope, today, test } = spec
  let days = 0
  spec.ranges.forEach((range, r) => {
    const last = Math.min(range.last, today.day)
    for (let day = Math.max(range.first, profile.firstDay); day <= last; day++) {
      const block = dayBlock(profile, day)
      const lastHour = day === today.day ? today.hour : 23
      // A number for each session cell of each visit of a day: overlapping ranges visit twice.
      const base = ++days * 65_536
      const hours = block.sessions.hour
      if (scope === 'session') {
        for (let s = 0; s < block.sessions.count; s++) {
          if (hours[s]! > lastHour || (test && !test(block, s, -1))) continue
          visit(block, s, -1, r, base + s)
        }
        continue
      }
      const cells = scope === 'event' ? block.events : block.items
      for (let x = 0; x < cells.count; x++) {
        const s = cells.session[x]!
        if (hours[s]! > lastHour || (test && !test(block, s, x))) continue
        visit(block, s, x, r, base + s)
      }
    }
  })
}

function addCell(
  spec: AddUpSpec,
  keyEvent: readonly boolean[],
  to: Group,
  block: DayBlock,
  s: number,
  x: number,
  session: number,
) {
  const sums = to.sums
  const { rate } = spec
  const measures = block.sessions.measures
  if (spec.scope === 'session') {
    for (const m of SESSION_CELL_MEASURES)
      sums[m] =
        sums[m]! +
        (m === M.purchaseRevenue ? Math.round(measures[m]![s]! * rate) : measures[m]![s]!)
    return
  }
  if (spec.scope === 'item') {
    const items = block.items
    sums[M.itemsViewed] = sums[M.itemsViewed]! + items.viewed[x]!
    sums[M.itemsAddedToCart] = sums[M.itemsAddedToCart]! + items.added[x]!
    sums[M.itemsPurchased] = sums[M.itemsPurchased]! + items.purchased[x]!
    sums[M.itemRevenue] = sums[M.itemRevenue]! + Math.round(items.revenue[x]! * rate)
    return
  }
  if (to.last !== session) {
    to.last = session
    for (const m of SESSION_MEASURES) sums[m] = sums[m]! + measures[m]![s]!
  }
  const events = block.events
  const n = events.events[x]!
  const name = events.name[x]!
  sums[M.eventCount] = sums[M.eventCount]! + n
  if (name === PAGE_VIEW) sums[M.screenPageViews] = sums[M.screenPageViews]! + n
  if (keyEvent[name]) sums[M.keyEvents] = sums[M.keyEvents]! + n
  if (name === PURCHASE) sums[M.transactions] = sums[M.transactions]! + n
  sums[M.purchaseRevenue] = sums[M.purchaseRevenue]! + Math.round(events.revenue[x]! * rate)
}
