import { z } from 'zod'
import { atMostCharacters } from '../inputs.js'
import { apiName, offset } from './inputs.js'

/**
 * get_metadata's filters: the connector's own, read from the property's whole metadata (the
 * provider takes no filter). Without one, the answer is every name in compact tables; with one,
 * the entries that match all of those given, whole, a page at a time.
 */

export const METADATA_LIMITS = {
  /** Entries of a filtered answer a page; also the most names one call asks for. */
  page: 50,
  text: 100,
} as const

/** None (`[]` too) is no filter by name. */
export const names = () =>
  z
    .array(apiName('dimension or metric'), {
      error: 'names is a list of apiNames, such as ["sessions", "country"]',
    })
    .max(METADATA_LIMITS.page, {
      error: `at most ${METADATA_LIMITS.page} names in one call: split them over several calls`,
    })
    .describe(
      `Up to ${METADATA_LIMITS.page} apiNames (deprecated ones too), such as ["sessions", "country"].`,
    )

const text = (field: string, example: string) =>
  atMostCharacters(
    z
      .string({ error: `${field} is a string, such as ${example}` })
      .regex(/\S/, { error: `${field} must not be empty: leave it out for every name` }),
    METADATA_LIMITS.text,
    `${field} is at most ${METADATA_LIMITS.text} characters`,
  )

export const category = () =>
  text('category', '"Page / Screen"').describe(
    'One of the property’s categories, as the answer without a filter groups them, such as "Page / Screen" (any case).',
  )

export const search = () =>
  text('search', '"bounce rate"').describe(
    'Words that all appear in an entry’s apiName, uiName or description, any case, such as "bounce rate".',
  )

export const entryOffset = () =>
  offset().describe('With a filter: the first entry to return, from 0: nextOffset for the next.')

export interface MetadataFilters {
  names?: readonly string[]
  category?: string
  search?: string
  offset?: number
}

/** Whether any filter is given: the answer is then the matching entries whole. */
export const filtered = (args: MetadataFilters) =>
  args.names !== undefined || args.category !== undefined || args.search !== undefined

/** offset pages the entries of a filter: alone, it pages nothing. */
export function checkMetadataFilters(args: MetadataFilters, ctx: z.RefinementCtx) {
  if (args.offset !== undefined && !filtered(args))
    ctx.addIssue({
      code: 'custom',
      path: ['offset'],
      message:
        'offset pages the entries of names, category or search: give one of them, or leave offset out',
    })
}
