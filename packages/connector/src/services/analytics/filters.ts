import { z } from 'zod'
import { objectError } from '../inputs.js'

/**
 * The analytics API's FilterExpression, as a tool input: a tree of andGroup, orGroup and
 * notExpression over single filters. Checked for shape here (one kind per node, the real enums);
 * whether each fieldName is a dimension or a metric of the property is checked in the preflight.
 */

const MATCH_TYPES = [
  'EXACT',
  'BEGINS_WITH',
  'ENDS_WITH',
  'CONTAINS',
  'FULL_REGEXP',
  'PARTIAL_REGEXP',
] as const
const OPERATIONS = [
  'EQUAL',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
] as const

/** Deeper trees are refused before they are walked: a parser recursing on them overflows. */
const MAX_FILTER_DEPTH = 10

/** Exactly one of `fields` is set: the API's oneof. */
const exactlyOne =
  (what: string, fields: readonly string[]) =>
  (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const set = fields.filter((field) => value[field] !== undefined)
    if (set.length === 1) return
    ctx.addIssue({
      code: 'custom',
      message:
        set.length === 0
          ? `${what} needs one of ${fields.join(', ')}`
          : `${what} takes one of ${fields.join(', ')}, not ${set.join(' and ')}: keep one`,
    })
  }

const WHOLE = 'int64Value must be a whole number, such as 100 or "100"'
const int64 = z
  .union([z.number().int({ error: WHOLE }), z.string().regex(/^-?\d{1,18}$/, { error: WHOLE })], {
    error: WHOLE,
  })
  .describe('A whole number; a string of digits is accepted too.')

const numericValue = z
  .strictObject({
    int64Value: int64.optional(),
    doubleValue: z.number({ error: 'doubleValue must be a number' }).optional(),
  })
  .superRefine(exactlyOne('a value', ['int64Value', 'doubleValue']))
  .describe('{"int64Value": 100} or {"doubleValue": 0.5}.')

const caseSensitive = z
  .boolean({ error: 'caseSensitive must be true or false' })
  .optional()
  .describe('Match case exactly (default false).')

const FILTER_KINDS = [
  'stringFilter',
  'inListFilter',
  'numericFilter',
  'betweenFilter',
  'emptyFilter',
] as const

const FILTER_EXAMPLE = '{"fieldName": "country", "stringFilter": {"value": "France"}}'

export const filter = z
  .strictObject(
    {
      fieldName: z
        .string({ error: 'fieldName is required: the dimension or metric to filter on' })
        .min(1, { error: 'fieldName must not be empty' })
        .max(200, { error: 'fieldName is at most 200 characters' })
        .describe('The dimension (in dimensionFilter) or metric (in metricFilter) to test.'),
      stringFilter: z
        .strictObject({
          matchType: z
            .enum(MATCH_TYPES, { error: `matchType must be one of ${MATCH_TYPES.join(', ')}` })
            .optional()
            .describe('How value matches (default EXACT); the regular expressions are RE2.'),
          value: z.string({ error: 'stringFilter needs a value (a string)' }).max(1024),
          caseSensitive,
        })
        .optional()
        .describe('Dimensions only: compare the value as text.'),
      inListFilter: z
        .strictObject({
          values: z
            .array(z.string({ error: 'inListFilter values are strings' }).max(1024))
            .min(1, { error: 'inListFilter needs at least one value' })
            .max(1000),
          caseSensitive,
        })
        .optional()
        .describe('Dimensions only: the value is one of these.'),
      numericFilter: z
        .strictObject({
          operation: z
            .enum(OPERATIONS, { error: `operation must be one of ${OPERATIONS.join(', ')}` })
            .describe('The comparison.'),
          value: numericValue,
        })
        .optional()
        .describe('Compare as a number: metrics, or numeric dimensions such as hour.'),
      betweenFilter: z
        .strictObject({ fromValue: numericValue, toValue: numericValue })
        .optional()
        .describe('From fromValue to toValue, both included.'),
      emptyFilter: z
        .strictObject({})
        .optional()
        .describe('Dimensions only: the value is empty. Give {}.'),
    },
    { error: objectError('a filter', FILTER_EXAMPLE) },
  )
  .superRefine(exactlyOne('a filter', FILTER_KINDS))
type Filter = z.output<typeof filter>

export interface FilterExpression {
  andGroup?: { expressions: FilterExpression[] }
  orGroup?: { expressions: FilterExpression[] }
  notExpression?: FilterExpression
  filter?: Filter
}

const group = (how: string) =>
  z
    .strictObject({
      expressions: z
        .array(expression)
        .min(1, { error: `${how} needs at least one expression` })
        .max(100),
    })
    .describe(`{"expressions": [...]}: ${how}.`)

const expression: z.ZodType<FilterExpression> = z
  .strictObject(
    {
      get andGroup() {
        return group('all of them must match').optional()
      },
      get orGroup() {
        return group('any of them may match').optional()
      },
      get notExpression() {
        return expression.optional().describe('Matches what this expression does not.')
      },
      filter: filter.optional(),
    },
    { error: objectError('a filter expression', `{"filter": ${FILTER_EXAMPLE}}`) },
  )
  .superRefine(
    exactlyOne('a filter expression', ['andGroup', 'orGroup', 'notExpression', 'filter']),
  )

function depthOf(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length && deepest <= MAX_FILTER_DEPTH) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    deepest = Math.max(deepest, depth)
    const { notExpression, andGroup, orGroup } = node as Record<string, unknown>
    stack.push([notExpression, depth + 1])
    for (const g of [andGroup, orGroup]) {
      const list =
        typeof g === 'object' && g !== null && (g as { expressions?: unknown }).expressions
      if (Array.isArray(list)) for (const item of list) stack.push([item, depth + 1])
    }
  }
  return deepest
}

/** A FilterExpression, its depth checked before zod walks it (the value itself is unchanged). */
export const filterExpression = z.preprocess((value, ctx) => {
  if (depthOf(value) <= MAX_FILTER_DEPTH) return value
  ctx.addIssue({
    code: 'custom',
    message: `filter expressions may be nested at most ${MAX_FILTER_DEPTH} levels deep: simplify it`,
  })
  return z.NEVER
}, expression)

/** Every filter of an expression, with its path from the expression. */
export function filtersOf(
  expression: FilterExpression | undefined,
  path: (string | number)[] = [],
): { filter: Filter; path: (string | number)[] }[] {
  if (!expression) return []
  if (expression.filter) return [{ filter: expression.filter, path: [...path, 'filter'] }]
  if (expression.notExpression)
    return filtersOf(expression.notExpression, [...path, 'notExpression'])
  const key = expression.andGroup ? 'andGroup' : 'orGroup'
  return (expression[key]?.expressions ?? []).flatMap((e, i) =>
    filtersOf(e, [...path, key, 'expressions', i]),
  )
}
