import { z } from 'zod'
import { atMostCharacters, listed, requiredString } from '../inputs.js'
import { calendarDay } from '../timestamps.js'
import { isOnSite, siteCovers, siteUrlProblem, urlProblem } from './sites.js'

/**
 * The pieces the search tools' inputs are made of, with the real API's enums and limits. Every
 * message names the field and says what to send instead. No piece transforms its value: the
 * JSON Schema a model sees is exactly what validates, and the provider gets what was sent (an
 * empty optional list is none: emptyIsNone, where the tool takes it).
 */

/**
 * The provider's own default page is 1,000 rows, too many for a conversation (docs/design.md,
 * "Results sized for a model").
 */
export const ROW_LIMIT = { default: 100, max: 25_000 }
export const DIMENSIONS = [
  'query',
  'page',
  'country',
  'device',
  'searchAppearance',
  'date',
  'hour',
] as const
const FILTER_DIMENSIONS = ['query', 'page', 'country', 'device', 'searchAppearance'] as const
const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'includingRegex',
  'excludingRegex',
] as const
export const SEARCH_TYPES = ['web', 'image', 'video', 'news', 'discover', 'googleNews'] as const
export const AGGREGATIONS = ['auto', 'byPage', 'byProperty', 'byNewsShowcasePanel'] as const
export const DATA_STATES = ['final', 'all', 'hourly_all'] as const
const URL_MAX = 2048
const EXPRESSION_MAX = 4096

export const oneOf = <T extends string>(field: string, values: readonly [T, ...T[]]) =>
  z.enum(values, { error: `${field} must be one of ${listed(values)}` })

export const siteUrl = () =>
  atMostCharacters(
    requiredString(
      'siteUrl',
      'a site from list_sites, such as https://www.example.com/ or sc-domain:example.com',
    ),
    URL_MAX,
    `siteUrl must be at most ${URL_MAX} characters`,
  ).superRefine((value, ctx) => {
    const problem = siteUrlProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** A full http(s) URL; whether it is within the site is checked with the site (`onSiteCheck`). */
export const pageUrl = (field: string, what: string) =>
  atMostCharacters(
    requiredString(field, what),
    URL_MAX,
    `${field} must be at most ${URL_MAX} characters`,
  )
    .superRefine((value, ctx) => {
      const problem = urlProblem(field, value)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
    .meta({ format: 'uri' })

/** An object check: `field` must be a URL within the site the arguments name. */
export function onSiteCheck(field: string) {
  return (args: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const site = args.siteUrl as string
    const url = args[field]
    if (typeof url !== 'string' || isOnSite(site, url)) return
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: `${field} "${url.slice(0, 200)}" is not within the site ${site}, which holds ${siteCovers(site)}: give a URL of that site, or the site it belongs to`,
    })
  }
}

export const date = (field: string) =>
  requiredString(field, 'a date as YYYY-MM-DD')
    .refine((value) => calendarDay(value) !== undefined, {
      error: (issue) =>
        `${field} must be a real date as YYYY-MM-DD, such as 2026-03-31; got "${String(issue.input).slice(0, 40)}"`,
    })
    .meta({ format: 'date' })

/**
 * RE2 has no lookaround and no backreferences; the provider would refuse them. Anything else
 * (an unbalanced parenthesis, say) is the provider's to judge: its RE2 is the reference.
 */
function re2Problem(pattern: string): string | undefined {
  if (/\(\?[=!]|\(\?<[=!]/.test(pattern))
    return 'RE2 syntax has no lookahead or lookbehind ((?=, (?!, (?<=, (?<!): rewrite the pattern without it, or use excludingRegex'
  if (/\\[1-9]|\\k</.test(pattern))
    return 'RE2 syntax has no backreferences (\\1, \\k<name>): rewrite the pattern without them'
  return undefined
}

export const filter = z
  .strictObject(
    {
      dimension: oneOf('dimension', FILTER_DIMENSIONS).describe(
        'What to compare: query, page, country (ISO 3166-1 alpha-3, such as usa), device (DESKTOP, MOBILE, TABLET) or searchAppearance.',
      ),
      operator: oneOf('operator', OPERATORS)
        .optional()
        .describe(
          'equals (the default), notEquals, contains, notContains (these four ignore case), includingRegex or excludingRegex (RE2 syntax, found anywhere in the value; case-sensitive unless the pattern starts with (?i)).',
        ),
      expression: atMostCharacters(
        requiredString('expression', 'the value to compare with').min(1, {
          error: 'expression must not be empty: give the value to compare with',
        }),
        EXPRESSION_MAX,
        `expression must be at most ${EXPRESSION_MAX} characters`,
      ).describe('The value to compare with (a page as its full URL), or the regular expression.'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `a filter has dimension, operator and expression only: remove ${listed(issue.keys)}`
          : undefined,
    },
  )
  .superRefine((f, ctx) => {
    const regex = f.operator === 'includingRegex' || f.operator === 'excludingRegex'
    const problem =
      (regex && re2Problem(f.expression)) || (f.dimension === 'page' && pagePathProblem(f))
    if (problem) ctx.addIssue({ code: 'custom', path: ['expression'], message: problem })
  })

/**
 * A page compared as a path (`/blog/`), as the tables show a page under their pageOrigin, would
 * silently match nothing: the provider compares full URLs. Said with the fix instead.
 */
function pagePathProblem(f: { operator?: string; expression: string }): string | undefined {
  const whole = (f.operator ?? 'equals') === 'equals' || f.operator === 'notEquals'
  if (whole && f.expression.startsWith('/'))
    return `page values are full URLs: give pageOrigin followed by "${f.expression.slice(0, 100)}", such as https://www.example.com${f.expression.slice(0, 100)}, or use operator contains`
  if (/Regex$/.test(f.operator ?? '') && f.expression.startsWith('^/'))
    return 'page values are full URLs, so ^/ never matches: anchor the pattern on the whole URL (^https://www\\.example\\.com/blog/) or drop the ^'
  return undefined
}

export const filterGroup = z.strictObject(
  {
    groupType: z
      .literal('and', {
        error: 'groupType must be "and" (the only kind: every filter of the group must match)',
      })
      .optional()
      .describe('"and": every filter of the group must match. The only kind.'),
    filters: z
      .array(filter, { error: 'filters must be a list of filters' })
      .min(1, { error: 'filters must hold at least one filter' })
      .max(50, { error: 'a group holds at most 50 filters' }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `a filter group has groupType and filters only: remove ${listed(issue.keys)}`
        : undefined,
  },
)

export const rowLimit = () =>
  z
    .number({ error: `rowLimit must be a whole number from 1 to ${ROW_LIMIT.max}` })
    .int({ error: `rowLimit must be a whole number from 1 to ${ROW_LIMIT.max}` })
    .min(1, { error: 'rowLimit must be at least 1' })
    .max(ROW_LIMIT.max, {
      error: `rowLimit must be at most ${ROW_LIMIT.max}: page with startRow for more rows`,
    })

export const startRow = () =>
  z
    .number({ error: 'startRow must be a whole number, 0 or more' })
    .int({ error: 'startRow must be a whole number, 0 or more' })
    .min(0, { error: 'startRow must be 0 or more (it counts from 0)' })
    .max(2 ** 31 - 1, { error: 'startRow must be at most 2147483647' })
