import { z } from 'zod'
import { invalidArgument } from '../../http/errors.js'
import { isoDay, parseDay } from '../../synthetic/calendar.js'
import { HOURLY_DAYS } from './calendar.js'
import { hasQueries, SEARCH_TYPES, type SearchType } from './facts.js'
import { compileRe2, type Matcher } from './regex.js'

/**
 * The body of a search analytics query, as the real API takes it, and the rules that hold
 * between its fields. Enum values are not case-sensitive (`query`, `QUERY`; `hourly_all`,
 * `HOURLY_ALL`), as with the real API; they are read into the spelling of its documentation.
 */

const DIMENSIONS = [
  'country',
  'device',
  'page',
  'query',
  'searchAppearance',
  'date',
  'hour',
] as const
export type Dimension = (typeof DIMENSIONS)[number]
export const FILTER_DIMENSIONS = ['country', 'device', 'page', 'query', 'searchAppearance'] as const
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number]
export const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'includingRegex',
  'excludingRegex',
] as const
type Operator = (typeof OPERATORS)[number]
const AGGREGATIONS = ['auto', 'byPage', 'byProperty', 'byNewsShowcasePanel'] as const
export type Aggregation = (typeof AGGREGATIONS)[number]
const DATA_STATES = ['final', 'all', 'hourly_all'] as const
type DataState = (typeof DATA_STATES)[number]

const ROW_LIMIT = { default: 1000, max: 25_000 }
const MAX_EXPRESSION = 4096

const folded = (value: string) => value.toLowerCase().replace(/_/g, '')

/** One of `values`, whatever its case and underscores, read as the documented spelling. */
function caseless<T extends string>(values: readonly T[]) {
  const byFolded = new Map(values.map((v) => [folded(v), v]))
  const listed = values.map((v) => `"${v}"`).join(', ')
  return z.string({ error: `must be one of ${listed}` }).transform((value, ctx) => {
    const known = byFolded.get(folded(value))
    if (known) return known
    ctx.addIssue({
      code: 'custom',
      message: `must be one of ${listed}; got "${value.slice(0, 40)}"`,
    })
    return z.NEVER
  })
}

const date = z.string({ error: 'is required: a date as YYYY-MM-DD' }).transform((value, ctx) => {
  const day = parseDay(value)
  if (day !== undefined) return day
  ctx.addIssue({
    code: 'custom',
    message: `must be a real date as YYYY-MM-DD; got "${value.slice(0, 40)}"`,
  })
  return z.NEVER
})

const filter = z.strictObject({
  dimension: caseless(FILTER_DIMENSIONS),
  operator: caseless(OPERATORS).default('equals'),
  expression: z
    .string({ error: 'is required: the value to compare with' })
    .max(MAX_EXPRESSION, { error: `must be at most ${MAX_EXPRESSION} characters` }),
})

export const queryBody = z.object({
  startDate: date,
  endDate: date,
  dimensions: z.array(caseless(DIMENSIONS)).default([]),
  type: caseless(SEARCH_TYPES).optional(),
  searchType: caseless(SEARCH_TYPES).optional(),
  dimensionFilterGroups: z
    .array(
      z.strictObject({
        groupType: caseless(['and'] as const).default('and'),
        filters: z.array(filter).default([]),
      }),
    )
    .default([]),
  aggregationType: caseless(AGGREGATIONS).default('auto'),
  rowLimit: z
    .number({ error: 'must be a whole number from 1 to 25000' })
    .int({ error: 'must be a whole number from 1 to 25000' })
    .min(1, { error: 'must be from 1 to 25000' })
    .max(ROW_LIMIT.max, {
      error: 'must be at most 25000 (larger values are rejected, not clamped)',
    })
    .default(ROW_LIMIT.default),
  startRow: z
    .number({ error: 'must be a whole number, 0 or more' })
    .int({ error: 'must be a whole number, 0 or more' })
    .min(0, { error: 'must be 0 or more' })
    .max(2 ** 31 - 1, { error: 'must be at most 2147483647' })
    .default(0),
  dataState: caseless(DATA_STATES).default('final'),
})

export interface Filter {
  dimension: FilterDimension
  operator: Operator
  expression: string
  /** For the regex operators: the compiled pattern. */
  matcher?: Matcher
}

export interface AnalyticsQuery {
  startDay: number
  endDay: number
  dimensions: Dimension[]
  type: SearchType
  /** Every filter of every group: groups are all "and", so one list is the same. */
  filters: Filter[]
  aggregation: Aggregation
  rowLimit: number
  startRow: number
  dataState: DataState
}

const NEWS_SHOWCASE = 'NEWS_SHOWCASE'

/** Checks the rules between fields (the schema checked each field); a broken one is a 400. */
export function analyticsQuery(body: z.output<typeof queryBody>, today: number): AnalyticsQuery {
  const fail = (message: string): never => {
    throw invalidArgument(message)
  }
  if (body.startDate > body.endDate)
    fail(
      `startDate ${isoDay(body.startDate)} is after endDate ${isoDay(body.endDate)}: startDate must be on or before endDate.`,
    )
  if (body.type && body.searchType && body.type !== body.searchType)
    fail(
      `type "${body.type}" and searchType "${body.searchType}" differ: give type only (searchType is its deprecated alias).`,
    )
  const type = body.type ?? body.searchType ?? 'web'

  const dimensions = body.dimensions
  const repeated = dimensions.find((d, i) => dimensions.indexOf(d) !== i)
  if (repeated)
    fail(`The dimension "${repeated}" is given more than once: give each dimension once.`)
  if (dimensions.includes('searchAppearance') && dimensions.length > 1)
    fail(
      'searchAppearance cannot be grouped with other dimensions: group by searchAppearance alone, then filter by one appearance and group by the others.',
    )
  if (dimensions.includes('hour')) {
    if (body.dataState !== 'hourly_all')
      fail(
        'Grouping by hour needs dataState "hourly_all": hourly data is always fresh, so it may be partial.',
      )
    if (body.startDate < today - HOURLY_DAYS + 1)
      fail(
        `Hourly data covers the last ${HOURLY_DAYS} days only: startDate must be ${isoDay(today - HOURLY_DAYS + 1)} or later to group by hour.`,
      )
  }

  const filters: Filter[] = []
  for (const group of body.dimensionFilterGroups)
    for (const f of group.filters) {
      const item: Filter = { ...f }
      if (f.operator === 'includingRegex' || f.operator === 'excludingRegex') {
        const compiled = compileRe2(f.expression)
        item.matcher =
          typeof compiled === 'string'
            ? fail(
                `The ${f.operator} expression "${f.expression.slice(0, 80)}" for ${f.dimension}: ${compiled}.`,
              )
            : compiled
      }
      filters.push(item)
    }

  if (
    !hasQueries(type) &&
    (dimensions.includes('query') || filters.some((f) => f.dimension === 'query'))
  )
    fail(
      `The ${type} report has no queries (people did not search): remove the query dimension and query filters, or use type "web".`,
    )

  const byPage = dimensions.includes('page') || filters.some((f) => f.dimension === 'page')
  if (body.aggregationType === 'byProperty' && byPage)
    fail(
      'aggregationType "byProperty" cannot be used when you group or filter by page: use "auto" or "byPage".',
    )
  if (body.aggregationType === 'byNewsShowcasePanel') {
    if (hasQueries(type))
      fail('aggregationType "byNewsShowcasePanel" needs type "discover" or "googleNews".')
    const showcase = filters.some(
      (f) =>
        f.dimension === 'searchAppearance' &&
        f.operator === 'equals' &&
        f.expression.toUpperCase() === NEWS_SHOWCASE,
    )
    if (!showcase)
      fail(
        'aggregationType "byNewsShowcasePanel" needs a filter: searchAppearance equals "NEWS_SHOWCASE".',
      )
  }

  return {
    startDay: body.startDate,
    endDay: body.endDate,
    dimensions,
    type,
    filters,
    aggregation: body.aggregationType,
    rowLimit: body.rowLimit,
    startRow: body.startRow,
    dataState: body.dataState,
  }
}
