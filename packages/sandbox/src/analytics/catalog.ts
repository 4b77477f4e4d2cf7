import { calendarDay, pad2 } from '../synthetic/calendar.js'
import type { DayBlock } from './day.js'
import {
  distinct,
  ratio,
  type Dimension,
  type Metric,
  type MetricType,
  type Scope,
} from './fields.js'
import { M } from './measures.js'
import type { PropertyProfile } from './property.js'
import {
  COUNTRIES,
  EVENT_NAMES,
  MEMBERSHIP_TIERS,
  PLACES,
  TECHNOLOGIES,
  TRAFFIC,
  VISITOR_TYPES,
} from './vocabulary.js'

/**
 * The dimensions and metrics of core reports (runReport), per property: the usual GA4 set, plus
 * the property's custom definitions (two event-scoped parameters of its kind of site and one
 * user-scoped property). Names, types and categories follow the real API; descriptions are ours.
 */

export type CoreDimension = Dimension<DayBlock>

export interface Catalog {
  profile: PropertyProfile
  dimensions: ReadonlyMap<string, CoreDimension>
  metrics: ReadonlyMap<string, Metric>
}

/** `YYYYMMDD`, as the `date` dimension shows a day. */
function compactDate(day: number): string {
  const { year, month, dayOfMonth } = calendarDay(day)
  return `${year}${pad2(month)}${pad2(dayOfMonth)}`
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
export const cities = distinct(PLACES, (p) => p.city)
const continents = distinct(COUNTRIES, (c) => c.continent)
export const devices = distinct(TECHNOLOGIES, (t) => t.device)
const systems = distinct(TECHNOLOGIES, (t) => t.os)
const browsers = distinct(TECHNOLOGIES, (t) => t.browser)
const sources = distinct(TRAFFIC, (t) => t.source)
const media = distinct(TRAFFIC, (t) => t.medium)
const channels = distinct(TRAFFIC, (t) => t.channel)
const campaigns = distinct(TRAFFIC, (t) => t.campaign)

type Code = CoreDimension['code']

const catalogs = new WeakMap<PropertyProfile, Catalog>()

export function catalogOf(profile: PropertyProfile): Catalog {
  let catalog = catalogs.get(profile)
  if (!catalog) {
    catalog = {
      profile,
      dimensions: new Map(coreDimensions(profile).map((d) => [d.apiName, d])),
      metrics: new Map(CORE_METRICS.map((m) => [m.apiName, m])),
    }
    catalogs.set(profile, catalog)
  }
  return catalog
}

function coreDimensions(profile: PropertyProfile): CoreDimension[] {
  const { site } = profile
  const items = distinct(site.products, (p) => p.name)
  const categories = distinct(site.products, (p) => p.category)
  const dimension = (
    apiName: string,
    uiName: string,
    category: string,
    scope: Scope,
    description: string,
    code: Code,
    label: (code: number) => string,
  ): CoreDimension => ({ apiName, uiName, category, scope, description, code, label })
  const fromList = (labels: readonly string[]) => (code: number) => labels[code]!
  const session = (b: DayBlock) => b.sessions

  const [first, second] = site.customEvents
  // prettier-ignore
  return [
    // Time
    dimension('date', 'Date', 'Time', 'session', 'The date of the event, formatted as YYYYMMDD.',
      (b) => b.calendar.day, compactDate),
    dimension('dateHour', 'Date + hour (YYYYMMDDHH)', 'Time', 'session', 'The date and hour of the event, formatted as YYYYMMDDHH.',
      (b, s) => b.calendar.day * 24 + session(b).hour[s]!, (code) => compactDate(Math.floor(code / 24)) + pad2(code % 24)),
    dimension('year', 'Year', 'Time', 'session', 'The four-digit year of the event, such as 2025.',
      (b) => b.calendar.year, String),
    dimension('month', 'Month', 'Time', 'session', 'The month of the event, 01 to 12.',
      (b) => b.calendar.month, pad2),
    dimension('yearMonth', 'Year month', 'Time', 'session', 'The year and month of the event, formatted as YYYYMM.',
      (b) => b.calendar.year * 100 + b.calendar.month, String),
    dimension('dayOfWeek', 'Day of week', 'Time', 'session', 'The day of the week of the event, 0 (Sunday) to 6 (Saturday).',
      (b) => b.calendar.dayOfWeek, String),
    dimension('dayOfWeekName', 'Day of week name', 'Time', 'session', 'The day of the week of the event in English, such as Sunday.',
      (b) => b.calendar.dayOfWeek, fromList(DAY_NAMES)),
    dimension('hour', 'Hour', 'Time', 'session', "The hour of the day of the event in the property's time zone, 00 to 23.",
      (b, s) => session(b).hour[s]!, pad2),
    // Geography
    dimension('country', 'Country', 'Geography', 'session', 'The country the user was in, from their IP address.',
      (b, s) => PLACES[session(b).place[s]!]!.country, (code) => COUNTRIES[code]!.name),
    dimension('countryId', 'Country ID', 'Geography', 'session', 'The ISO 3166 code of the country the user was in, such as US.',
      (b, s) => PLACES[session(b).place[s]!]!.country, (code) => COUNTRIES[code]!.id),
    dimension('city', 'City', 'Geography', 'session', 'The city the user was in.',
      (b, s) => cities.codes[session(b).place[s]!]!, fromList(cities.labels)),
    dimension('continent', 'Continent', 'Geography', 'session', 'The continent the user was in.',
      (b, s) => continents.codes[PLACES[session(b).place[s]!]!.country]!, fromList(continents.labels)),
    // Platform / Device
    dimension('deviceCategory', 'Device category', 'Platform / Device', 'session', 'The kind of device: desktop, mobile or tablet.',
      (b, s) => devices.codes[session(b).technology[s]!]!, fromList(devices.labels)),
    dimension('operatingSystem', 'Operating system', 'Platform / Device', 'session', "The operating system of the user's device, such as Windows or iOS.",
      (b, s) => systems.codes[session(b).technology[s]!]!, fromList(systems.labels)),
    dimension('browser', 'Browser', 'Platform / Device', 'session', 'The browser the site was used in, such as Chrome or Safari.',
      (b, s) => browsers.codes[session(b).technology[s]!]!, fromList(browsers.labels)),
    dimension('platform', 'Platform', 'Platform / Device', 'session', 'The platform of the data stream: web, iOS or Android.',
      () => 0, () => 'web'),
    // Traffic source
    dimension('sessionSource', 'Session source', 'Traffic source', 'session', 'Where the session came from, such as google or (direct).',
      (b, s) => sources.codes[session(b).traffic[s]!]!, fromList(sources.labels)),
    dimension('sessionMedium', 'Session medium', 'Traffic source', 'session', 'How the session came, such as organic, cpc, referral, email or (none).',
      (b, s) => media.codes[session(b).traffic[s]!]!, fromList(media.labels)),
    dimension('sessionSourceMedium', 'Session source / medium', 'Traffic source', 'session', 'The session source and medium together, such as google / organic.',
      (b, s) => session(b).traffic[s]!, (code) => `${TRAFFIC[code]!.source} / ${TRAFFIC[code]!.medium}`),
    dimension('sessionDefaultChannelGroup', 'Session default channel group', 'Traffic source', 'session', "The session's channel by the default rules, such as Organic Search or Direct.",
      (b, s) => channels.codes[session(b).traffic[s]!]!, fromList(channels.labels)),
    dimension('sessionCampaignName', 'Session campaign', 'Traffic source', 'session', 'The marketing campaign of the session; (organic), (direct) or (referral) without one.',
      (b, s) => campaigns.codes[session(b).traffic[s]!]!, fromList(campaigns.labels)),
    // Page / Screen
    dimension('landingPage', 'Landing page', 'Page / Screen', 'session', 'The path of the first page viewed in the session.',
      (b, s) => session(b).landing[s]!, (code) => site.pages[code]!.path),
    dimension('hostName', 'Hostname', 'Page / Screen', 'session', 'The host name of the pages viewed.',
      () => 0, () => site.hostName),
    dimension('pagePath', 'Page path', 'Page / Screen', 'event', 'The path of the page the event happened on, such as /pricing.',
      (b, _s, x) => b.events.page[x]!, (code) => site.pages[code]!.path),
    dimension('pageTitle', 'Page title', 'Page / Screen', 'event', 'The title of the page the event happened on (empty for pages without a title).',
      (b, _s, x) => b.events.page[x]!, (code) => site.pages[code]!.title),
    dimension('unifiedScreenName', 'Page title and screen name', 'Page / Screen', 'event', 'The page title on the web, or the screen name in an app.',
      (b, _s, x) => b.events.page[x]!, (code) => site.pages[code]!.title),
    // Event
    dimension('eventName', 'Event name', 'Event', 'event', 'The name of the event, such as page_view.',
      (b, _s, x) => b.events.name[x]!, fromList(EVENT_NAMES)),
    dimension('isKeyEvent', 'Is key event', 'Event', 'event', "'true' for the property's key events (such as purchase), else 'false'.",
      (b, _s, x) => (site.keyEvents.includes(EVENT_NAMES[b.events.name[x]!]!) ? 1 : 0), (code) => (code === 1 ? 'true' : 'false')),
    // User
    dimension('newVsReturning', 'New / returning', 'User', 'session', "'new' for a user's first session on the site, else 'returning'.",
      (b, s) => session(b).visitor[s]!, fromList(VISITOR_TYPES)),
    // E-commerce
    dimension('itemName', 'Item name', 'E-commerce', 'item', 'The name of an item (a product).',
      (b, _s, x) => items.codes[b.items.item[x]!]!, fromList(items.labels)),
    dimension('itemCategory', 'Item category', 'E-commerce', 'item', 'The category of an item.',
      (b, _s, x) => categories.codes[b.items.item[x]!]!, fromList(categories.labels)),
    // Custom definitions
    {
      ...dimension('customUser:membership_tier', 'Membership tier', 'Custom', 'session', 'User-scoped custom dimension: the membership tier of the user.',
        (b, s) => session(b).tier[s]!, fromList(MEMBERSHIP_TIERS)),
      customDefinition: true,
    },
    {
      ...dimension(`customEvent:${first.parameter}`, first.uiName, 'Custom', 'event', `Event-scoped custom dimension: ${first.description}`,
        (b, _s, x) => b.events.custom0[x]!, fromList(first.values)),
      customDefinition: true,
    },
    {
      ...dimension(`customEvent:${second.parameter}`, second.uiName, 'Custom', 'event', `Event-scoped custom dimension: ${second.description}`,
        (b, _s, x) => b.events.custom1[x]!, fromList(second.values)),
      customDefinition: true,
    },
  ]
}

const metric = (
  apiName: string,
  uiName: string,
  category: string,
  type: MetricType,
  scope: Scope,
  description: string,
  value: (m: Float64Array) => number,
  expression?: string,
): Metric => ({
  apiName,
  uiName,
  category,
  type,
  scope,
  description,
  value,
  ...(expression && { expression }),
})

const money = (cents: number) => cents / 100

// prettier-ignore
const CORE_METRICS: readonly Metric[] = [
  metric('activeUsers', 'Active users', 'User', 'TYPE_INTEGER', 'session',
    'The number of distinct users who visited the site.', (m) => m[M.activeUsers]!),
  metric('newUsers', 'New users', 'User', 'TYPE_INTEGER', 'session',
    'The number of users who visited the site for the first time.', (m) => m[M.newUsers]!),
  metric('totalUsers', 'Total users', 'User', 'TYPE_INTEGER', 'session',
    'The number of distinct users who logged at least one event, engaged or not.', (m) => m[M.totalUsers]!),
  metric('userEngagementDuration', 'User engagement', 'User', 'TYPE_SECONDS', 'session',
    'The total time, in seconds, the site was in the foreground of users’ screens.', (m) => m[M.engagementDuration]!),
  metric('sessions', 'Sessions', 'Session', 'TYPE_INTEGER', 'session',
    'The number of sessions that began on the site.', (m) => m[M.sessions]!),
  metric('engagedSessions', 'Engaged sessions', 'Session', 'TYPE_INTEGER', 'session',
    'Sessions that lasted 10 seconds or longer, had a key event, or had 2 or more page views.', (m) => m[M.engagedSessions]!),
  metric('engagementRate', 'Engagement rate', 'Session', 'TYPE_FLOAT', 'session',
    'The share of sessions that were engaged, from 0 to 1.', (m) => ratio(m[M.engagedSessions]!, m[M.sessions]!), 'engagedSessions/sessions'),
  metric('bounceRate', 'Bounce rate', 'Session', 'TYPE_FLOAT', 'session',
    'The share of sessions that were not engaged, from 0 to 1.', (m) => (m[M.sessions] ? 1 - m[M.engagedSessions]! / m[M.sessions]! : 0), '(sessions - engagedSessions) / sessions'),
  metric('averageSessionDuration', 'Average session duration', 'Session', 'TYPE_SECONDS', 'session',
    'The average length of a session, in seconds.', (m) => ratio(m[M.sessionDuration]!, m[M.sessions]!)),
  metric('sessionsPerUser', 'Sessions per active user', 'Session', 'TYPE_FLOAT', 'session',
    'The average number of sessions per active user.', (m) => ratio(m[M.sessions]!, m[M.activeUsers]!), 'sessions/activeUsers'),
  metric('screenPageViews', 'Views', 'Page / Screen', 'TYPE_INTEGER', 'event',
    'The number of pages viewed; repeated views of one page count each time.', (m) => m[M.screenPageViews]!),
  metric('screenPageViewsPerSession', 'Views per session', 'Page / Screen', 'TYPE_FLOAT', 'session',
    'The average number of pages viewed per session.', (m) => ratio(m[M.screenPageViews]!, m[M.sessions]!), 'screenPageViews/sessions'),
  metric('screenPageViewsPerUser', 'Views per active user', 'Page / Screen', 'TYPE_FLOAT', 'session',
    'The average number of pages viewed per active user.', (m) => ratio(m[M.screenPageViews]!, m[M.activeUsers]!), 'screenPageViews/activeUsers'),
  metric('eventCount', 'Event count', 'Event', 'TYPE_INTEGER', 'event',
    'The number of events.', (m) => m[M.eventCount]!),
  metric('eventsPerSession', 'Events per session', 'Event', 'TYPE_FLOAT', 'session',
    'The average number of events per session.', (m) => ratio(m[M.eventCount]!, m[M.sessions]!), 'eventCount/sessions'),
  metric('eventCountPerUser', 'Event count per active user', 'Event', 'TYPE_FLOAT', 'session',
    'The average number of events per active user.', (m) => ratio(m[M.eventCount]!, m[M.activeUsers]!), 'eventCount/activeUsers'),
  metric('keyEvents', 'Key events', 'Event', 'TYPE_INTEGER', 'event',
    "The number of key events (the property's purchase, sign_up or generate_lead events).", (m) => m[M.keyEvents]!),
  metric('transactions', 'Transactions', 'E-commerce', 'TYPE_INTEGER', 'event',
    'The number of purchase events.', (m) => m[M.transactions]!),
  metric('purchaseRevenue', 'Purchase revenue', 'Revenue', 'TYPE_CURRENCY', 'event',
    'The revenue of purchases, in the report currency.', (m) => money(m[M.purchaseRevenue]!)),
  metric('totalRevenue', 'Total revenue', 'Revenue', 'TYPE_CURRENCY', 'event',
    'All revenue (purchases, subscriptions and ads; this site earns from purchases only).', (m) => money(m[M.purchaseRevenue]!)),
  metric('itemsViewed', 'Items viewed', 'E-commerce', 'TYPE_INTEGER', 'item',
    'The number of items viewed (view_item).', (m) => m[M.itemsViewed]!),
  metric('itemsAddedToCart', 'Items added to cart', 'E-commerce', 'TYPE_INTEGER', 'item',
    'The number of items added to carts.', (m) => m[M.itemsAddedToCart]!),
  metric('itemsPurchased', 'Items purchased', 'E-commerce', 'TYPE_INTEGER', 'item',
    'The number of items bought.', (m) => m[M.itemsPurchased]!),
  metric('itemRevenue', 'Item revenue', 'E-commerce', 'TYPE_CURRENCY', 'item',
    'The revenue of the items bought, in the report currency.', (m) => money(m[M.itemRevenue]!)),
]
