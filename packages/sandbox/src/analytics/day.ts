import { calendarDay, type CalendarDay } from '../synthetic/calendar.js'
import { Mulberry32, seedOf, Weighted, type Random } from '../synthetic/random.js'
import { addEvents, keyEventsOf, M, MEASURE_COUNT, SESSION_CELL_MEASURES } from './measures.js'
import type { PropertyProfile } from './property.js'
import {
  DIURNAL,
  eventIndex,
  TECHNOLOGIES,
  TRAFFIC,
  type EventName,
  type Page,
  type SiteKind,
} from './vocabulary.js'

/**
 * One day of a property's synthetic data, as columns (typed arrays): about a hundred session
 * cells (sessions sharing every session-scoped value: hour, place, device, traffic source,
 * landing page, new or returning, membership tier), the events of each (by name, page and custom
 * parameters) and the items each viewed, added and bought. The numbers agree with each other: a
 * session cell's event sums are the sums of its events, purchase revenue is item revenue, page
 * views start on the landing page, and so on.
 */

interface SessionCells {
  count: number
  hour: Uint8Array
  place: Uint8Array
  technology: Uint8Array
  traffic: Uint8Array
  landing: Uint8Array
  /** 0 new, 1 returning. */
  visitor: Uint8Array
  tier: Uint8Array
  /** By measure (measures.ts); only session cell measures are filled. */
  measures: Uint32Array[]
}

interface EventCells {
  count: number
  /** The session cell. */
  session: Uint16Array
  name: Uint8Array
  page: Uint8Array
  /** Values of the site's two custom event parameters. */
  custom0: Uint8Array
  custom1: Uint8Array
  events: Uint32Array
  revenue: Uint32Array
}

interface ItemCells {
  count: number
  session: Uint16Array
  item: Uint8Array
  viewed: Uint32Array
  added: Uint32Array
  purchased: Uint32Array
  revenue: Uint32Array
}

export interface DayBlock {
  calendar: CalendarDay
  sessions: SessionCells
  events: EventCells
  items: ItemCells
}

const HOURS = new Weighted(DIURNAL)
const TECHNOLOGY = new Weighted(TECHNOLOGIES.map((t) => t.weight))
const SOURCES = new Weighted(TRAFFIC.map((t) => t.weight))
const RETURNING_TIERS = new Weighted([1, 5, 3, 1.5])

const siteTables = new WeakMap<
  SiteKind,
  { landing: Weighted; browse: Weighted; pageOf: Map<string, number>; keyEvent: readonly boolean[] }
>()

function tablesOf(site: SiteKind) {
  let tables = siteTables.get(site)
  if (!tables) {
    tables = {
      landing: new Weighted(site.pages.map((p) => p.landing)),
      browse: new Weighted(site.pages.map((p) => p.weight)),
      pageOf: new Map(site.pages.map((p, i) => [p.path, i])),
      keyEvent: keyEventsOf(site),
    }
    siteTables.set(site, tables)
  }
  return tables
}

/** The day's data; before the property was created, an empty day. */
export function generateDay(profile: PropertyProfile, day: number): DayBlock {
  const builder = new DayBuilder(profile.site, calendarDay(day))
  if (day < profile.firstDay) return builder.build()
  const random = new Mulberry32(seedOf(profile.id, day))
  const { calendar } = builder
  const weekend = calendar.dayOfWeek === 0 || calendar.dayOfWeek === 6 ? profile.site.weekend : 1
  const growth = 1 + (day - profile.firstDay) / 900
  const expected =
    profile.dailySessions *
    growth *
    weekend *
    profile.site.season[calendar.month - 1]! *
    (0.85 + 0.3 * random.next())
  const cells = Math.min(110, Math.max(8, Math.round(expected / 14)))
  for (let i = 0; i < cells; i++) builder.sessionCell(profile, random, expected / cells)
  return builder.build()
}

class DayBuilder {
  readonly #sessions = {
    hour: [] as number[],
    place: [] as number[],
    technology: [] as number[],
    traffic: [] as number[],
    landing: [] as number[],
    visitor: [] as number[],
    tier: [] as number[],
    measures: Array.from({ length: MEASURE_COUNT }, () => [] as number[]),
  }
  /** The measures of the session cell being made, its events' sums included. */
  readonly #cell = new Float64Array(MEASURE_COUNT)
  readonly #events = {
    session: [] as number[],
    name: [] as number[],
    page: [] as number[],
    custom0: [] as number[],
    custom1: [] as number[],
    events: [] as number[],
    revenue: [] as number[],
  }
  readonly #items = {
    session: [] as number[],
    item: [] as number[],
    viewed: [] as number[],
    added: [] as number[],
    purchased: [] as number[],
    revenue: [] as number[],
  }

  constructor(
    readonly site: SiteKind,
    readonly calendar: CalendarDay,
  ) {}

  sessionCell(profile: PropertyProfile, random: Random, mean: number) {
    const { site } = this
    const tables = tablesOf(site)
    const cell = this.#sessions.hour.length
    const traffic = SOURCES.pick(random)
    const source = TRAFFIC[traffic]!
    const technology = TECHNOLOGY.pick(random)
    const landing = tables.landing.pick(random)
    const isNew = random.next() < source.newShare
    const sessions = random.around(mean, 0.9, 1)
    const active = Math.max(
      1,
      Math.min(sessions, Math.round(sessions * (0.7 + 0.25 * random.next()))),
    )
    const total = active + (random.next() < 0.25 ? 1 : 0)
    const mobile = TECHNOLOGIES[technology]!.device === 'mobile' ? 0.9 : 1
    const engaged = Math.min(
      sessions,
      Math.round(sessions * source.engagement * mobile * (0.85 + 0.3 * random.next())),
    )
    const engagedShare = engaged / sessions

    const s = this.#sessions
    s.hour.push(HOURS.pick(random))
    s.place.push(profile.places.pick(random))
    s.technology.push(technology)
    s.traffic.push(traffic)
    s.landing.push(landing)
    s.visitor.push(isNew ? 0 : 1)
    s.tier.push(isNew ? (random.next() < 0.85 ? 1 : 0) : RETURNING_TIERS.pick(random))
    const sums = this.#cell.fill(0)
    sums[M.sessions] = sessions
    sums[M.engagedSessions] = engaged
    sums[M.activeUsers] = active
    sums[M.totalUsers] = total
    sums[M.newUsers] = isNew ? total : 0
    sums[M.sessionDuration] = Math.round(
      sessions * (30 + 240 * random.next()) * (0.5 + engagedShare),
    )
    sums[M.engagementDuration] = Math.round(engaged * (20 + 160 * random.next()))

    const events = new SessionEvents(this, cell, random)
    const landingPath = site.pages[landing]!.path
    events.add('session_start', landingPath, sessions)
    if (isNew) events.add('first_visit', landingPath, total)
    events.add('page_view', landingPath, sessions)
    let views = Math.round(sessions * (0.2 + 2.6 * random.next()) * (0.6 + engagedShare))
    for (let k = 1 + Math.floor(random.next() * 3); k > 0 && views > 0; k--) {
      const part = k === 1 ? views : Math.ceil(views * random.next())
      events.add('page_view', site.pages[tables.browse.pick(random)]!.path, part)
      views -= part
    }
    if (engaged > 0)
      events.add(
        'user_engagement',
        landingPath,
        engaged + Math.round(engaged * 0.4 * random.next()),
      )
    const scrolls = Math.round(sessions * 0.6 * random.next())
    if (scrolls > 0) events.add('scroll', landingPath, scrolls)
    if (random.next() < 0.3)
      events.add('click', landingPath, 1 + Math.round(sessions * 0.2 * random.next()))
    if (random.next() < 0.15)
      events.add(
        'view_search_results',
        site.searchPage,
        1 + Math.round(sessions * 0.3 * random.next()),
      )
    if (random.next() < 0.1) {
      const starts = 1 + Math.floor(random.next() * 3)
      events.add('form_start', site.contactPage, starts)
      const submits = Math.floor(starts * random.next())
      if (submits > 0) {
        events.add('form_submit', site.contactPage, submits)
        if (site.keyEvents.includes('generate_lead'))
          events.add('generate_lead', site.contactPage, submits)
      }
    }
    const signUps = Math.floor(sessions * (isNew ? 0.05 : 0.015) * 2 * random.next())
    if (signUps > 0) events.add('sign_up', site.signUpPage, signUps)
    if (site.name === 'software' && random.next() < 0.08) events.add('file_download', '/docs', 1)
    if (random.next() < 0.45) this.#shopping(events, cell, random, sessions)
    for (const m of SESSION_CELL_MEASURES) s.measures[m]!.push(sums[m]!)
  }

  /** Views, adds and purchases of one product, as events and as an item cell. */
  #shopping(events: SessionEvents, cell: number, random: Random, sessions: number) {
    const { site } = this
    const item = Math.floor(random.next() * site.products.length)
    const product = site.products[item]!
    const viewed = 1 + Math.round(sessions * 0.5 * random.next())
    events.add('view_item', product.page, viewed)
    const added = Math.round(viewed * 0.3 * random.next())
    if (added > 0) events.add('add_to_cart', product.page, added)
    const orders = Math.min(added, Math.round(added * 0.6 * random.next()))
    let purchased = 0
    let revenue = 0
    if (orders > 0) {
      events.add('begin_checkout', site.checkoutPage, orders + Math.round(random.next()))
      purchased = orders + (random.next() < 0.2 ? 1 : 0)
      revenue = purchased * product.priceCents
      events.add('purchase', site.thankYouPage, orders, revenue)
    }
    const items = this.#items
    items.session.push(cell)
    items.item.push(item)
    items.viewed.push(viewed)
    items.added.push(added)
    items.purchased.push(purchased)
    items.revenue.push(revenue)
  }

  /** Appends an event cell of the session cell being made, and adds it to that cell's sums. */
  event(
    cell: number,
    name: EventName,
    page: number,
    c0: number,
    c1: number,
    n: number,
    cents: number,
  ) {
    const e = this.#events
    const index = eventIndex(name)
    e.session.push(cell)
    e.name.push(index)
    e.page.push(page)
    e.custom0.push(c0)
    e.custom1.push(c1)
    e.events.push(n)
    e.revenue.push(cents)
    addEvents(this.#cell, index, n, cents, tablesOf(this.site).keyEvent)
  }

  build(): DayBlock {
    const s = this.#sessions
    const e = this.#events
    const i = this.#items
    return {
      calendar: this.calendar,
      sessions: {
        count: s.hour.length,
        hour: Uint8Array.from(s.hour),
        place: Uint8Array.from(s.place),
        technology: Uint8Array.from(s.technology),
        traffic: Uint8Array.from(s.traffic),
        landing: Uint8Array.from(s.landing),
        visitor: Uint8Array.from(s.visitor),
        tier: Uint8Array.from(s.tier),
        measures: s.measures.map((values) => Uint32Array.from(values)),
      },
      events: {
        count: e.session.length,
        session: Uint16Array.from(e.session),
        name: Uint8Array.from(e.name),
        page: Uint8Array.from(e.page),
        custom0: Uint8Array.from(e.custom0),
        custom1: Uint8Array.from(e.custom1),
        events: Uint32Array.from(e.events),
        revenue: Uint32Array.from(e.revenue),
      },
      items: {
        count: i.session.length,
        session: Uint16Array.from(i.session),
        item: Uint8Array.from(i.item),
        viewed: Uint32Array.from(i.viewed),
        added: Uint32Array.from(i.added),
        purchased: Uint32Array.from(i.purchased),
        revenue: Uint32Array.from(i.revenue),
      },
    }
  }
}

/** The events of one session cell, with the custom parameters each carries. */
class SessionEvents {
  constructor(
    readonly day: DayBuilder,
    readonly cell: number,
    readonly random: Random,
  ) {}

  add(name: EventName, path: string, n: number, cents = 0) {
    const { site } = this.day
    const index = tablesOf(site).pageOf.get(path)!
    const page: Page = site.pages[index]!
    const [first, second] = site.customEvents
    const c0 = first.valueFor(name, page, this.random)
    const c1 = second.valueFor(name, page, this.random)
    this.day.event(this.cell, name, index, c0, c1, n, cents)
  }
}
