import { isoDay } from '../../synthetic/calendar.js'
import { FINAL_DELAY_DAYS, hourKey } from './calendar.js'
import { APPEARANCES, COUNTRIES, DEVICES, NO_APPEARANCE } from './catalog.js'
import type { FactTable } from './facts.js'
import { buildMasks, type Masks } from './filters.js'
import type { Aggregation, AnalyticsQuery, Dimension } from './request.js'
import { Sums, topRows } from './groups.js'
import type { SiteFacts } from './store.js'

/**
 * Runs a search analytics query over a site's facts: picks the facts of the date range and data
 * state, keeps those that pass the filters, sums them by the requested dimensions, and answers
 * a page of rows sorted by clicks (then impressions, then keys, so that pages are stable).
 */

export interface Row {
  keys?: string[]
  clicks: number
  impressions: number
  ctr: number
  position: number
}

interface AnalyticsAnswer {
  rows?: Row[]
  responseAggregationType: Exclude<Aggregation, 'auto'>
  metadata?: { firstIncompleteDate?: string; firstIncompleteHour?: string }
}

interface Segment {
  table: FactTable
  from: number
  to: number
}

/** Facts of days [first, last] of a table, clamped to what it holds. */
function segment(table: FactTable, first: number, last: number): Segment | undefined {
  const a = Math.max(first, table.firstDay)
  const b = Math.min(last, table.lastDay)
  if (a > b) return undefined
  return {
    table,
    from: table.dayStart[a - table.firstDay]!,
    to: table.dayStart[b - table.firstDay + 1]!,
  }
}

/** Which facts a query reads: final data ends days ago; fresh data runs to this hour. */
function segmentsOf(facts: SiteFacts, q: AnalyticsQuery): Segment[] {
  const { today } = facts
  const picked: (Segment | undefined)[] = []
  if (q.dimensions.includes('hour')) {
    picked.push(segment(facts.hourly(), q.startDay, q.endDay))
  } else if (q.dataState === 'final') {
    picked.push(segment(facts.daily, q.startDay, Math.min(q.endDay, today - FINAL_DELAY_DAYS)))
  } else {
    picked.push(segment(facts.daily, q.startDay, Math.min(q.endDay, today - 1)))
    if (q.startDay <= today && q.endDay >= today) picked.push(segment(facts.hourly(), today, today))
  }
  return picked.filter((s): s is Segment => s !== undefined)
}

/** How one dimension turns facts into small codes, and a code into its key. */
interface Codec {
  radix: number
  /** codes[k] = codes[k] * radix + the code of fact picked[k], for k < n. */
  fold(table: FactTable, picked: Int32Array, n: number, codes: Float64Array): void
  key(code: number): string
}

/** A codec reading one column, less an offset. */
function columnCodec(
  radix: number,
  column: (t: FactTable) => ArrayLike<number>,
  key: (code: number) => string,
  offset = 0,
): Codec {
  return {
    radix,
    key,
    fold(table, picked, n, codes) {
      const values = column(table)
      for (let k = 0; k < n; k++) codes[k] = codes[k]! * radix + values[picked[k]!]! - offset
    },
  }
}

function codecOf(dimension: Dimension, facts: SiteFacts, q: AnalyticsQuery): Codec {
  const { catalog } = facts
  const first = Math.max(q.startDay, facts.daily.firstDay)
  const days = Math.max(1, Math.min(q.endDay, facts.today) - first + 1)
  switch (dimension) {
    case 'date':
      return columnCodec(
        days,
        (t) => t.day,
        (c) => isoDay(first + c),
        first,
      )
    case 'hour':
      return {
        radix: days * 24,
        key: (c) => hourKey(first + Math.floor(c / 24), c % 24),
        fold(t, picked, n, codes) {
          const radix = days * 24
          for (let k = 0; k < n; k++) {
            const i = picked[k]!
            codes[k] = codes[k]! * radix + (t.day[i]! - first) * 24 + t.hour[i]!
          }
        },
      }
    case 'query':
      return columnCodec(
        catalog.queries.length,
        (t) => t.query,
        (c) => catalog.queries[c]!.text,
      )
    case 'page':
      return columnCodec(
        catalog.pages.length,
        (t) => t.page,
        (c) => catalog.pages[c]!.url,
      )
    case 'country':
      return columnCodec(
        COUNTRIES.length,
        (t) => t.country,
        (c) => COUNTRIES[c]!,
      )
    case 'device':
      return columnCodec(
        DEVICES.length,
        (t) => t.device,
        (c) => DEVICES[c]!,
      )
    case 'searchAppearance':
      return columnCodec(
        APPEARANCES.length,
        (t) => t.appearance,
        (c) => APPEARANCES[c]!,
      )
  }
}

/**
 * The facts of a segment that pass every filter (and, when grouping by searchAppearance, have
 * one: results without a search appearance are in no group), as indexes into its table.
 */
function pick(
  segment: Segment,
  masks: Masks,
  byAppearance: boolean,
): { picked: Int32Array; n: number } {
  const { table: t, from, to } = segment
  const picked = new Int32Array(to - from)
  const { query, page, country, device, searchAppearance } = masks
  const none = APPEARANCES.length
  let n = 0
  for (let i = from; i < to; i++) {
    if (query && query[t.query[i]!] !== 1) continue
    if (page && page[t.page[i]!] !== 1) continue
    if (country && country[t.country[i]!] !== 1) continue
    if (device && device[t.device[i]!] !== 1) continue
    const appearance = t.appearance[i]!
    if (
      searchAppearance &&
      searchAppearance[appearance === NO_APPEARANCE ? none : appearance] !== 1
    )
      continue
    if (byAppearance && appearance === NO_APPEARANCE) continue
    picked[n++] = i
  }
  return { picked, n }
}

export function runQuery(facts: SiteFacts, q: AnalyticsQuery): AnalyticsAnswer {
  const codecs = q.dimensions.map((d) => codecOf(d, facts, q))
  const groups = codecs.reduce((n, c) => n * c.radix, 1)
  const masks = buildMasks(q.filters, facts.catalog)
  const byAppearance = q.dimensions.includes('searchAppearance')
  const sums = new Sums(groups)
  for (const segment of segmentsOf(facts, q)) {
    const { picked, n } = pick(segment, masks, byAppearance)
    const codes = new Float64Array(n)
    for (const codec of codecs) codec.fold(segment.table, picked, n, codes)
    sums.add(segment.table, picked, n, codes)
  }

  const { size, codes, clicks, impressions, weighted } = sums.groups()
  // Clicks first, then impressions, then keys' codes: a total order, so pages never overlap.
  const before = (a: number, b: number) =>
    clicks[b]! - clicks[a]! || impressions[b]! - impressions[a]! || codes[a]! - codes[b]!
  const page = topRows(size, q.startRow + q.rowLimit, before).slice(q.startRow)
  const rows = page.map((g): Row => {
    // Without dimensions, the one row has no keys, as the real API's.
    return {
      ...(codecs.length > 0 && { keys: keysOf(codes[g]!, codecs) }),
      clicks: clicks[g]!,
      impressions: impressions[g]!,
      ctr: clicks[g]! / impressions[g]!,
      position: weighted[g]! / impressions[g]! / 10,
    }
  })

  // An empty answer has no `rows` at all, as the real API's.
  const metadata = incompleteness(facts, q, rows.length > 0)
  return {
    ...(rows.length > 0 && { rows }),
    responseAggregationType: aggregationOf(q),
    ...(metadata && { metadata }),
  }
}

function keysOf(code: number, codecs: Codec[]): string[] {
  const keys: string[] = new Array(codecs.length)
  for (let d = codecs.length - 1; d >= 0; d--) {
    const codec = codecs[d]!
    keys[d] = codec.key(code % codec.radix)
    code = Math.floor(code / codec.radix)
  }
  return keys
}

/** What "auto" comes to: by page when the query groups or filters by page. */
function aggregationOf(q: AnalyticsQuery): AnalyticsAnswer['responseAggregationType'] {
  if (q.aggregation !== 'auto') return q.aggregation
  const byPage = q.dimensions.includes('page') || q.filters.some((f) => f.dimension === 'page')
  return byPage ? 'byPage' : 'byProperty'
}

/**
 * Where fresh (still changing) data starts, when the answer holds some: the first incomplete
 * date for fresh data by date, the first incomplete hour for data by hour.
 */
function incompleteness(
  facts: SiteFacts,
  q: AnalyticsQuery,
  hasRows: boolean,
): AnalyticsAnswer['metadata'] {
  const firstIncomplete = facts.today - FINAL_DELAY_DAYS + 1
  if (!hasRows || q.dataState === 'final' || q.endDay < firstIncomplete) return undefined
  if (q.dimensions.includes('hour')) return { firstIncompleteHour: hourKey(firstIncomplete, 0) }
  if (q.dimensions.includes('date')) return { firstIncompleteDate: isoDay(firstIncomplete) }
  return undefined
}
