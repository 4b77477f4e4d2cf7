import { APPEARANCES, COUNTRIES, DEVICES, type SiteCatalog } from './catalog.js'
import type { Filter, FilterDimension } from './request.js'

/**
 * Filters, turned into one "passes" flag per distinct value of each filtered dimension: a
 * filter is evaluated once per query text or page, never once per fact. Comparisons ignore
 * case, as the real API's do; regular expressions follow RE2 (case-sensitive unless `(?i)`).
 * A result without a search appearance passes the negative filters and fails the others.
 */

export type Masks = Partial<Record<FilterDimension, Uint8Array>>

/** The values a filtered dimension takes, by the code the fact table stores. */
function valuesOf(dimension: FilterDimension, catalog: SiteCatalog): readonly string[] {
  switch (dimension) {
    case 'query':
      return catalog.queries.map((q) => q.text)
    case 'page':
      return catalog.pages.map((p) => p.url)
    case 'country':
      return COUNTRIES
    case 'device':
      return DEVICES
    case 'searchAppearance':
      return APPEARANCES
  }
}

function passes(filter: Filter, value: string | undefined): boolean {
  const negative =
    filter.operator === 'notEquals' ||
    filter.operator === 'notContains' ||
    filter.operator === 'excludingRegex'
  if (value === undefined) return negative
  const expected = filter.expression.toLowerCase()
  switch (filter.operator) {
    case 'equals':
      return value.toLowerCase() === expected
    case 'notEquals':
      return value.toLowerCase() !== expected
    case 'contains':
      return value.toLowerCase().includes(expected)
    case 'notContains':
      return !value.toLowerCase().includes(expected)
    case 'includingRegex':
      return filter.matcher!(value)
    case 'excludingRegex':
      return !filter.matcher!(value)
  }
}

/**
 * One mask per filtered dimension: mask[code] is 1 when every filter on that dimension passes.
 * Appearance masks have one more slot, for results without an appearance.
 */
export function buildMasks(filters: readonly Filter[], catalog: SiteCatalog): Masks {
  const masks: Masks = {}
  for (const filter of filters) {
    const values = valuesOf(filter.dimension, catalog)
    const slots = filter.dimension === 'searchAppearance' ? values.length + 1 : values.length
    const mask = (masks[filter.dimension] ??= new Uint8Array(slots).fill(1))
    for (let code = 0; code < slots; code++)
      if (mask[code] && !passes(filter, values[code])) mask[code] = 0
  }
  return masks
}
