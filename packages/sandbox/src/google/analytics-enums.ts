import type { MetricType } from '../analytics/fields.js'
import {
  fieldPath,
  type AGGREGATIONS,
  type MATCH_TYPES,
  type OPERATIONS,
  type ORDER_TYPES,
} from '../analytics/request.js'
import { invalidArgument } from '../http/errors.js'

/**
 * The Analytics Data API's enums as proto3 numbers (Google's data.proto), and the one the
 * Admin API's account summaries answer with. Google's clients send request enums as numbers and
 * ask for answers with numbers; the core speaks names.
 */

interface Numbering {
  /** The enum's proto name, as Google names it in errors. */
  type: string
  byName: Readonly<Record<string, number>>
}

const numbering = <Name extends string>(type: string, byName: Record<Name, number>): Numbering => ({
  type: `type.googleapis.com/google.analytics.data.v1beta.${type}`,
  byName,
})

/** The request fields that hold an enum, by their JSON name: each is unique across the messages. */
const REQUEST_ENUMS: Readonly<Record<string, Numbering>> = {
  matchType: numbering<(typeof MATCH_TYPES)[number]>('StringFilter.MatchType', {
    MATCH_TYPE_UNSPECIFIED: 0,
    EXACT: 1,
    BEGINS_WITH: 2,
    ENDS_WITH: 3,
    CONTAINS: 4,
    FULL_REGEXP: 5,
    PARTIAL_REGEXP: 6,
  }),
  operation: numbering<(typeof OPERATIONS)[number]>('NumericFilter.Operation', {
    OPERATION_UNSPECIFIED: 0,
    EQUAL: 1,
    LESS_THAN: 2,
    LESS_THAN_OR_EQUAL: 3,
    GREATER_THAN: 4,
    GREATER_THAN_OR_EQUAL: 5,
  }),
  orderType: numbering<(typeof ORDER_TYPES)[number]>('OrderBy.DimensionOrderBy.OrderType', {
    ORDER_TYPE_UNSPECIFIED: 0,
    ALPHANUMERIC: 1,
    CASE_INSENSITIVE_ALPHANUMERIC: 2,
    NUMERIC: 3,
  }),
  metricAggregations: numbering<(typeof AGGREGATIONS)[number]>('MetricAggregation', {
    METRIC_AGGREGATION_UNSPECIFIED: 0,
    TOTAL: 1,
    COUNT: 4,
    MINIMUM: 5,
    MAXIMUM: 6,
  }),
}

/** Google's metric types; the core answers with a few of them. */
const METRIC_TYPES = {
  METRIC_TYPE_UNSPECIFIED: 0,
  TYPE_INTEGER: 1,
  TYPE_FLOAT: 2,
  TYPE_SECONDS: 4,
  TYPE_MILLISECONDS: 5,
  TYPE_MINUTES: 6,
  TYPE_HOURS: 7,
  TYPE_STANDARD: 8,
  TYPE_CURRENCY: 9,
  TYPE_FEET: 10,
  TYPE_MILES: 11,
  TYPE_METERS: 12,
  TYPE_KILOMETERS: 13,
}

/** The answer fields that hold an enum: a metric's `type` (its header, its metadata). */
const ANSWER_ENUMS: Readonly<Record<string, Numbering>> = {
  type: numbering('MetricType', METRIC_TYPES satisfies Record<MetricType, number>),
  // The Admin API's, in an account summary's property summaries (resources.proto).
  propertyType: {
    type: 'type.googleapis.com/google.analytics.admin.v1beta.PropertyType',
    byName: {
      PROPERTY_TYPE_UNSPECIFIED: 0,
      PROPERTY_TYPE_ORDINARY: 1,
      PROPERTY_TYPE_SUBPROPERTY: 2,
      PROPERTY_TYPE_ROLLUP: 3,
    },
  },
}

/**
 * Filter expressions nest; past this depth the walk leaves the rest as it is, and the core
 * refuses the nesting with its own message before any recursion of its own.
 */
const MAX_DEPTH = 64

type Path = (string | number)[]

/** Rewrites the values of `fields` in a JSON tree, depth first, keeping everything else. */
function rewrite(
  value: unknown,
  fields: Readonly<Record<string, Numbering>>,
  convert: (value: unknown, enumType: Numbering, at: Path) => unknown,
  at: Path = [],
): unknown {
  if (at.length > MAX_DEPTH || typeof value !== 'object' || value === null) return value
  if (Array.isArray(value))
    return value.map((item, i) => rewrite(item, fields, convert, [...at, i]))
  // fromEntries keeps every key an own field, `__proto__` too, for the core to judge.
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      const enumType = Object.hasOwn(fields, key) ? fields[key] : undefined
      const here = [...at, key]
      if (!enumType) return [key, rewrite(field, fields, convert, here)]
      return [
        key,
        Array.isArray(field)
          ? field.map((item, i) => convert(item, enumType, [...here, i]))
          : convert(field, enumType, here),
      ]
    }),
  )
}

function nameOf(value: unknown, enumType: Numbering, at: Path): unknown {
  if (typeof value !== 'number') return value
  const name = Object.keys(enumType.byName).find((n) => enumType.byName[n] === value)
  if (name !== undefined) return name
  const known = Object.entries(enumType.byName)
    .filter(([, number]) => number > 0)
    .map(([n, number]) => `${n} (${number})`)
  throw invalidArgument(
    `Invalid value at '${fieldPath(at)}' (${enumType.type}), ${value}: give one of ${known.join(', ')}.`,
  )
}

const numberOf = (value: unknown, enumType: Numbering): unknown =>
  typeof value === 'string' && Object.hasOwn(enumType.byName, value)
    ? enumType.byName[value]
    : value

/** A request body with every enum given as a number turned into its name; names stay. */
export const enumNamesIn = (body: unknown) => rewrite(body, REQUEST_ENUMS, nameOf)

/** An answer with every enum name turned into its number, as `enum-encoding=int` asks. */
export const enumNumbersIn = (answer: unknown) => rewrite(answer, ANSWER_ENUMS, numberOf)
