import type { PropertyQuotas } from '../core/property-quotas.js'
import { invalidArgument } from '../http/errors.js'
import { MS_PER_MINUTE, pad2 } from '../synthetic/calendar.js'
import { cities, devices } from './computed-dimensions.js'
import type { Dimension, Metric } from './fields.js'
import { dimensionTest, metricTest } from './filters.js'
import {
  ALL_USERS,
  audienceIdOf,
  audienceResourceNameOf,
  cityId,
  streamIdOf,
  streamNameOf,
} from './identifiers.js'
import { M } from './measures.js'
import { minuteBlock, REALTIME_MEASURES, type MinuteBlock } from './minutes.js'
import type { PropertyProfile } from './property.js'
import type { RealtimeRequest } from './request.js'
import { RowGroups, sumOfRows } from './rows.js'
import { checkProperty, rangeName, REALTIME_SCHEMA_HELP, resolveFields, rowLimit } from './rules.js'
import { reportTable } from './table.js'
import { COUNTRIES, EVENT_NAMES, MEMBERSHIP_TIERS, NOT_SET, PLACES } from './vocabulary.js'

/**
 * runRealtimeReport: the last 30 minutes of a property (minutes.ts). A report moves with the
 * clock: what is `minutesAgo` 05 now is 06 a minute later, with the same values. Realtime has
 * its own, smaller set of dimensions and metrics, as in the real API: all of it is answered, the
 * app version "(not set)" as on a web stream.
 */

/** A minute as a report reads it: how many minutes ago it was. */
interface MinuteView {
  minute: MinuteBlock
  ago: number
}

const MINUTES = 30

type RealtimeDimension = Dimension<MinuteView>

function realtimeDimensions(profile: PropertyProfile): RealtimeDimension[] {
  const { site } = profile
  const dimension = (
    apiName: string,
    uiName: string,
    description: string,
    code: RealtimeDimension['code'],
    label: (code: number) => string,
  ): RealtimeDimension => ({
    apiName,
    uiName,
    description,
    category: 'Realtime',
    scope: 'session',
    code,
    label,
  })
  const place = (v: MinuteView, s: number) => PLACES[v.minute.place[s]!]!
  const constant = (apiName: string, uiName: string, description: string, label: string) =>
    dimension(
      apiName,
      uiName,
      description,
      () => 0,
      () => label,
    )
  return [
    constant(
      'appVersion',
      'App version',
      "The app's versionName or short bundle version.",
      NOT_SET,
    ),
    constant(
      'audienceId',
      'Audience ID',
      'The numeric identifier of an Audience.',
      audienceIdOf(profile),
    ),
    constant('audienceName', 'Audience name', 'The given name of an Audience.', ALL_USERS),
    constant(
      'audienceResourceName',
      'Audience resource name',
      'The resource name of this audience.',
      audienceResourceNameOf(profile),
    ),
    dimension(
      'city',
      'City',
      'The city the user is in.',
      (v, s) => cities.codes[v.minute.place[s]!]!,
      (c) => cities.labels[c]!,
    ),
    dimension(
      'cityId',
      'City ID',
      'The geographic ID of the city.',
      (v, s) => cities.codes[v.minute.place[s]!]!,
      (c) => cityId(cities.labels[c]!),
    ),
    dimension(
      'country',
      'Country',
      'The country the user is in.',
      (v, s) => place(v, s).country,
      (c) => COUNTRIES[c]!.name,
    ),
    dimension(
      'countryId',
      'Country ID',
      'The ISO 3166 code of the country.',
      (v, s) => place(v, s).country,
      (c) => COUNTRIES[c]!.id,
    ),
    dimension(
      'deviceCategory',
      'Device category',
      'desktop, mobile or tablet.',
      (v, s) => devices.codes[v.minute.technology[s]!]!,
      (c) => devices.labels[c]!,
    ),
    dimension(
      'platform',
      'Platform',
      'The platform of the data stream: web, iOS or Android.',
      () => 0,
      () => 'web',
    ),
    dimension(
      'unifiedScreenName',
      'Page title and screen name',
      'The title of the page viewed.',
      (v, s) => v.minute.page[s]!,
      (c) => site.pages[c]!.title,
    ),
    dimension(
      'eventName',
      'Event name',
      'The name of the event.',
      (v, s) => v.minute.name[s]!,
      (c) => EVENT_NAMES[c]!,
    ),
    dimension(
      'minutesAgo',
      'Minutes ago',
      'How many minutes ago the event was, 00 to 29.',
      (v) => v.ago,
      pad2,
    ),
    constant('streamId', 'Stream ID', 'The ID of the data stream.', streamIdOf(profile)),
    constant('streamName', 'Stream name', 'The name of the data stream.', streamNameOf(profile)),
    {
      ...dimension(
        'customUser:membership_tier',
        'Membership tier',
        'User-scoped custom dimension: the membership tier of the user.',
        (v, s) => v.minute.tier[s]!,
        (c) => MEMBERSHIP_TIERS[c]!,
      ),
      customDefinition: true,
    },
  ]
}

const integer = (apiName: string, uiName: string, description: string, m: number): Metric => ({
  apiName,
  uiName,
  description,
  category: 'Realtime',
  type: 'TYPE_INTEGER',
  scope: 'event',
  value: (sums) => sums[m]!,
})

const REALTIME_METRICS: readonly Metric[] = [
  integer('activeUsers', 'Active users', 'Users active on the site in the minute.', M.activeUsers),
  integer('eventCount', 'Event count', 'The number of events.', M.eventCount),
  integer('screenPageViews', 'Views', 'The number of pages viewed.', M.screenPageViews),
  integer('keyEvents', 'Key events', 'The number of key events.', M.keyEvents),
]

const sets = new WeakMap<PropertyProfile, ReadonlyMap<string, RealtimeDimension>>()
const metricSet = new Map(REALTIME_METRICS.map((m) => [m.apiName, m]))

export function runRealtimeReport(
  profile: PropertyProfile,
  request: RealtimeRequest,
  quotas: PropertyQuotas,
  now = Date.now(),
) {
  let dimensionSet = sets.get(profile)
  if (!dimensionSet) {
    dimensionSet = new Map(realtimeDimensions(profile).map((d) => [d.apiName, d]))
    sets.set(profile, dimensionSet)
  }
  checkProperty(request.property, profile.id)
  const ranges = minuteRanges(request.minuteRanges)
  const fields = resolveFields(
    request,
    { dimensions: dimensionSet, metrics: metricSet, help: REALTIME_SCHEMA_HELP },
    ranges.length,
  )
  const limit = rowLimit(request.limit)
  const metricIndex = (name: string) => fields.metrics.findIndex((m) => m.apiName === name)
  const metricFilter = request.metricFilter && metricTest(request.metricFilter, metricIndex)
  const test =
    request.dimensionFilter && dimensionTest(request.dimensionFilter, (n) => dimensionSet.get(n)!)
  const current = Math.floor(now / MS_PER_MINUTE)
  const groups = new RowGroups(fields.dimensions, ranges.length)
  ranges.forEach((range, r) => {
    for (let ago = range.start; ago >= range.end; ago--) {
      const view: MinuteView = { minute: minuteBlock(profile, current - ago), ago }
      const { measures } = view.minute
      for (let s = 0; s < view.minute.count; s++) {
        if (test && !test(view, s, -1)) continue
        const { sums } = groups.rowOf(view, s, -1, r)
        for (const m of REALTIME_MEASURES) sums[m] = sums[m]! + measures[m]![s]!
      }
    }
  })
  const table = reportTable({
    dimensions: fields.dimensions,
    rangeNames: ranges.map((r) => r.name),
    metrics: fields.metrics,
    visible: fields.visible,
    rows: groups.rows(),
    metricFilter,
    orderBys: request.orderBys ?? [],
    offset: 0,
    limit,
    aggregations: request.metricAggregations ?? [],
    keepEmptyRows: false,
    totalSums: (kept) => sumOfRows(kept, ranges.length),
  })
  const quota = quotas.charge(profile.id, now)
  return {
    ...table,
    ...(request.returnPropertyQuota && { propertyQuota: quota }),
    kind: 'analyticsData#runRealtimeReport',
  }
}

const MAX_MINUTE_RANGES = 2

function minuteRanges(ranges: RealtimeRequest['minuteRanges']) {
  const given = ranges?.length ? ranges : [{}]
  if (given.length > MAX_MINUTE_RANGES)
    throw invalidArgument(
      `The request has ${given.length} minuteRanges; requests are allowed up to ${MAX_MINUTE_RANGES} minute ranges.`,
    )
  return given.map(
    (range: { startMinutesAgo?: number; endMinutesAgo?: number; name?: string }, i) => {
      const start = range.startMinutesAgo ?? MINUTES - 1
      const end = range.endMinutesAgo ?? 0
      for (const [field, value] of [
        ['startMinutesAgo', start],
        ['endMinutesAgo', end],
      ] as const)
        if (value < 0 || value > MINUTES - 1)
          throw invalidArgument(
            `Invalid ${field} ${value} in minute_ranges[${i}]: standard properties can request minutes 0 to 29 (the last 30 minutes).`,
          )
      if (start < end)
        throw invalidArgument(
          `Invalid minute range minute_ranges[${i}]: startMinutesAgo ${start} is after endMinutesAgo ${end}; startMinutesAgo counts further back, so it must be at least endMinutesAgo.`,
        )
      return { start, end, name: rangeName(range.name, i, 'minute range') }
    },
  )
}
