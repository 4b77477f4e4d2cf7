import { z } from 'zod'
import {
  alphabetical,
  categoryOf,
  dimensionEntry,
  matchingEntries,
  metricEntry,
  type Dimension,
  type MetadataAnswer,
} from './metadata-entries.js'
import { filtered, METADATA_LIMITS, type MetadataFilters } from './metadata-inputs.js'
import { metricType } from './report-table.js'

/**
 * A property's metadata as a model reads it. The provider's answer is large (a real property
 * lists about 470 entries, some 24,000 tokens), mostly descriptions, so without a filter the
 * answer is an index of every name: compact tables by category (columns once, each row an
 * array), the UI name only where it says more than the API name, the property's custom
 * definitions and blocked metrics named. With a filter (names, category, search) it is the
 * matching entries whole, a page at a time. The measures behind it are in docs/decisions.md,
 * "get_metadata sized for a model".
 */

const COLUMNS = { dimensions: ['apiName', 'uiName'], metrics: ['apiName', 'type', 'uiName'] }

const MORE = `Each entry whole (description, deprecated names, expression): call again with names (up to ${METADATA_LIMITS.page}), category or search.`

/** Without a filter, rows by category; with one, the entries of this page, whole. */
const listed = (entry: z.ZodType, what: string) =>
  z
    .union([z.record(z.string(), z.array(z.array(z.string()))), z.array(entry)])
    .describe(
      `Without a filter: the ${what} by category, as rows; with one: the ${what} of this page, whole.`,
    )

export const metadataTable = z
  .strictObject({
    columns: z
      .strictObject({ dimensions: z.array(z.string()), metrics: z.array(z.string()) })
      .optional()
      .describe('Without a filter: the columns of each row; uiName only where it says more.'),
    custom: z
      .array(z.string())
      .optional()
      .describe('Without a filter: the property’s custom definitions, by apiName.'),
    blocked: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe(
        'Without a filter: the metrics reports show as 0 to this person, by reason (NO_COST_METRICS, ...).',
      ),
    more: z.string().optional().describe('Without a filter: how to get entries whole.'),
    matches: z.number().int().optional().describe('With a filter: the entries that match.'),
    nextOffset: z
      .number()
      .int()
      .optional()
      .describe('The offset of the next page; absent on the last one.'),
    notFound: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe('Names that are none of the property’s, each with the nearest ones.'),
    categories: z
      .array(z.string())
      .optional()
      .describe('When category is none of the property’s: its categories.'),
    dimensions: listed(dimensionEntry, 'dimensions'),
    metrics: listed(metricEntry, 'metrics'),
  })
  .describe(
    'Without a filter, every name as compact tables by category; with one, the matching entries whole.',
  )

/** get_metadata's result from the provider's answer. */
export function metadataTableOf(
  answer: MetadataAnswer,
  args: MetadataFilters,
): Record<string, unknown> {
  return filtered(args) ? matchingEntries(answer, args) : metadataIndex(answer)
}

/** Every name, by category; the rows of each category in the provider's order. */
function metadataIndex(answer: MetadataAnswer): Record<string, unknown> {
  const dimensions = answer.dimensions ?? []
  const metrics = answer.metrics ?? []
  const custom = [...dimensions, ...metrics].filter((e) => e.customDefinition).map((e) => e.apiName)
  const blocked: Record<string, string[]> = {}
  for (const metric of metrics)
    for (const reason of metric.blockedReasons ?? []) (blocked[reason] ??= []).push(metric.apiName)
  return {
    columns: COLUMNS,
    ...(custom.length && { custom }),
    ...(Object.keys(blocked).length && { blocked }),
    more: MORE,
    dimensions: grouped(dimensions, (d) => withUiName([d.apiName], d)),
    metrics: grouped(metrics, (m) => withUiName([m.apiName, metricType(m.type)], m)),
  }
}

/** Rows by category, the categories in alphabetical order. */
function grouped<Entry extends Dimension>(list: readonly Entry[], row: (entry: Entry) => string[]) {
  const groups = new Map<string, string[][]>()
  for (const entry of list) {
    const category = categoryOf(entry)
    const rows = groups.get(category) ?? []
    if (!rows.length) groups.set(category, rows)
    rows.push(row(entry))
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => alphabetical(a, b)))
}

/**
 * The row with the UI name last, unless it merely re-spells the API name (`Session source /
 * medium` for sessionSourceMedium): about nine in ten do, and leaving them out is what brings a
 * real property's index under its budget. Those kept say something: `Views` for screenPageViews.
 */
function withUiName(row: string[], entry: Dimension): string[] {
  const { apiName, uiName } = entry
  return uiName && letters(uiName) !== letters(apiName) ? [...row, uiName] : row
}

const letters = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')
