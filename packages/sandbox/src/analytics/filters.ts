import { invalidArgument } from '../http/errors.js'
import type { Dimension } from './fields.js'
import type { Filter, FilterExpression } from './request.js'
import { NOT_SET } from './vocabulary.js'
import { compileRe2, type Matcher, type Re2Options } from '../search/analytics/regex.js'

/**
 * FilterExpressions turned into tests. A dimension filter tests cells before they are added up
 * (each value is tested once per distinct value, then remembered); a metric filter tests a row's
 * metric values after, like SQL's HAVING.
 */

export type CellTest<Block> = (block: Block, s: number, x: number) => boolean
export type RowTest = (values: readonly number[]) => boolean

/** Every field name an expression uses, in order. */
export function fieldNames(expression: FilterExpression | undefined): string[] {
  if (!expression) return []
  if (expression.filter) return [expression.filter.fieldName]
  if (expression.notExpression) return fieldNames(expression.notExpression)
  const group = expression.andGroup ?? expression.orGroup
  return group ? group.expressions.flatMap(fieldNames) : []
}

function combine<T extends unknown[]>(
  expression: FilterExpression,
  leaf: (filter: Filter) => (...args: T) => boolean,
): (...args: T) => boolean {
  if (expression.filter) return leaf(expression.filter)
  if (expression.notExpression) {
    const inner = combine(expression.notExpression, leaf)
    return (...args) => !inner(...args)
  }
  const and = expression.andGroup !== undefined
  const parts = (expression.andGroup ?? expression.orGroup)!.expressions.map((e) =>
    combine(e, leaf),
  )
  return and
    ? (...args) => parts.every((part) => part(...args))
    : (...args) => parts.some((part) => part(...args))
}

export function dimensionTest<Block>(
  expression: FilterExpression,
  dimensionOf: (name: string) => Dimension<Block>,
): CellTest<Block> {
  return combine(expression, (filter) => {
    const dimension = dimensionOf(filter.fieldName)
    const matches = valueTest(filter)
    const known = new Map<number, boolean>()
    return (block: Block, s: number, x: number) => {
      const code = dimension.code(block, s, x)
      let result = known.get(code)
      if (result === undefined) known.set(code, (result = matches(dimension.label(code))))
      return result
    }
  })
}

export function metricTest(
  expression: FilterExpression,
  indexOf: (name: string) => number,
): RowTest {
  return combine(expression, (filter) => {
    if (!filter.numericFilter && !filter.betweenFilter)
      throw invalidArgument(
        `The metric filter on ${filter.fieldName} must be a numericFilter or a betweenFilter: metric values are numbers.`,
      )
    const index = indexOf(filter.fieldName)
    const matches = numberTest(filter)
    return (values: readonly number[]) => matches(values[index]!)
  })
}

/** A dimension value's test: strings as strings, numbers (numeric and between) as numbers. */
function valueTest(filter: Filter): (value: string) => boolean {
  const { stringFilter, inListFilter, emptyFilter } = filter
  // Empty is a value never recorded as well as an empty one.
  if (emptyFilter) return (value) => value === '' || value === NOT_SET
  if (inListFilter) {
    const sensitive = inListFilter.caseSensitive === true
    const set = new Set(inListFilter.values.map((v) => (sensitive ? v : v.toLowerCase())))
    return (value) => set.has(sensitive ? value : value.toLowerCase())
  }
  if (stringFilter) {
    const sensitive = stringFilter.caseSensitive === true
    const wanted = sensitive ? stringFilter.value : stringFilter.value.toLowerCase()
    const fold = (value: string) => (sensitive ? value : value.toLowerCase())
    switch (stringFilter.matchType ?? 'EXACT') {
      case 'MATCH_TYPE_UNSPECIFIED':
      case 'EXACT':
        return (value) => fold(value) === wanted
      case 'BEGINS_WITH':
        return (value) => fold(value).startsWith(wanted)
      case 'ENDS_WITH':
        return (value) => fold(value).endsWith(wanted)
      case 'CONTAINS':
        return (value) => fold(value).includes(wanted)
      case 'FULL_REGEXP':
      case 'PARTIAL_REGEXP':
        return compile(stringFilter.value, {
          whole: stringFilter.matchType === 'FULL_REGEXP',
          caseless: !sensitive,
          field: filter.fieldName,
        })
    }
  }
  const matches = numberTest(filter)
  return (value) => {
    const number = value.trim() === '' ? NaN : Number(value)
    return !Number.isNaN(number) && matches(number)
  }
}

function numberTest(filter: Filter): (value: number) => boolean {
  if (filter.betweenFilter) {
    const from = numberOf(filter.betweenFilter.fromValue)
    const to = numberOf(filter.betweenFilter.toValue)
    return (value) => value >= from && value <= to
  }
  const { operation, value } = filter.numericFilter!
  const target = numberOf(value)
  switch (operation) {
    case 'EQUAL':
      return (v) => v === target
    case 'LESS_THAN':
      return (v) => v < target
    case 'LESS_THAN_OR_EQUAL':
      return (v) => v <= target
    case 'GREATER_THAN':
      return (v) => v > target
    case 'GREATER_THAN_OR_EQUAL':
      return (v) => v >= target
    case 'OPERATION_UNSPECIFIED':
      throw invalidArgument(
        `The numericFilter on ${filter.fieldName} needs an operation: EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN or GREATER_THAN_OR_EQUAL.`,
      )
  }
}

const numberOf = (value: { int64Value?: number; doubleValue?: number }) =>
  value.int64Value ?? value.doubleValue!

/**
 * A regular expression in RE2 syntax, on the linear-time engine the search analytics use
 * (regex.ts): a hostile pattern cannot stall the sandbox, nor the connector sharing its process.
 */
function compile(pattern: string, options: Re2Options & { field: string }): Matcher {
  if (pattern.length > 1024)
    throw invalidArgument(
      `The regular expression for ${options.field} is longer than 1024 characters.`,
    )
  const matcher = compileRe2(pattern, options)
  if (typeof matcher === 'string')
    throw invalidArgument(
      `Invalid regular expression for ${options.field}: "${pattern.slice(0, 100)}" is not a valid RE2 expression.`,
    )
  return matcher
}
