import { calendarDay, pad2 } from '../synthetic/calendar.js'
import type { DayBlock } from './day.js'
import { distinct } from './fields.js'
import {
  ALL_USERS,
  audienceIdOf,
  audienceResourceNameOf,
  cityId,
  continentId,
  streamIdOf,
  streamNameOf,
} from './identifiers.js'
import { keyEventsOf } from './measures.js'
import type { PropertyProfile } from './property.js'
import {
  COUNTRIES,
  EVENT_NAMES,
  NOT_SET,
  PLACES,
  TECHNOLOGIES,
  TRAFFIC,
  VISITOR_TYPES,
} from './vocabulary.js'
import { isoWeekOf, weekOfYear, yearWeekLabel } from './weeks.js'

/**
 * The standard dimensions the engine computes from a property's synthetic days, by API name: how
 * a cell's value is read (`code`) and written (`label`). Each reads the cells of the scope the
 * schema gives it (schema/dimensions.ts): session dimensions read the session cell `s`, event
 * and item dimensions their cell `x` too. Every other standard dimension answers "(not set)".
 *
 * Where the data has no finer truth, a dimension takes the session's: the first user source is
 * the session's source, and the key event's attribution (source, medium, channel, campaign) is
 * its session's, "(not set)" on events that are not key events.
 */

export interface Computation {
  code(block: DayBlock, s: number, x: number): number
  label(code: number): string
}

export const cities = distinct(PLACES, (p) => p.city)
export const devices = distinct(TECHNOLOGIES, (t) => t.device)
const continents = distinct(COUNTRIES, (c) => c.continent)
const systems = distinct(TECHNOLOGIES, (t) => t.os)
const browsers = distinct(TECHNOLOGIES, (t) => t.browser)
const sources = distinct(TRAFFIC, (t) => t.source)
const media = distinct(TRAFFIC, (t) => t.medium)
const channels = distinct(TRAFFIC, (t) => t.channel)
const campaigns = distinct(TRAFFIC, (t) => t.campaign)
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** `YYYYMMDD`, as the `date` dimension shows a day. */
function compactDate(day: number): string {
  const { year, month, dayOfMonth } = calendarDay(day)
  return `${year}${pad2(month)}${pad2(dayOfMonth)}`
}

const fromList = (labels: readonly string[]) => (code: number) => labels[code]!
const constant = (label: string): Computation => ({ code: () => 0, label: () => label })

/** A value of the day, remembered per day: weeks cost a little arithmetic, cells are many. */
function perDay(valueOf: (day: number) => number) {
  const known = new Map<number, number>()
  return (block: DayBlock) => {
    const day = block.calendar.day
    let value = known.get(day)
    if (value === undefined) {
      if (known.size > 10_000) known.clear()
      known.set(day, (value = valueOf(day)))
    }
    return value
  }
}
const week = perDay(weekOfYear)
const isoYear = perDay((day) => isoWeekOf(day).isoYear)
const isoWeek = perDay((day) => isoWeekOf(day).isoWeek)

export function computedDimensions(profile: PropertyProfile): ReadonlyMap<string, Computation> {
  const { site } = profile
  const items = distinct(site.products, (p) => p.name)
  const categories = distinct(site.products, (p) => p.category)
  const keyEvent = keyEventsOf(site)
  const sessions = (b: DayBlock) => b.sessions
  const place = (b: DayBlock, s: number) => PLACES[sessions(b).place[s]!]!
  const traffic = (b: DayBlock, s: number) => sessions(b).traffic[s]!
  const page = (b: DayBlock, x: number) => b.events.page[x]!

  const source: Computation = {
    code: (b, s) => sources.codes[traffic(b, s)]!,
    label: fromList(sources.labels),
  }
  const medium: Computation = {
    code: (b, s) => media.codes[traffic(b, s)]!,
    label: fromList(media.labels),
  }
  const sourceMedium: Computation = {
    code: traffic,
    label: (code) => `${TRAFFIC[code]!.source} / ${TRAFFIC[code]!.medium}`,
  }
  const channel: Computation = {
    code: (b, s) => channels.codes[traffic(b, s)]!,
    label: fromList(channels.labels),
  }
  const campaign: Computation = {
    code: (b, s) => campaigns.codes[traffic(b, s)]!,
    label: fromList(campaigns.labels),
  }
  /** The session's value on key events, "(not set)" on the others. */
  const onKeyEvents = (of: Computation): Computation => ({
    code: (b, s, x) => (keyEvent[b.events.name[x]!] ? of.code(b, s, x) + 1 : 0),
    label: (code) => (code === 0 ? NOT_SET : of.label(code - 1)),
  })
  const pagePath: Computation = {
    code: (b, _s, x) => page(b, x),
    label: (c) => site.pages[c]!.path,
  }
  const pageTitle: Computation = {
    code: (b, _s, x) => page(b, x),
    label: (c) => site.pages[c]!.title,
  }
  const landingPath: Computation = {
    code: (b, s) => sessions(b).landing[s]!,
    label: (c) => site.pages[c]!.path,
  }

  const computations: Record<string, Computation> = {
    // Time
    date: { code: (b) => b.calendar.day, label: compactDate },
    dateHour: {
      code: (b, s) => b.calendar.day * 24 + sessions(b).hour[s]!,
      label: (code) => compactDate(Math.floor(code / 24)) + pad2(code % 24),
    },
    year: { code: (b) => b.calendar.year, label: String },
    month: { code: (b) => b.calendar.month, label: pad2 },
    day: { code: (b) => b.calendar.dayOfMonth, label: pad2 },
    yearMonth: { code: (b) => b.calendar.year * 100 + b.calendar.month, label: String },
    week: { code: week, label: pad2 },
    yearWeek: {
      code: (b) => b.calendar.year * 100 + week(b),
      label: (code) => yearWeekLabel(Math.floor(code / 100), code % 100),
    },
    isoWeek: { code: isoWeek, label: pad2 },
    isoYear: { code: isoYear, label: String },
    isoYearIsoWeek: {
      code: (b) => isoYear(b) * 100 + isoWeek(b),
      label: (code) => yearWeekLabel(Math.floor(code / 100), code % 100),
    },
    dayOfWeek: { code: (b) => b.calendar.dayOfWeek, label: String },
    dayOfWeekName: { code: (b) => b.calendar.dayOfWeek, label: fromList(DAY_NAMES) },
    hour: { code: (b, s) => sessions(b).hour[s]!, label: pad2 },
    // Geography
    country: { code: (b, s) => place(b, s).country, label: (c) => COUNTRIES[c]!.name },
    countryId: { code: (b, s) => place(b, s).country, label: (c) => COUNTRIES[c]!.id },
    city: { code: (b, s) => cities.codes[sessions(b).place[s]!]!, label: fromList(cities.labels) },
    cityId: {
      code: (b, s) => cities.codes[sessions(b).place[s]!]!,
      label: (c) => cityId(cities.labels[c]!),
    },
    continent: {
      code: (b, s) => continents.codes[place(b, s).country]!,
      label: fromList(continents.labels),
    },
    continentId: {
      code: (b, s) => continents.codes[place(b, s).country]!,
      label: (c) => continentId(continents.labels[c]!),
    },
    // Platform / Device
    deviceCategory: {
      code: (b, s) => devices.codes[sessions(b).technology[s]!]!,
      label: fromList(devices.labels),
    },
    operatingSystem: {
      code: (b, s) => systems.codes[sessions(b).technology[s]!]!,
      label: fromList(systems.labels),
    },
    browser: {
      code: (b, s) => browsers.codes[sessions(b).technology[s]!]!,
      label: fromList(browsers.labels),
    },
    platform: constant('web'),
    platformDeviceCategory: {
      code: (b, s) => devices.codes[sessions(b).technology[s]!]!,
      label: (c) => `web / ${devices.labels[c]}`,
    },
    streamId: constant(streamIdOf(profile)),
    streamName: constant(streamNameOf(profile)),
    // Traffic Source: the session's, and the first user's taken as the session's
    sessionSource: source,
    sessionMedium: medium,
    sessionSourceMedium: sourceMedium,
    sessionDefaultChannelGroup: channel,
    sessionPrimaryChannelGroup: channel,
    sessionCampaignName: campaign,
    firstUserSource: source,
    firstUserMedium: medium,
    firstUserSourceMedium: sourceMedium,
    firstUserDefaultChannelGroup: channel,
    firstUserPrimaryChannelGroup: channel,
    firstUserCampaignName: campaign,
    // Attribution: the key event's session
    source: onKeyEvents(source),
    medium: onKeyEvents(medium),
    sourceMedium: onKeyEvents(sourceMedium),
    defaultChannelGroup: onKeyEvents(channel),
    primaryChannelGroup: onKeyEvents(channel),
    campaignName: onKeyEvents(campaign),
    // Page / Screen: the site's pages have no query strings
    landingPage: landingPath,
    landingPagePlusQueryString: landingPath,
    hostName: constant(site.hostName),
    pagePath,
    pagePathPlusQueryString: pagePath,
    unifiedPagePathScreen: pagePath,
    unifiedPageScreen: pagePath,
    fullPageUrl: { code: pagePath.code, label: (c) => site.hostName + site.pages[c]!.path },
    pageLocation: {
      code: pagePath.code,
      label: (c) => `https://${site.hostName}${site.pages[c]!.path}`,
    },
    pageTitle,
    unifiedScreenName: pageTitle,
    unifiedScreenClass: pageTitle,
    // Event
    eventName: { code: (b, _s, x) => b.events.name[x]!, label: fromList(EVENT_NAMES) },
    isKeyEvent: {
      code: (b, _s, x) => (keyEvent[b.events.name[x]!] ? 1 : 0),
      label: (code) => (code === 1 ? 'true' : 'false'),
    },
    // User
    newVsReturning: { code: (b, s) => sessions(b).visitor[s]!, label: fromList(VISITOR_TYPES) },
    audienceId: constant(audienceIdOf(profile)),
    audienceName: constant(ALL_USERS),
    audienceResourceName: constant(audienceResourceNameOf(profile)),
    // Ecommerce
    itemName: { code: (b, _s, x) => items.codes[b.items.item[x]!]!, label: fromList(items.labels) },
    itemCategory: {
      code: (b, _s, x) => categories.codes[b.items.item[x]!]!,
      label: fromList(categories.labels),
    },
  }
  return new Map(Object.entries(computations))
}
