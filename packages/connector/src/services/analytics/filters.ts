import { z } from 'zod'
import { atMostCharacters, emptyIsNone, objectError } from '../inputs.js'

/**
 * The analytics API's FilterExpression, as a tool input: a tree of andGroup, orGroup and
 * notExpression over single filters. Checked for shape here (one kind per node, the real enums);
 * whether each fieldName is a dimension or a metric of the property is checked in the preflight.
 * The listing shows it in brief: its description (inputs.ts) says each of these rules and bounds.
 * An empty optional part (`"andGroup": {}`) is none, as everywhere; emptyFilter's `{}` is a value.
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

/**
 * The connector's own bounds on a filter, which the API does not state: they bound a request.
 * Deeper trees are refused before they are walked, as a parser recursing on them overflows; a
 * name is also compared with the property's names (names.ts), so it stays short.
 */
export const FILTER_LIMITS = {
  depth: 10,
  expressions: 100,
  values: 1000,
  name: 200,
  text: 1024,
} as const

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
/** GA4's int64Value: a JSON number, or the digits of any 64-bit integer, as proto3 JSON has it. */
const INT64 = 2n ** 63n
const DIGITS = /^-?\d{1,19}$/
const int64Digits = z
  .string()
  .regex(DIGITS, { error: WHOLE })
  .refine((text) => !DIGITS.test(text) || (BigInt(text) >= -INT64 && BigInt(text) < INT64), {
    error: 'int64Value is beyond a 64-bit integer',
  })
const int64 = z
  .union([z.number().int({ error: WHOLE }), int64Digits], { error: WHOLE })
  .describe('A whole number; a string of digits is accepted too.')

const numericValue = z
  .strictObject({
    int64Value: int64.optional(),
    doubleValue: z.number({ error: 'doubleValue must be a number' }).optional(),
  })
  .superRefine(exactlyOne('a value', ['int64Value', 'doubleValue']))
  .describe('{"int64Value": 100} or {"doubleValue": 0.5}.')

/** A value to compare with, within the connector's bound. */
const text = (schema: z.ZodString) =>
  atMostCharacters(
    schema,
    FILTER_LIMITS.text,
    `filter values are at most ${FILTER_LIMITS.text} characters`,
  )

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
      fieldName: atMostCharacters(
        z
          .string({ error: 'fieldName is required: the dimension or metric to filter on' })
          .min(1, { error: 'fieldName must not be empty' }),
        FILTER_LIMITS.name,
        `fieldName is at most ${FILTER_LIMITS.name} characters`,
      ).describe('The dimension (in dimensionFilter) or metric (in metricFilter) to test.'),
      stringFilter: emptyIsNone(
        z.strictObject({
          matchType: z
            .enum(MATCH_TYPES, { error: `matchType must be one of ${MATCH_TYPES.join(', ')}` })
            .optional()
            .describe('How value matches (default EXACT); the regular expressions are RE2.'),
          value: text(z.string({ error: 'stringFilter needs a value (a string)' })),
          caseSensitive,
        }),
      ).describe('Dimensions only: compare the value as text.'),
      inListFilter: emptyIsNone(
        z.strictObject({
          values: z
            .array(text(z.string({ error: 'inListFilter values are strings' })))
            .min(1, { error: 'inListFilter needs at least one value' })
            .max(FILTER_LIMITS.values, {
              error: `inListFilter takes at most ${FILTER_LIMITS.values} values`,
            }),
          caseSensitive,
        }),
      ).describe('Dimensions only: the value is one of these.'),
      numericFilter: emptyIsNone(
        z.strictObject({
          operation: z
            .enum(OPERATIONS, { error: `operation must be one of ${OPERATIONS.join(', ')}` })
            .describe('The comparison.'),
          value: numericValue,
        }),
      ).describe('Compare as a number: metrics, or numeric dimensions such as hour.'),
      betweenFilter: emptyIsNone(
        z.strictObject({ fromValue: numericValue, toValue: numericValue }),
      ).describe('From fromValue to toValue, both included.'),
      // `{}` is this filter's only value, not none.
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
        .max(FILTER_LIMITS.expressions, {
          error: `a group holds at most ${FILTER_LIMITS.expressions} expressions`,
        }),
    })
    .describe(`{"expressions": [...]}: ${how}.`)

const expression: z.ZodType<FilterExpression> = z
  .strictObject(
    {
      get andGroup() {
        return emptyIsNone(group('all of them must match'))
      },
      get orGroup() {
        return emptyIsNone(group('any of them may match'))
      },
      get notExpression() {
        return emptyIsNone(expression).describe('Matches what this expression does not.')
      },
      filter: emptyIsNone(filter),
    },
    { error: objectError('a filter expression', `{"filter": ${FILTER_EXAMPLE}}`) },
  )
  .superRefine(
    exactlyOne('a filter expression', ['andGroup', 'orGroup', 'notExpression', 'filter']),
  )

function depthOf(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length && deepest <= FILTER_LIMITS.depth) {
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
  if (depthOf(value) <= FILTER_LIMITS.depth) return value
  ctx.addIssue({
    code: 'custom',
    message: `filter expressions may be nested at most ${FILTER_LIMITS.depth} levels deep: simplify it`,
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
