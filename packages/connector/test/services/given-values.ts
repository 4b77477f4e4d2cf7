import fc from 'fast-check'
import { admittedBy, character, type Given, type JsonSchema } from './schema-values.js'

/**
 * The values a tool's inputSchema leaves to something else, for the generated values: ids and
 * sites as the provider gives them (their descriptions say "from list_tasks", "exactly as
 * list_sites gives it"), mostly, and anything the schema admits in their place now and then; and
 * the pieces shown in brief, from what their descriptions say: a GA4 FilterExpression within the
 * bounds stated, run_report's fields for each request of run_reports and its orderBys for
 * run_realtime_report's.
 */

/** Sites as list_sites gives them (the sandbox's people's too); pages under them. */
export const PROVIDER_SITE = /^(https?:\/\/[a-z0-9.-]+\/([a-z0-9-]+\/)*|sc-domain:[a-z0-9.-]+)$/
const SITES = ['https://www.example.com/', 'http://example.com/blog/', 'sc-domain:example.com']
const PAGE_ORIGINS = ['https://www.example.com', 'http://example.com', 'https://shop.example.com']

/** An id as the provider gives one: letters, digits, `_` and `-`, or the default list's. */
export const PROVIDER_ID = /^(@default|[A-Za-z0-9_-]{1,40})$/
export const ID_FIELDS = ['tasklist', 'task', 'parent', 'previous', 'destinationTasklist']
export const URL_FIELDS = ['inspectionUrl', 'feedpath', 'sitemapIndex']

/** Mostly `provider`'s values, sometimes anything the schema admits. */
const mostly = (provider: fc.Arbitrary<unknown>, schema: JsonSchema) =>
  fc.oneof({ weight: 4, arbitrary: provider }, { weight: 1, arbitrary: admittedBy(schema) })

const pageOnASite = fc
  .tuple(fc.constantFrom(...PAGE_ORIGINS), fc.webPath(), fc.webQueryParameters())
  .map(([origin, path, query]) => `${origin}${path || '/'}${query ? `?${query}` : ''}`)

/**
 * The values of every service's fields that the schema leaves to something else; `runReport` is
 * run_report's published inputSchema, whose fields each request of run_reports takes. `first`
 * supplies what a test wants instead (the property's own names).
 */
export function givenValues(runReport: JsonSchema, first: Given = () => undefined): Given {
  const { propertiesId: _, ...requestFields } = runReport.properties!
  const request: JsonSchema = {
    ...runReport,
    properties: requestFields,
    required: runReport.required!.filter((field) => field !== 'propertiesId'),
  }
  const given: Given = (at, schema) => {
    const instead = first(at, schema)
    if (instead) return instead
    if (ID_FIELDS.includes(at)) return mostly(fc.stringMatching(PROVIDER_ID), schema)
    if (at === 'siteUrl') return mostly(fc.constantFrom(...SITES), schema)
    if (URL_FIELDS.includes(at)) return mostly(pageOnASite, schema)
    if (at.endsWith('dimensionFilter')) return filterExpression
    // Shown in brief where run_report shows it whole (run_realtime_report's orderBys).
    if (at === 'orderBys' && schema.type === 'array' && !schema.items)
      return admittedBy(runReport.properties!.orderBys!, given, at)
    if (at.endsWith('metricFilter'))
      return fc.oneof({ weight: 3, arbitrary: metricExpression }, filterExpression)
    if (at === 'requests[]')
      return admittedBy(
        request,
        (inner, field) => (inner === at ? undefined : given(inner, field)),
        at,
      )
    return undefined
  }
  return given
}

/** Text of up to `most` characters, the longest (beyond the BMP too) among them. */
const textUpTo = (most: number, least = 0) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: character, minLength: least, maxLength: 20 }) },
    fc.constant('a'.repeat(most)),
    fc.constant('😀'.repeat(most)),
  )

/** The bounds dimensionFilter's description states. */
export const STATED_FILTER_BOUNDS = {
  expressions: 100,
  depth: 10,
  name: 200,
  values: 1000,
  text: 1024,
}
const B = STATED_FILTER_BOUNDS

const INT64 = 2n ** 63n
const numericValue = fc.oneof(
  fc.record({
    int64Value: fc.oneof(
      fc.maxSafeInteger(),
      fc.bigInt(-INT64, INT64 - 1n).map(String),
      fc.constantFrom(String(-INT64), String(INT64 - 1n)),
    ),
  }),
  fc.record({ doubleValue: fc.double({ noNaN: true, noDefaultInfinity: true }) }),
)

const MATCH_TYPES = [
  'EXACT',
  'BEGINS_WITH',
  'ENDS_WITH',
  'CONTAINS',
  'FULL_REGEXP',
  'PARTIAL_REGEXP',
]
const OPERATIONS = [
  'EQUAL',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL',
]
const caseSensitive = { caseSensitive: fc.boolean() }

const KINDS = {
  stringFilter: fc.record(
    { value: textUpTo(B.text), matchType: fc.constantFrom(...MATCH_TYPES), ...caseSensitive },
    { requiredKeys: ['value'] },
  ),
  inListFilter: fc.record(
    {
      values: fc.oneof(
        { weight: 9, arbitrary: fc.array(textUpTo(B.text), { minLength: 1, maxLength: 3 }) },
        fc.constant(Array.from({ length: B.values }, (_, i) => `v${i}`)),
      ),
      ...caseSensitive,
    },
    { requiredKeys: ['values'] },
  ),
  numericFilter: fc.record({ operation: fc.constantFrom(...OPERATIONS), value: numericValue }),
  betweenFilter: fc.record({ fromValue: numericValue, toValue: numericValue }),
  emptyFilter: fc.constant({}),
} as const
type Kind = keyof typeof KINDS
export const FILTER_KINDS = Object.keys(KINDS) as Kind[]
export const NUMERIC_KINDS: Kind[] = ['numericFilter', 'betweenFilter']

/**
 * `node` with some of its other optional parts as `{}`, as a form may send them: none. Not
 * emptyFilter, whose `{}` is a filter.
 */
const withEmptyParts = (node: Record<string, unknown>, parts: readonly string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(node) },
    fc
      .subarray(parts.filter((part) => !(part in node) && part !== 'emptyFilter'))
      .map((empty) => ({ ...node, ...Object.fromEntries(empty.map((part) => [part, {}])) })),
  )

const filterOf = (kinds: readonly Kind[]) =>
  fc
    .tuple(textUpTo(B.name, 1), fc.constantFrom(...kinds))
    .chain(([fieldName, kind]) =>
      KINDS[kind].map((value) => ({ fieldName, [kind]: value }) as Record<string, unknown>),
    )
    .chain((filter) => withEmptyParts(filter, FILTER_KINDS))

const NODES = ['filter', 'andGroup', 'orGroup', 'notExpression']

/** A GA4 FilterExpression of `kinds` of filters, within the bounds its description states. */
function expressionOf(kinds: readonly Kind[]) {
  const { expression } = fc.letrec<{ expression: Record<string, unknown> }>((tie) => {
    const group = fc.array(tie('expression'), { minLength: 1, maxLength: 3 })
    return {
      expression: fc
        .oneof(
          { maxDepth: B.depth - 1, depthSize: 'small' },
          filterOf(kinds).map((filter) => ({ filter })),
          group.map((expressions) => ({ andGroup: { expressions } })),
          group.map((expressions) => ({ orGroup: { expressions } })),
          tie('expression').map((notExpression) => ({ notExpression })),
        )
        .chain((node) => withEmptyParts(node, NODES)),
    }
  })
  const leaf = filterOf(kinds).map((filter) => ({ filter }))
  const deepest = leaf.map((node) => {
    let deep: Record<string, unknown> = node
    for (let level = 1; level < B.depth; level++) deep = { notExpression: deep }
    return deep
  })
  const widest = fc
    .array(leaf, { minLength: B.expressions, maxLength: B.expressions })
    .map((expressions) => ({ orGroup: { expressions } }))
  return fc.oneof({ weight: 8, arbitrary: expression }, deepest, widest)
}

const filterExpression = expressionOf(FILTER_KINDS)
const metricExpression = expressionOf(NUMERIC_KINDS)

const isEmpty = (value: unknown) =>
  Array.isArray(value)
    ? value.length === 0
    : typeof value === 'object' && value !== null && Object.keys(value).length === 0

/** Whether a value is given and not empty: `{}` and `[]` mean none. */
export const present = (value: unknown) => value !== undefined && !isEmpty(value)

/** Every filter of an expression as sent, `{}` parts taken as none. */
export function filtersIn(expression: unknown): Record<string, unknown>[] {
  if (!present(expression)) return []
  const node = expression as Record<string, any>
  if (present(node.filter)) return [node.filter]
  if (present(node.notExpression)) return filtersIn(node.notExpression)
  const group = present(node.andGroup) ? node.andGroup : node.orGroup
  return present(group) ? (group.expressions as unknown[]).flatMap(filtersIn) : []
}

/** The kinds of a filter as sent: emptyFilter's `{}` is one, any other `{}` is none. */
export const kindsOf = (filter: Record<string, unknown>) =>
  FILTER_KINDS.filter((kind) =>
    kind === 'emptyFilter' ? filter[kind] !== undefined : present(filter[kind]),
  )
