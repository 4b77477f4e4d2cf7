import { z } from 'zod'
import { atMostCharacters, emptyIsNone, objectError } from '../inputs.js'
import { inBrief } from '../json-schema.js'
import { calendarDay } from '../timestamps.js'
import { FILTER_LIMITS, filterExpression, filtersOf } from './filters.js'

/**
 * The pieces of the analytics tools' inputs, with the real API's limits and enums. Every message
 * names what is wrong and what to send instead. Nothing is transformed: what the model sends is
 * what the provider gets, but for an empty optional object or list, which is none (emptyIsNone).
 * Whether a name is one of the property's dimensions or metrics is not known here: the preflight
 * (names.ts) checks that against the property's metadata.
 */

export const LIMITS = {
  dimensions: 9,
  metrics: 10,
  dateRanges: 4,
  minuteRanges: 2,
  batch: 5,
  rows: 250_000,
  /**
   * The provider's own default is 10,000 rows, too many for a conversation (docs/design.md,
   * "Results sized for a model").
   */
  defaultRows: 100,
  /** Realtime reports cover the last 30 minutes of a standard property. */
  lastMinute: 29,
} as const

/**
 * The property's number. `properties/123` is refused with the fix rather than accepted: the
 * path takes the number alone, and sending the value as given keeps the call what it says.
 */
export const propertiesId = () =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'propertiesId is required: the property number, such as "123456789"'
          : 'propertiesId must be a string of digits, such as "123456789"',
    })
    .superRefine((value, ctx) => {
      if (/^[1-9][0-9]{0,17}$/.test(value)) return
      const number = /^properties\/([0-9]+)$/.exec(value)?.[1]
      ctx.addIssue({
        code: 'custom',
        message: number
          ? `propertiesId takes the number only: give "${number}", not "${value}"`
          : `propertiesId must be the property's number, such as "123456789"; got "${value.slice(0, 40)}"`,
      })
    })
    .meta({ pattern: '^[1-9][0-9]{0,17}$' })
    .describe(
      'The analytics property, by number, such as "123456789" (not "properties/123456789").',
    )

const API_NAME = /^[A-Za-z][A-Za-z0-9_]*(:[A-Za-z0-9_]+)?$/

export const apiName = (what: string) =>
  z
    .string({
      error: `a ${what} name is a string, such as ${what === 'metric' ? '"sessions"' : '"country"'}`,
    })
    .max(200, { error: `a ${what} name is at most 200 characters` })
    .regex(API_NAME, {
      error: (issue) =>
        `"${String(issue.input).slice(0, 60)}" is not a ${what} name: names are letters, digits and _, custom ones prefixed like customEvent:name`,
    })

const named = (what: string, example: string) =>
  z.strictObject(
    { name: apiName(what) },
    { error: objectError(`a ${what}`, `{"name": "${example}"}`) },
  )

export const dimensions = () =>
  z
    .array(named('dimension', 'country'), {
      error: 'dimensions is a list such as [{"name": "country"}]',
    })
    .max(LIMITS.dimensions, {
      error: `at most ${LIMITS.dimensions} dimensions in one report: drop some, or run several reports`,
    })

export const metrics = () =>
  z
    .array(named('metric', 'activeUsers'), {
      error: (issue) =>
        `metrics ${issue.input === undefined ? 'is required:' : 'is'} a list such as [{"name": "activeUsers"}]`,
    })
    .min(1, { error: 'give at least one metric, such as [{"name": "activeUsers"}]' })
    .max(LIMITS.metrics, {
      error: `at most ${LIMITS.metrics} metrics in one report: drop some, or run several reports`,
    })
    .describe(
      '1 to 10 metrics, each once, such as [{"name": "activeUsers"}, {"name": "sessions"}].',
    )

const RELATIVE = /^(today|yesterday|(\d{1,5})daysAgo)$/
/** A date as the listing shows it; that a YYYY-MM-DD is a real day is checked by dateValue. */
const DATE_TEXT = /^(\d{4}-\d{2}-\d{2}|today|yesterday|\d{1,5}daysAgo)$/

/** Days before today for a relative date, the epoch day for an absolute one. */
function dateValue(text: string): { relative: boolean; day: number } | undefined {
  const relative = RELATIVE.exec(text)
  if (relative)
    return {
      relative: true,
      day: relative[1] === 'today' ? 0 : relative[1] === 'yesterday' ? 1 : Number(relative[2]),
    }
  const day = calendarDay(text)
  return day === undefined ? undefined : { relative: false, day }
}

const date = (field: string) =>
  z
    .string({
      error: (issue) =>
        `${field} ${issue.input === undefined ? 'is required' : 'must be a string'}: YYYY-MM-DD, "today", "yesterday" or "NdaysAgo"`,
    })
    .refine((text) => dateValue(text) !== undefined, {
      error: (issue) =>
        `${field} must be YYYY-MM-DD (a real date, such as 2026-01-31), "today", "yesterday" or "NdaysAgo" (such as "28daysAgo"); got "${String(issue.input).slice(0, 40)}"`,
    })
    .meta({ pattern: DATE_TEXT.source })

const rangeName = atMostCharacters(
  z.string({ error: 'name must be a string' }),
  100,
  'name is at most 100 characters',
)
  .refine((name) => !name.startsWith('date_range_') && !name.startsWith('RESERVED_'), {
    error: 'name cannot begin with date_range_ or RESERVED_: choose another name',
  })
  .optional()
  .describe(
    'A name for the range, shown in the dateRange dimension (default date_range_N); not starting date_range_ or RESERVED_.',
  )

const dateRange = z
  .strictObject(
    {
      startDate: date('startDate').describe('First day, included.'),
      endDate: date('endDate').describe('Last day, included.'),
      name: rangeName,
    },
    { error: objectError('a date range', '{"startDate": "28daysAgo", "endDate": "yesterday"}') },
  )
  .superRefine((range, ctx) => {
    const [start, end] = [dateValue(range.startDate), dateValue(range.endDate)]
    if (!start || !end || start.relative !== end.relative) return
    // Relative dates count back: 7daysAgo is before 3daysAgo.
    const after = start.relative ? start.day < end.day : start.day > end.day
    if (after)
      ctx.addIssue({
        code: 'custom',
        message: `startDate ${range.startDate} is after endDate ${range.endDate}: swap them`,
      })
  })

export const dateRanges = () =>
  z
    .array(dateRange, {
      error: (issue) =>
        `dateRanges ${issue.input === undefined ? 'is required:' : 'is'} a list such as [{"startDate": "28daysAgo", "endDate": "yesterday"}]`,
    })
    .min(1, {
      error:
        'give at least one date range, such as {"startDate": "28daysAgo", "endDate": "yesterday"}',
    })
    .max(LIMITS.dateRanges, {
      error: `at most ${LIMITS.dateRanges} date ranges in one report: run several reports for more`,
    })
    .describe(
      '1 to 4 ranges, such as [{"startDate": "28daysAgo", "endDate": "yesterday"}]. Dates are YYYY-MM-DD, "today", "yesterday" or "NdaysAgo", in the property’s time zone. With several, each row gets a last dimension, dateRange, holding the range name.',
    )

/** A minute of the last 30, counted back from now (0 is this minute). */
const minutesAgo = (field: string, description: string) =>
  z
    .number({ error: `${field} must be a whole number from 0 to 29` })
    .int({ error: `${field} must be a whole number from 0 to 29` })
    .min(0, { error: `${field} must be from 0 to 29` })
    .max(LIMITS.lastMinute, {
      error: `${field} must be from 0 to 29: realtime covers the last 30 minutes`,
    })
    .optional()
    .describe(description)

const minuteRange = z
  .strictObject({
    startMinutesAgo: minutesAgo(
      'startMinutesAgo',
      'The earliest minute, counted back from now (default 29).',
    ),
    endMinutesAgo: minutesAgo(
      'endMinutesAgo',
      'The latest minute, counted back from now (default 0, this minute).',
    ),
    name: rangeName,
  })
  .superRefine((range, ctx) => {
    const start = range.startMinutesAgo ?? LIMITS.lastMinute
    const end = range.endMinutesAgo ?? 0
    if (start < end)
      ctx.addIssue({
        code: 'custom',
        message: `startMinutesAgo ${start} is more recent than endMinutesAgo ${end}: startMinutesAgo counts further back, so swap them`,
      })
  })

/** None (`[]` too) is the whole last 30 minutes. */
export const minuteRanges = () =>
  z
    .array(minuteRange, {
      error: 'minuteRanges is a list such as [{"startMinutesAgo": 29, "endMinutesAgo": 0}]',
    })
    .max(LIMITS.minuteRanges, { error: `at most ${LIMITS.minuteRanges} minute ranges` })
    .describe(
      'Up to 2 ranges within the last 30 minutes, such as [{"startMinutesAgo": 29, "endMinutesAgo": 15}]. Default: the whole last 30 minutes.',
    )

/**
 * A filter expression, shown in brief: its description is its schema, so it says every rule the
 * input holds it to, GA4's FilterExpression's and the connector's own bounds (filters.ts).
 */
export const dimensionFilter = () =>
  inBrief(filterExpression).describe(
    `Keep only some dimension values: a GA4 FilterExpression, such as {"filter": {"fieldName": "country", "stringFilter": {"value": "France"}}}. An expression is one of filter, andGroup or orGroup {"expressions": [1 to ${FILTER_LIMITS.expressions} expressions]}, or notExpression (an expression); at most ${FILTER_LIMITS.depth} deep. A filter has a fieldName (up to ${FILTER_LIMITS.name} characters) and one of stringFilter {"value", matchType EXACT, BEGINS_WITH, ENDS_WITH, CONTAINS, FULL_REGEXP or PARTIAL_REGEXP}, inListFilter {"values": [1 to ${FILTER_LIMITS.values.toLocaleString('en')}]}, numericFilter {"operation": "GREATER_THAN", "value": {"int64Value": 5}}, betweenFilter {fromValue, toValue} or emptyFilter {}; text values up to ${FILTER_LIMITS.text.toLocaleString('en')} characters; text matches ignore case unless caseSensitive. Dimensions only; the filtered dimension need not be in dimensions.`,
  )

/** run_realtime_report's: its rules are run_report's, said once, there. */
export const realtimeDimensionFilter = () =>
  inBrief(filterExpression).describe(
    'Keep only some dimension values, as run_report’s dimensionFilter, such as {"filter": {"fieldName": "country", "stringFilter": {"value": "France"}}}.',
  )

export const metricFilter = () =>
  inBrief(filterExpression).describe(
    'Keep only rows whose metric values pass, tested after adding up (like SQL HAVING): an expression as dimensionFilter’s, on metrics, with numericFilter or betweenFilter, such as {"filter": {"fieldName": "sessions", "numericFilter": {"operation": "GREATER_THAN", "value": {"int64Value": 100}}}}.',
  )

const AGGREGATIONS = ['TOTAL', 'MINIMUM', 'MAXIMUM', 'COUNT'] as const

export const metricAggregations = () =>
  z
    .array(z.enum(AGGREGATIONS, { error: `metricAggregations takes ${AGGREGATIONS.join(', ')}` }))
    .max(AGGREGATIONS.length)
    .describe(
      'Add totals (TOTAL, also COUNT: the number of rows), maximums (MAXIMUM) and minimums (MINIMUM) of all rows, not just this page; their dimension values read RESERVED_TOTAL, RESERVED_COUNT, RESERVED_MAX, RESERVED_MIN.',
    )

const ORDER_TYPES = ['ALPHANUMERIC', 'CASE_INSENSITIVE_ALPHANUMERIC', 'NUMERIC'] as const

const orderBy = z
  .strictObject(
    {
      metric: emptyIsNone(
        z.strictObject({ metricName: z.string({ error: 'metricName is the metric to sort by' }) }),
      ).describe('Sort by a metric of the report: {"metricName": "sessions"}.'),
      dimension: emptyIsNone(
        z.strictObject({
          dimensionName: z.string({ error: 'dimensionName is the dimension to sort by' }),
          orderType: z
            .enum(ORDER_TYPES, { error: `orderType must be one of ${ORDER_TYPES.join(', ')}` })
            .optional()
            .describe(
              'ALPHANUMERIC (default), CASE_INSENSITIVE_ALPHANUMERIC, or NUMERIC ("9" before "10").',
            ),
        }),
      ).describe('Sort by a dimension of the report: {"dimensionName": "date"}.'),
      desc: z
        .boolean({ error: 'desc must be true or false' })
        .optional()
        .describe('Largest or last first (default false).'),
    },
    { error: objectError('an orderBy', '{"metric": {"metricName": "sessions"}, "desc": true}') },
  )
  .superRefine((order, ctx) => {
    const set = [order.metric, order.dimension].filter(Boolean).length
    if (set !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `an orderBy takes one of metric or dimension${set ? ', not both: keep one' : ''}`,
      })
  })

export const orderBys = () =>
  z
    .array(orderBy, {
      error: 'orderBys is a list such as [{"metric": {"metricName": "sessions"}, "desc": true}]',
    })
    .max(20)
    .describe(
      'How to sort the rows, such as [{"metric": {"metricName": "sessions"}, "desc": true}]; each by one metric or one dimension of the report. Default: the first metric, largest first.',
    )

export const limit = () =>
  z
    .number({ error: `limit must be a whole number from 1 to ${LIMITS.rows}` })
    .int({ error: `limit must be a whole number from 1 to ${LIMITS.rows}` })
    .min(1, { error: 'limit must be at least 1' })
    .max(LIMITS.rows, {
      error: `limit must be at most ${LIMITS.rows.toLocaleString('en')}: page with offset for more`,
    })

export const offset = () =>
  z
    .number({ error: 'offset must be a whole number, 0 or more' })
    .int({ error: 'offset must be a whole number, 0 or more' })
    .min(0, { error: 'offset must be 0 or more: the first row is 0' })
    .describe('The first row to return, counting from 0 (default 0): nextOffset for the next page.')

export const currencyCode = () =>
  z
    .string({ error: 'currencyCode is a string such as "EUR"' })
    .regex(/^[A-Z]{3}$/, {
      error: 'currencyCode must be an ISO 4217 code of 3 capital letters, such as "USD" or "EUR"',
    })
    .describe('Show revenue in this currency (ISO 4217, such as "EUR"); default the property’s.')

interface ReportShape {
  dimensions?: { name: string }[]
  metrics?: { name: string }[]
  dateRanges?: unknown[]
  minuteRanges?: unknown[]
  orderBys?: { metric?: { metricName: string }; dimension?: { dimensionName: string } }[]
  metricFilter?: Parameters<typeof filtersOf>[0]
}

/**
 * The rules between fields of one report: each name once; sort by what the report shows (or by
 * dateRange when there are several ranges); metric filters compare numbers.
 */
export function checkReport(report: ReportShape, ctx: z.RefinementCtx) {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message })
  const dimensionNames = (report.dimensions ?? []).map((d) => d.name)
  const metricNames = (report.metrics ?? []).map((m) => m.name)
  for (const [field, names] of [
    ['dimensions', dimensionNames],
    ['metrics', metricNames],
  ] as const)
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i) issue([field, i], `"${name}" is listed twice: list it once`)
    })
  const ranges = (report.dateRanges ?? report.minuteRanges ?? []).length
  ;(report.orderBys ?? []).forEach((order, i) => {
    const metric = order.metric?.metricName
    if (metric !== undefined && !metricNames.includes(metric))
      issue(
        ['orderBys', i],
        `sorts by "${metric}", which is not in metrics: add it there or sort by one of ${metricNames.join(', ')}`,
      )
    const dimension = order.dimension?.dimensionName
    if (
      dimension !== undefined &&
      !dimensionNames.includes(dimension) &&
      !(dimension === 'dateRange' && ranges > 1)
    )
      issue(
        ['orderBys', i],
        `sorts by "${dimension}", which is not in dimensions: add it there${dimensionNames.length ? ` or sort by one of ${dimensionNames.join(', ')}` : ''}`,
      )
  })
  for (const { filter, path } of filtersOf(report.metricFilter, ['metricFilter']))
    if (!filter.numericFilter && !filter.betweenFilter)
      issue(
        path,
        'metric filters compare numbers: use numericFilter or betweenFilter, or move this filter to dimensionFilter',
      )
}
