import type { LocalNow } from '../synthetic/calendar.js'
import type { CoreDimension } from './core-dimension.js'
import type { DayBlock } from './day.js'
import { dayBlock } from './day-cache.js'
import type { Scope } from './fields.js'
import type { CellTest } from './filters.js'
import {
  addEvents,
  addKeyEventReach,
  keyEventsOf,
  M,
  SESSION_CELL_MEASURES,
  SESSION_MEASURES,
} from './measures.js'
import type { PropertyProfile } from './property.js'
import { newGroup, RowGroups, sumOfRows, type Group, type SumRow } from './rows.js'

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

interface AddUpSpec {
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

export function addUp(spec: AddUpSpec) {
  const keyEvent = keyEventsOf(spec.profile.site)
  const groups = new RowGroups(spec.dimensions, spec.ranges.length)
  const totals: Group[] = spec.ranges.map((_, range) => newGroup([], range))
  const add = (to: Group, block: DayBlock, s: number, x: number, session: number) =>
    addCell(spec, keyEvent, to, block, s, x, session)

  scan(spec, (block, s, x, range, session) => {
    add(groups.rowOf(block, s, x, range), block, s, x, session)
    if (spec.totals) add(totals[range]!, block, s, x, session)
  })
  const rows = groups.rows()

  /**
   * Totals of the rows kept: all rows' totals, a sum, or for event reports a second count. Only
   * asked for when the report has metricAggregations, that is when `spec.totals` is set.
   */
  const totalSums = (kept: readonly SumRow[]): Float64Array[] => {
    if (kept.length === rows.length) return totals.map((t) => t.sums)
    if (spec.scope !== 'event') return sumOfRows(kept, spec.ranges.length)
    const sums = spec.ranges.map((_, range) => newGroup([], range))
    const keep = new Set(kept)
    scan(spec, (block, s, x, range, session) => {
      if (keep.has(groups.rowOf(block, s, x, range, false))) add(sums[range]!, block, s, x, session)
    })
    return sums.map((t) => t.sums)
  }
  return { rows, totalSums, dataLossFromOtherRow: groups.overflowed }
}

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
  const cell = (m: number) => measures[m]![s]!
  if (spec.scope === 'session') {
    for (const m of SESSION_CELL_MEASURES)
      sums[m] = sums[m]! + (m === M.purchaseRevenue ? Math.round(cell(m) * rate) : cell(m))
    addKeyEventReach(sums, cell)
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
    for (const m of SESSION_MEASURES) sums[m] = sums[m]! + cell(m)
    addKeyEventReach(sums, cell)
  }
  const events = block.events
  addEvents(
    sums,
    events.name[x]!,
    events.events[x]!,
    Math.round(events.revenue[x]! * rate),
    keyEvent,
  )
}
