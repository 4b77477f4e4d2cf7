import { Sfc32, Weighted } from '../../synthetic/random.js'
import {
  APPEARANCES,
  appearanceOf,
  COUNTRIES,
  COUNTRY_WEIGHTS,
  NO_APPEARANCE,
  type Query,
  type SiteCatalog,
} from './catalog.js'

/**
 * The search performance of one site for one search type, as a compact fact table: one row per
 * day (or hour), query, page, country, device and search appearance that had impressions, in
 * typed columns ordered by day. Every answer is a sum over these rows, which is what keeps the
 * data consistent: a total is the sum of its parts because both are sums of the same facts.
 *
 * Each day's facts come from a generator seeded with the user, the site, the type and that day,
 * so a day reads the same whenever it is generated, whatever the window around it.
 */

export const SEARCH_TYPES = ['web', 'image', 'video', 'news', 'discover', 'googleNews'] as const
export type SearchType = (typeof SEARCH_TYPES)[number]
/** Discover and Google News have no queries: people did not search. */
const NO_QUERY = 0xffff
const WHOLE_DAY = 255

export interface FactTable {
  readonly firstDay: number
  readonly lastDay: number
  readonly size: number
  readonly day: Uint16Array
  /** 0-23 in an hourly table; WHOLE_DAY in a daily one. */
  readonly hour: Uint8Array
  readonly query: Uint16Array
  readonly page: Uint16Array
  readonly country: Uint8Array
  readonly device: Uint8Array
  readonly appearance: Uint8Array
  readonly clicks: Uint32Array
  readonly impressions: Uint32Array
  /** Average position times ten: positions are kept to one decimal, sums stay exact. */
  readonly position10: Uint16Array
  /** The index of the first fact of each day from firstDay, and one past the last. */
  readonly dayStart: Int32Array
}

const COLUMNS = {
  day: Uint16Array,
  hour: Uint8Array,
  query: Uint16Array,
  page: Uint16Array,
  country: Uint8Array,
  device: Uint8Array,
  appearance: Uint8Array,
  clicks: Uint32Array,
  impressions: Uint32Array,
  position10: Uint16Array,
}
type Column = keyof typeof COLUMNS
type Columns = { [K in Column]: InstanceType<(typeof COLUMNS)[K]> }

/** A table being built: typed columns that double when full; `seal` trims them. */
export class FactBuilder {
  #size = 0
  #columns: Columns = FactBuilder.#allocate(1 << 14)

  static #allocate(capacity: number): Columns {
    const out = {} as Record<Column, unknown>
    for (const name of Object.keys(COLUMNS) as Column[]) out[name] = new COLUMNS[name](capacity)
    return out as Columns
  }

  /** Facts must be pushed in day order. */
  push(
    day: number,
    hour: number,
    query: number,
    page: number,
    country: number,
    device: number,
    appearance: number,
    clicks: number,
    impressions: number,
    position10: number,
  ): void {
    let c = this.#columns
    if (this.#size === c.day.length) {
      const grown = FactBuilder.#allocate(c.day.length * 2)
      for (const name of Object.keys(COLUMNS) as Column[]) grown[name].set(c[name])
      c = this.#columns = grown
    }
    const i = this.#size++
    c.day[i] = day
    c.hour[i] = hour
    c.query[i] = query
    c.page[i] = page
    c.country[i] = country
    c.device[i] = device
    c.appearance[i] = appearance
    c.clicks[i] = clicks
    c.impressions[i] = impressions
    c.position10[i] = position10
  }

  seal(firstDay: number, lastDay: number): FactTable {
    const size = this.#size
    const c = this.#columns
    const dayStart = new Int32Array(lastDay - firstDay + 2)
    let at = 0
    for (let d = firstDay; d <= lastDay + 1; d++) {
      while (at < size && c.day[at]! < d) at++
      dayStart[d - firstDay] = at
    }
    const trimmed = {} as Record<Column, unknown>
    for (const name of Object.keys(COLUMNS) as Column[]) trimmed[name] = c[name].slice(0, size)
    return { firstDay, lastDay, size, dayStart, ...(trimmed as Columns) }
  }
}

/** What one query (or, for Discover, one page) earns on an average day, and where. */
interface Topic {
  query: number
  page: number
  alt: number
  share: number
  position: number
  ctr: number
  trend: number
  appearance: number
  cells: { country: number; device: number; share: number; shift: number }[]
}

interface TypeShape {
  /** Impressions a day, relative to web search. */
  volume: number
  /** Which queries this type has; undefined: none (Discover, Google News: pages only). */
  queries?: (query: Query) => boolean
  positionShift: number
  ctrFactor: number
}

const TYPE_SHAPES: Record<SearchType, TypeShape> = {
  web: { volume: 1, queries: () => true, positionShift: 0, ctrFactor: 1 },
  image: {
    volume: 0.35,
    queries: (q) => ['plain', 'best', 'review', 'compare'].includes(q.intent),
    positionShift: 6,
    ctrFactor: 0.25,
  },
  video: {
    volume: 0.06,
    queries: (q) => ['howto', 'beginner', 'review'].includes(q.intent),
    positionShift: 3,
    ctrFactor: 0.6,
  },
  news: {
    volume: 0.03,
    queries: (q) => q.intent === 'best' || q.intent === 'brand',
    positionShift: 2,
    ctrFactor: 0.8,
  },
  discover: { volume: 0.25, positionShift: -4, ctrFactor: 0.35 },
  googleNews: { volume: 0.04, positionShift: -2, ctrFactor: 0.5 },
}

/** Whether a type has queries: Discover and Google News do not (people did not search). */
export const hasQueries = (type: SearchType) => TYPE_SHAPES[type].queries !== undefined

/** Where a result may show translated (TRANSLATED_RESULT). */
const NON_ENGLISH = new Set(
  ['deu', 'fra', 'nld', 'esp', 'bra', 'mex', 'jpn'].map((c) =>
    (COUNTRIES as readonly string[]).indexOf(c),
  ),
)
const TRANSLATED = APPEARANCES.indexOf('TRANSLATED_RESULT')
const NEWS_SHOWCASE = APPEARANCES.indexOf('NEWS_SHOWCASE')
const VIDEO = APPEARANCES.indexOf('VIDEO')
/** Where a query is searched: its home country, and for popular ones two more. */
const COUNTRY = new Weighted(COUNTRY_WEIGHTS)
/** Sunday first: fewer searches at the weekend. */
const WEEKDAY = [0.82, 1.05, 1.08, 1.06, 1.04, 0.97, 0.84]
/** A fixed reference day (2025-06-01) for trends, so they do not move with today. */
const TREND_ORIGIN = 20_240

/** Click-through rate at an average position: steep at the top, a trickle past page one. */
const ctrAt = (position: number) => 0.25 * Math.exp(-0.38 * (position - 1)) + 0.003

function topicsOf(
  user: string,
  catalog: SiteCatalog,
  type: SearchType,
): { topics: Topic[]; daily: number } {
  const random = new Sfc32('search-topics', user, catalog.site, type)
  const shape = TYPE_SHAPES[type]
  const base: { query: number; page: number; alt: number; brand: boolean }[] = []
  if (shape.queries) {
    catalog.queries.forEach((query, q) => {
      if (shape.queries!(query))
        base.push({ query: q, ...catalog.landing[q]!, brand: query.intent === 'brand' })
    })
  } else {
    catalog.pages.forEach((page, p) => {
      if (page.kind === 'blog' || page.kind === 'guide' || page.kind === 'review')
        base.push({ query: NO_QUERY, page: p, alt: p, brand: false })
    })
  }
  const weights = base.map((_, rank) => 1 / Math.pow(rank + 2, 1.2))
  const total = weights.reduce((a, b) => a + b, 0)
  const topics = base.map((b, rank): Topic => {
    const home = COUNTRY.pick(random)
    // Popular queries are searched in more countries; the long tail mostly in one.
    const spread = rank < 30 ? 3 : rank < 100 ? 2 : 1
    const countries = [home, COUNTRY.pick(random), COUNTRY.pick(random)].slice(0, spread)
    const countryShares = [[1], [0.8, 0.2], [0.7, 0.2, 0.1]][spread - 1]!
    const mobile = 0.45 + random.next() * 0.25
    const deviceShares = [1 - mobile - 0.05, mobile, 0.05]
    const cells: Topic['cells'] = []
    countries.forEach((country, i) => {
      deviceShares.forEach((share, device) => {
        const existing = cells.find((c) => c.country === country && c.device === device)
        const s = countryShares[i]! * share
        if (existing) existing.share += s
        else
          cells.push({
            country,
            device,
            share: s,
            shift:
              (device === 1 ? -0.4 : device === 2 ? 0.3 : 0) +
              (country === home ? 0 : random.next() * 3),
          })
      })
    })
    const page = catalog.pages[b.page]!
    const query = b.query === NO_QUERY ? undefined : catalog.queries[b.query]
    let appearance = appearanceOf(page, query)
    if (type === 'video') appearance = VIDEO
    if (type === 'discover' || type === 'googleNews')
      appearance = page.kind === 'blog' ? NEWS_SHOWCASE : NO_APPEARANCE
    const position = b.brand
      ? 1 + random.next() * 0.6
      : 1.5 + Math.pow(random.next(), 2) * 38 + shape.positionShift
    return {
      query: b.query,
      page: b.page,
      alt: b.alt,
      share: weights[rank]! / total,
      position: Math.max(1, position),
      ctr: (b.brand ? 1.3 : 0.6 + random.next() * 0.6) * shape.ctrFactor,
      trend: (random.next() - 0.45) * 0.8,
      appearance,
      cells,
    }
  })
  const daily = (1500 + random.next() * 3500) * shape.volume
  return { topics, daily }
}

/** The daily facts of one site and search type from firstDay to lastDay. */
export function generateDaily(
  user: string,
  catalog: SiteCatalog,
  type: SearchType,
  firstDay: number,
  lastDay: number,
): FactTable {
  const { topics, daily } = topicsOf(user, catalog, type)
  const out = new FactBuilder()
  for (let day = firstDay; day <= lastDay; day++) {
    const random = new Sfc32('search-facts', user, catalog.site, type, day)
    const years = (day - TREND_ORIGIN) / 365
    const season =
      WEEKDAY[(day + 4) % 7]! *
      (1 + 0.15 * Math.sin((2 * Math.PI * day) / 365.25)) *
      (1 + 0.25 * years)
    for (const topic of topics) {
      const expected = daily * topic.share * season * Math.exp(topic.trend * years)
      const noise = Math.max(0, 1 + 0.6 * (random.next() - 0.5))
      for (const cell of topic.cells) {
        const impressions = random.count(expected * cell.share * noise)
        if (impressions === 0) continue
        const position = Math.min(
          99.9,
          Math.max(1, topic.position + cell.shift + (random.next() - 0.5) * 2),
        )
        const ctr = Math.min(0.9, ctrAt(position) * topic.ctr)
        const clicks = Math.min(impressions, random.count(impressions * ctr))
        const page = random.next() < 0.12 ? topic.alt : topic.page
        let appearance =
          topic.appearance !== NO_APPEARANCE && random.next() < 0.55
            ? topic.appearance
            : NO_APPEARANCE
        if (appearance === NO_APPEARANCE && NON_ENGLISH.has(cell.country) && random.next() < 0.1)
          appearance = TRANSLATED
        out.push(
          day,
          WHOLE_DAY,
          topic.query,
          page,
          cell.country,
          cell.device,
          appearance,
          clicks,
          impressions,
          Math.round(position * 10),
        )
      }
    }
  }
  return out.seal(firstDay, lastDay)
}
