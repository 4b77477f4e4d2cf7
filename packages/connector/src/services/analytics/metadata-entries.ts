import { z } from 'zod'
import { METADATA_LIMITS, type MetadataFilters } from './metadata-inputs.js'
import { nearest } from './names.js'
import { metricType } from './report-table.js'
import type { metadata } from './resources.js'

/**
 * get_metadata with a filter: the entries of the property's metadata that match every filter
 * given (names, deprecated ones too; a category, any case; words of a search, all of them), each
 * whole, a page at a time. A name that is none of the property's is answered with the nearest
 * ones, a category it does not have with those it has.
 */

export type MetadataAnswer = z.output<typeof metadata>
export type Dimension = NonNullable<MetadataAnswer['dimensions']>[number]
type Metric = NonNullable<MetadataAnswer['metrics']>[number]

/** An entry whole, as a filtered answer gives it: the provider's fields, a type as tables write it. */
const entryFields = {
  apiName: z.string().describe('The name to use in reports.'),
  uiName: z.string().optional(),
  description: z.string().optional(),
  deprecatedApiNames: z.array(z.string()).optional().describe('Older names, still accepted.'),
}
export const dimensionEntry = z.strictObject({
  ...entryFields,
  customDefinition: z.boolean().optional().describe('A custom definition of this property.'),
  category: z.string().optional(),
})
export const metricEntry = z.strictObject({
  ...entryFields,
  type: z.string().describe('Its unit: integer, float, seconds, currency, ...'),
  expression: z.string().optional().describe('For a derived metric: how it is computed.'),
  customDefinition: z.boolean().optional().describe('A custom definition of this property.'),
  blockedReasons: z
    .array(z.string())
    .optional()
    .describe('Why reports show it as 0 to this person (NO_COST_METRICS, ...).'),
  category: z.string().optional(),
})

/** An entry's category; one the provider left out reads `(none)`. */
export const categoryOf = (entry: Dimension) => entry.category ?? '(none)'

/** Categories in the same order wherever they are listed. */
export const alphabetical = (a: string, b: string) => a.localeCompare(b, 'en')

type Found = { kind: 'dimensions'; entry: Dimension } | { kind: 'metrics'; entry: Metric }

/** The entries that match every filter given, whole, one page from `offset`. */
export function matchingEntries(
  answer: MetadataAnswer,
  args: MetadataFilters,
): Record<string, unknown> {
  const all: Found[] = [
    ...(answer.dimensions ?? []).map((entry) => ({ kind: 'dimensions' as const, entry })),
    ...(answer.metrics ?? []).map((entry) => ({ kind: 'metrics' as const, entry })),
  ]
  let found = all
  const table: Record<string, unknown> = {}
  if (args.names) {
    const asked = new Set(args.names)
    found = found.filter(({ entry }) => namesOf(entry).some((name) => asked.has(name)))
    const known = new Set(all.flatMap(({ entry }) => namesOf(entry)))
    const current = all.map(({ entry }) => entry.apiName)
    const missing = [...asked].filter((name) => !known.has(name))
    if (missing.length)
      table.notFound = Object.fromEntries(missing.map((name) => [name, nearest(name, current)]))
  }
  if (args.category !== undefined) {
    const wanted = args.category.trim().toLowerCase()
    const inCategory = ({ entry }: Found) => categoryOf(entry).toLowerCase() === wanted
    if (!all.some(inCategory))
      table.categories = [...new Set(all.map(({ entry }) => categoryOf(entry)))].sort(alphabetical)
    found = found.filter(inCategory)
  }
  if (args.search !== undefined) {
    const words = args.search.toLowerCase().split(/\s+/).filter(Boolean)
    found = found.filter(({ entry }) => {
      const text = [entry.apiName, entry.uiName, entry.description].join(' ').toLowerCase()
      return words.every((word) => text.includes(word))
    })
  }
  const offset = args.offset ?? 0
  const page = found.slice(offset, offset + METADATA_LIMITS.page)
  const next = offset + page.length
  return {
    matches: found.length,
    ...(next < found.length && { nextOffset: next }),
    ...table,
    dimensions: page.flatMap((f) => (f.kind === 'dimensions' ? [wholeDimension(f.entry)] : [])),
    metrics: page.flatMap((f) => (f.kind === 'metrics' ? [wholeMetric(f.entry)] : [])),
  }
}

const namesOf = (entry: Dimension) => [entry.apiName, ...(entry.deprecatedApiNames ?? [])]

/** An entry's fields that the output names, in the provider's order; a type as tables write it. */
const wholeDimension = (d: Dimension) => ({
  apiName: d.apiName,
  ...(d.uiName !== undefined && { uiName: d.uiName }),
  ...(d.description !== undefined && { description: d.description }),
  ...(d.deprecatedApiNames?.length && { deprecatedApiNames: d.deprecatedApiNames }),
  ...(d.customDefinition !== undefined && { customDefinition: d.customDefinition }),
  ...(d.category !== undefined && { category: d.category }),
})

const wholeMetric = (m: Metric) => {
  const { customDefinition, category, ...named } = wholeDimension(m)
  return {
    ...named,
    type: metricType(m.type),
    ...(m.expression !== undefined && { expression: m.expression }),
    ...(customDefinition !== undefined && { customDefinition }),
    ...(m.blockedReasons?.length && { blockedReasons: m.blockedReasons }),
    ...(category !== undefined && { category }),
  }
}
