import { z } from 'zod'
import { invalidArgument } from '../http/errors.js'

/**
 * The request bodies of the analytics API, as the real API's JSON mapping of its messages:
 * unknown fields are refused the way Google's JSON parser words it, int64 fields take a number or
 * a decimal string, enums are their names. Rules about names, counts and dates are checked later
 * (rules.ts), against the property.
 */

const text = z.string({ error: 'expected a string' })
const flag = z.boolean({ error: 'expected true or false' })
/** proto3 JSON: an int64 is a number or a string of digits. */
const int64 = z
  .union([z.number().int(), z.string().regex(/^-?\d{1,18}$/)], { error: 'expected an integer' })
  .transform(Number)
const int32 = z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' })

/** Fields the real API has and this sandbox does not implement: refused by name (rules.ts). */
const unsupported = z.unknown().optional()

const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` })

export const MATCH_TYPES = [
  'MATCH_TYPE_UNSPECIFIED',
  'EXACT',
  'BEGINS_WITH',
  'ENDS_WITH',
  'CONTAINS',
  'FULL_REGEXP',
  'PARTIAL_REGEXP',
] as const
export const OPERATIONS = [
  'OPERATION_UNSPECIFIED',
  'EQUAL',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
] as const
export const AGGREGATIONS = [
  'METRIC_AGGREGATION_UNSPECIFIED',
  'TOTAL',
  'MINIMUM',
  'MAXIMUM',
  'COUNT',
] as const
export const ORDER_TYPES = [
  'ORDER_TYPE_UNSPECIFIED',
  'ALPHANUMERIC',
  'CASE_INSENSITIVE_ALPHANUMERIC',
  'NUMERIC',
] as const

/** A oneof of the real API: exactly one of the fields is set. */
const oneOf =
  (what: string, fields: readonly string[]) =>
  (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const set = fields.filter((field) => value[field] !== undefined)
    if (set.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message:
          set.length === 0
            ? `${what} needs one of ${fields.join(', ')}`
            : `${what} takes only one of ${fields.join(', ')}; it has ${set.join(' and ')}`,
      })
  }

const numericValue = z
  .strictObject({ int64Value: int64.optional(), doubleValue: z.number().optional() })
  .superRefine(oneOf('a NumericValue', ['int64Value', 'doubleValue']))

const FILTER_KINDS = [
  'stringFilter',
  'inListFilter',
  'numericFilter',
  'betweenFilter',
  'emptyFilter',
] as const

const filter = z
  .strictObject({
    fieldName: text,
    stringFilter: z
      .strictObject({
        matchType: enumOf(MATCH_TYPES).optional(),
        value: text,
        caseSensitive: flag.optional(),
      })
      .optional(),
    inListFilter: z
      .strictObject({
        values: z.array(text).min(1, { error: 'inListFilter.values must not be empty' }),
        caseSensitive: flag.optional(),
      })
      .optional(),
    numericFilter: z
      .strictObject({ operation: enumOf(OPERATIONS), value: numericValue })
      .optional(),
    betweenFilter: z.strictObject({ fromValue: numericValue, toValue: numericValue }).optional(),
    emptyFilter: z.strictObject({}).optional(),
  })
  .superRefine(oneOf('a Filter', FILTER_KINDS))
export type Filter = z.output<typeof filter>

export interface FilterExpression {
  andGroup?: { expressions: FilterExpression[] }
  orGroup?: { expressions: FilterExpression[] }
  notExpression?: FilterExpression
  filter?: Filter
}

/** Deeper nesting is refused before it is parsed: a parser recursing on it would overflow. */
const MAX_FILTER_DEPTH = 10

function depthOf(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    const expression = node as Record<string, unknown>
    const level = depth + 1
    deepest = Math.max(deepest, level)
    if (level > MAX_FILTER_DEPTH) break
    stack.push([expression.notExpression, level])
    for (const group of [expression.andGroup, expression.orGroup])
      if (typeof group === 'object' && group !== null) {
        const list = (group as Record<string, unknown>).expressions
        if (Array.isArray(list)) for (const item of list) stack.push([item, level])
      }
  }
  return deepest
}

const expressionList = (): z.ZodType<{ expressions: FilterExpression[] }> =>
  z.strictObject({ expressions: z.array(filterExpressionShape) })

const filterExpressionShape: z.ZodType<FilterExpression> = z
  .strictObject({
    get andGroup() {
      return expressionList().optional()
    },
    get orGroup() {
      return expressionList().optional()
    },
    get notExpression() {
      return filterExpressionShape.optional()
    },
    filter: filter.optional(),
  })
  .superRefine(oneOf('a FilterExpression', ['andGroup', 'orGroup', 'notExpression', 'filter']))

const filterExpression = z.preprocess((value, ctx) => {
  if (depthOf(value) <= MAX_FILTER_DEPTH) return value
  ctx.addIssue({
    code: 'custom',
    message: `filter expressions may be nested at most ${MAX_FILTER_DEPTH} levels deep`,
  })
  return z.NEVER
}, filterExpressionShape)

const dimension = z.strictObject({ name: text, dimensionExpression: unsupported })
const metric = z.strictObject({ name: text, expression: unsupported, invisible: unsupported })

const orderBy = z
  .strictObject({
    metric: z.strictObject({ metricName: text }).optional(),
    dimension: z
      .strictObject({ dimensionName: text, orderType: enumOf(ORDER_TYPES).optional() })
      .optional(),
    pivot: unsupported,
    desc: flag.optional(),
  })
  .superRefine(oneOf('an OrderBy', ['metric', 'dimension', 'pivot']))
export type OrderBy = z.output<typeof orderBy>

const dateRange = z.strictObject({ startDate: text, endDate: text, name: text.optional() })
const minuteRange = z.strictObject({
  startMinutesAgo: int32.optional(),
  endMinutesAgo: int32.optional(),
  name: text.optional(),
})

const common = {
  dimensions: z.array(dimension).optional(),
  metrics: z.array(metric).optional(),
  dimensionFilter: filterExpression.optional(),
  metricFilter: filterExpression.optional(),
  limit: int64.optional(),
  metricAggregations: z.array(enumOf(AGGREGATIONS)).optional(),
  orderBys: z.array(orderBy).optional(),
  returnPropertyQuota: flag.optional(),
}

export const reportRequest = z.strictObject({
  property: text.optional(),
  ...common,
  dateRanges: z.array(dateRange).optional(),
  offset: int64.optional(),
  currencyCode: text.optional(),
  keepEmptyRows: flag.optional(),
  cohortSpec: unsupported,
  comparisons: unsupported,
})
export type ReportRequest = z.output<typeof reportRequest>

export const realtimeRequest = z.strictObject({
  property: text.optional(),
  ...common,
  minuteRanges: z.array(minuteRange).optional(),
})
export type RealtimeRequest = z.output<typeof realtimeRequest>

export const batchRequest = z.strictObject({
  property: text.optional(),
  requests: z.array(z.unknown()).optional(),
})

/** The body parsed, or the provider's 400 worded as Google's JSON mapping words it. */
export function parseMessage<S extends z.ZodType>(schema: S, value: unknown, at = ''): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const path = fieldPath([...(at ? [at] : []), ...issue.path])
  if (issue.code === 'unrecognized_keys') {
    const where = path ? ` at '${path}'` : ''
    throw invalidArgument(
      `Invalid JSON payload received. Unknown name "${issue.keys[0]!.slice(0, 100)}"${where}: Cannot find field.`,
    )
  }
  throw invalidArgument(`Invalid value at '${path || 'body'}': ${issue.message}.`)
}

/** `dateRanges.0.startDate` as Google writes field paths: `date_ranges[0].start_date`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += (out ? '.' : '') + String(part).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  }
  return out
}
