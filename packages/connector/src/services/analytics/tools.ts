import { z } from 'zod'
import { defineTool } from '../definition.js'
import { inBrief } from '../json-schema.js'
import { emptyIsNone, flag, objectError } from '../inputs.js'
import { filtersOf } from './filters.js'
import {
  checkReport,
  currencyCode,
  dateRanges,
  dimensionFilter,
  dimensions,
  LIMITS,
  limit,
  metricAggregations,
  metricFilter,
  metrics,
  minuteRanges,
  offset,
  orderBys,
  propertiesId,
  realtimeDimensionFilter,
} from './inputs.js'
import {
  category,
  checkMetadataFilters,
  entryOffset,
  METADATA_LIMITS,
  names,
  search,
} from './metadata-inputs.js'
import { metadataTable, metadataTableOf } from './metadata-table.js'
import { checkFixedNames, checkNames } from './names.js'
import { realtimeTable, reportTable, reportTableOf, reportTables } from './report-table.js'
import { metadata, realtimeReport, report, reports } from './resources.js'
import { ANALYTICS_TABLE } from './table.js'

/**
 * The web-analytics service's tools, each from its row of its table (ANALYTICS_TABLE): all
 * reads, whose inputs and answers are those of the analytics Data API's metadata,
 * runRealtimeReport, runReport and batchRunReports, flat: propertiesId beside the body's fields
 * (get_metadata's filters, which that API does not take, are the connector's own). Names are
 * checked against the property before a report is run. Which properties propertiesId may name,
 * the grant's own, is told in each tool's listed schema (src/mcp/grant-listing.ts).
 */

const TABLE =
  'The answer is a table: each row holds the values of dimensions, then of metrics (numbers; each metric’s type says its unit: integer, float, seconds, currency...); rowCount counts the rows of the whole report.'
const NAMES =
  'Dimension and metric names are the property’s own (get_metadata lists them; custom ones look like customEvent:plan_name); an unknown name is refused with the nearest valid ones.'
const COMPATIBILITY =
  'Not every dimension goes with every metric: item fields (itemName, itemCategory, itemsViewed, itemsPurchased, itemRevenue) only with item metrics and session-level dimensions such as date or country; event-scoped custom dimensions (customEvent:...) not with user or session metrics (activeUsers, sessions, engagementRate...). The provider names the field to remove.'
const PAGING = `${LIMITS.defaultRows} rows by default (limit, up to ${LIMITS.rows.toLocaleString('en')}): when the answer has nextOffset, call again with it as offset for the next page.`
const DELAY =
  'Data for today and yesterday may still be incomplete: processing takes up to a day or two.'
const PROPERTY =
  'propertiesId: its schema names the properties this connection may use; pick the one the person names rather than asking them.'
const USERS_ONCE =
  'Users and sessions split by an event dimension (pagePath, eventName) count a user once per row, so rows add up to more than the whole: metricAggregations ["TOTAL"] gives the true total.'

/**
 * The body of one core report: runReport's fields, and each request of run_reports. An empty
 * optional object or list (`"dimensionFilter": {}`, `"orderBys": []`) is none, as forms send it.
 */
const reportFields = () => ({
  dateRanges: dateRanges(),
  dimensions: emptyIsNone(dimensions()).describe(
    'Up to 9, each once, such as [{"name": "date"}, {"name": "country"}]. Omit for one row of totals.',
  ),
  metrics: metrics(),
  dimensionFilter: emptyIsNone(dimensionFilter()),
  metricFilter: emptyIsNone(metricFilter()),
  offset: offset().optional(),
  limit: limit().default(LIMITS.defaultRows).describe('Rows per call, 1 to 250,000.'),
  metricAggregations: emptyIsNone(metricAggregations()),
  orderBys: emptyIsNone(orderBys()),
  keepEmptyRows: flag('keepEmptyRows')
    .optional()
    .describe('Keep rows whose metrics are all 0 (default false: left out).'),
  currencyCode: currencyCode().optional(),
  returnPropertyQuota: flag('returnPropertyQuota')
    .optional()
    .describe('Also return the property’s remaining API quota.'),
})

export const getMetadata = defineTool(ANALYTICS_TABLE.get_metadata, {
  title: 'List a property’s dimensions and metrics',
  description: [
    'List the dimensions (attributes such as date, country, pagePath) and metrics (numbers such as activeUsers, sessions, screenPageViews) a property offers for run_report and run_reports.',
    'Without a filter: every apiName, as rows by category (uiName only where it says more; each metric’s type), with the property’s custom definitions and the metrics blocked for this person named.',
    `With names, category or search (together: entries matching all): those entries whole, with description, deprecated names and expression, ${METADATA_LIMITS.page} a page (nextOffset for the next).`,
    'Use apiName in reports; a deprecated name works too. Realtime reports have their own smaller set (see run_realtime_report).',
  ].join(' '),
  input: {
    propertiesId: propertiesId(),
    names: emptyIsNone(names()),
    category: category().optional(),
    search: search().optional(),
    offset: entryOffset().optional(),
  },
  check: checkMetadataFilters,
  query: [],
  // The provider is asked for the whole metadata: the filters are the connector's own.
  kept: ['names', 'category', 'search', 'offset'],
  output: metadataTable,
  answer: { schema: metadata, present: (answer, args) => metadataTableOf(answer, args) },
})

/** The realtime API's own dimensions and metrics (plus the property's customUser: dimensions). */
const REALTIME_NAMES = {
  dimensions: [
    'appVersion',
    'audienceId',
    'audienceName',
    'audienceResourceName',
    'city',
    'cityId',
    'country',
    'countryId',
    'deviceCategory',
    'eventName',
    'minutesAgo',
    'platform',
    'streamId',
    'streamName',
    'unifiedScreenName',
  ],
  metrics: ['activeUsers', 'eventCount', 'keyEvents', 'screenPageViews'],
} as const

/**
 * run_realtime_report's fields: the core report's fields it shares, as reportFields() builds them,
 * with its own dimensions, limit and minuteRanges; in this order, which is its JSON Schema's.
 */
function realtimeFields() {
  const { metrics, metricAggregations, returnPropertyQuota } = reportFields()
  return {
    propertiesId: propertiesId(),
    dimensions: emptyIsNone(dimensions()).describe(
      'Up to 9, each once, such as [{"name": "minutesAgo"}, {"name": "country"}].',
    ),
    metrics,
    dimensionFilter: emptyIsNone(realtimeDimensionFilter()),
    // Shown in brief, as run_report's: the model reads the whole shape there once.
    metricFilter: emptyIsNone(
      inBrief(metricFilter()).describe(
        'Keep only rows whose metrics pass, as run_report’s metricFilter, such as {"filter": {"fieldName": "activeUsers", "numericFilter": {"operation": "GREATER_THAN", "value": {"int64Value": 10}}}}.',
      ),
    ),
    limit: limit().default(LIMITS.defaultRows).describe('At most this many rows, 1 to 250,000.'),
    metricAggregations,
    orderBys: emptyIsNone(
      inBrief(orderBys()).describe(
        'How to sort the rows, as run_report’s orderBys, such as [{"metric": {"metricName": "activeUsers"}, "desc": true}].',
      ),
    ),
    minuteRanges: emptyIsNone(minuteRanges()),
    returnPropertyQuota,
  }
}

export const runRealtimeReport = defineTool(ANALYTICS_TABLE.run_realtime_report, {
  title: 'See what is happening on the site now',
  description: [
    'Report on the last 30 minutes of a property: who is on the site and what they do, by minute (minutesAgo, 00 is this minute), place, device, page or event.',
    `Dimensions: ${REALTIME_NAMES.dimensions.join(', ')} (and customUser: dimensions); metrics: ${REALTIME_NAMES.metrics.join(', ')}. Core names such as date or sessions do not exist here.`,
    'minuteRanges picks minutes within the last 30 (two at most); without it, all 30. The values change from one minute to the next.',
    TABLE,
    `limit caps the rows returned (${LIMITS.defaultRows} by default; no offset in realtime).`,
  ].join(' '),
  input: realtimeFields(),
  check: checkReport,
  query: [],
  output: realtimeTable,
  answer: { schema: realtimeReport, present: (answer) => reportTableOf(answer) },
  view: 'realtime',
  // Realtime names are the API's fixed set: checked here, with no upstream call.
  preflight: async (args) => {
    const used = [
      ...(args.dimensions ?? []).map((d) => d.name),
      ...filtersOf(args.dimensionFilter).map(({ filter }) => filter.fieldName),
    ]
    const custom = used.filter((name) => name.startsWith('customUser:'))
    return checkFixedNames(
      { dimensions: [...REALTIME_NAMES.dimensions, ...custom], metrics: REALTIME_NAMES.metrics },
      args,
      'realtime reports',
    )
  },
})

export const runReport = defineTool(ANALYTICS_TABLE.run_report, {
  title: 'Run a report',
  description: [
    'Report on a property: metrics (numbers such as activeUsers, sessions, screenPageViews, totalRevenue) by dimensions (such as date, country, pagePath, sessionDefaultChannelGroup) over 1 to 4 date ranges.',
    PROPERTY,
    'Dates are YYYY-MM-DD or relative (today, yesterday, NdaysAgo) in the property’s time zone.',
    DELAY,
    NAMES,
    COMPATIBILITY,
    TABLE,
    'Rows come largest first by the first metric unless orderBys says otherwise.',
    PAGING,
    USERS_ONCE,
  ].join(' '),
  input: { propertiesId: propertiesId(), ...reportFields() },
  check: checkReport,
  query: [],
  output: reportTable,
  answer: { schema: report, present: (answer, args) => reportTableOf(answer, args.offset ?? 0) },
  view: 'report',
  preflight: (args, provider) => checkNames(provider, args.propertiesId, [args]),
})

/** A request of run_reports: run_report's fields, which the model reads in run_report's schema. */
const reportRequest = inBrief(
  z
    .strictObject(reportFields(), {
      error: objectError(
        'a report request',
        '{"dateRanges": [{"startDate": "7daysAgo", "endDate": "yesterday"}], "metrics": [{"name": "sessions"}]}',
      ),
    })
    .superRefine(checkReport)
    .describe('run_report’s fields, without propertiesId.'),
)

export const runReports = defineTool(ANALYTICS_TABLE.run_reports, {
  title: 'Run several reports at once',
  description: [
    `Run 1 to ${LIMITS.batch} reports on one property in one call; each request takes run_report’s fields (without propertiesId) and is answered as run_report would, a table in reports, in order.`,
    'Useful to compare slices side by side, such as traffic by channel and by country over the same dates.',
    'A wrong request fails the whole call, and the message says which (requests[N]).',
    `Each report gives ${LIMITS.defaultRows} rows by default; one with nextOffset goes on from it as that request’s offset.`,
  ].join(' '),
  input: {
    propertiesId: propertiesId(),
    requests: z
      .array(reportRequest, {
        error: 'requests is a list of reports, each with run_report’s fields',
      })
      .min(1, { error: 'give at least one report request' })
      .max(LIMITS.batch, {
        error: `at most ${LIMITS.batch} reports in one call: split them over several calls`,
      })
      .describe(
        `1 to ${LIMITS.batch} reports, each such as {"dateRanges": [{"startDate": "7daysAgo", "endDate": "yesterday"}], "dimensions": [{"name": "country"}], "metrics": [{"name": "activeUsers"}]}.`,
      ),
  },
  query: [],
  output: reportTables,
  answer: {
    schema: reports,
    present: (answer, args) => ({
      reports: (answer.reports ?? []).map((one, i) =>
        reportTableOf(one, args.requests[i]?.offset ?? 0),
      ),
    }),
  },
  view: 'report',
  preflight: (args, provider) =>
    checkNames(
      provider,
      args.propertiesId,
      args.requests,
      args.requests.map((_, i) => `requests[${i}]: `),
    ),
})
