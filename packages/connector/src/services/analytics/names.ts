import { distance } from 'fastest-levenshtein'
import type { ProviderReader } from '../definition.js'
import { Recent } from '../recent.js'
import { filtersOf, type FilterExpression } from './filters.js'

/**
 * The preflight of the report tools: every dimension and metric name is checked against what
 * the property offers before the report is asked for, and an unknown one is named with the
 * nearest valid names (`"sesions" is not a metric of property 123; did you mean "sessions"?`).
 *
 * A deprecated name (`deprecatedApiNames`, such as `countryIsoCode` for `countryId`) passes, as the
 * provider still answers it; the nearest names suggested are current ones only.
 *
 * The property's names come from its metadata, kept in memory for a few minutes so that a
 * report costs one upstream call when warm. The cache is shared by every grant; it is only ever
 * used to let names through. Before refusing a name on cached metadata, the metadata is read
 * again as this grant: so a refusal, and the names it suggests, never come from what another
 * person's grant read (and a custom dimension added since is found).
 */

interface PropertyNames {
  dimensions: readonly string[]
  metrics: readonly string[]
  /** The deprecated names the provider still accepts, by kind. */
  deprecated?: { dimensions: readonly string[]; metrics: readonly string[] }
}

type Entry = { apiName?: unknown; deprecatedApiNames?: unknown }

const cache = new Recent<PropertyNames>(5 * 60_000, 500)

async function readNames(provider: ProviderReader, propertiesId: string) {
  const body = (await provider.get('get_metadata', { propertiesId })) as Record<string, unknown>
  const entries = (key: string) =>
    Array.isArray(body?.[key]) ? (body[key] as (Entry | null)[]) : undefined
  const dimensions = entries('dimensions')
  const metrics = entries('metrics')
  if (!dimensions || !metrics) return undefined
  const names: PropertyNames = {
    dimensions: strings(dimensions.map((item) => item?.apiName)),
    metrics: strings(metrics.map((item) => item?.apiName)),
    deprecated: {
      dimensions: strings(dimensions.flatMap((item) => listOf(item?.deprecatedApiNames))),
      metrics: strings(metrics.flatMap((item) => listOf(item?.deprecatedApiNames))),
    },
  }
  cache.set(propertiesId, names)
  return names
}

const strings = (values: unknown[]) =>
  values.filter((value): value is string => typeof value === 'string')
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** For tests: forget what was read. */
export const forgetMetadata = () => cache.clear()

interface NamedFields {
  dimensions?: { name: string }[]
  metrics?: { name: string }[]
  dimensionFilter?: FilterExpression
  metricFilter?: FilterExpression
}

/**
 * The unknown names of some reports of one property, in words; undefined when all are known.
 * `prefixes` label each report (`requests[1]: `) when there are several.
 */
export async function checkNames(
  provider: ProviderReader,
  propertiesId: string,
  reports: readonly NamedFields[],
  prefixes: readonly string[] = [''],
): Promise<string | undefined> {
  let names = cache.get(propertiesId)
  const fresh = !names
  names ??= await readNames(provider, propertiesId)
  // Metadata of an unexpected shape: let the provider judge the names.
  if (!names) return undefined
  let problems = unknownNames(names, reports, prefixes, `property ${propertiesId}`)
  if (problems.length && !fresh) {
    names = await readNames(provider, propertiesId)
    if (!names) return undefined
    problems = unknownNames(names, reports, prefixes, `property ${propertiesId}`)
  }
  if (!problems.length) return undefined
  return `${sentences(problems)} Call get_metadata for all of the property's dimensions and metrics.`
}

/** The same check against a fixed set (realtime reports), with no upstream call. */
export function checkFixedNames(names: PropertyNames, report: NamedFields, what: string) {
  const problems = unknownNames(names, [report], [''], what)
  return problems.length ? sentences(problems) : undefined
}

const KINDS = ['dimensions', 'metrics'] as const
const KINDS_REVERSED = ['metrics', 'dimensions'] as const

/** Whether a report may use `name` as one of `kind`: a current name or a deprecated one. */
const accepts = (names: PropertyNames, kind: (typeof KINDS)[number], name: string) =>
  names[kind].includes(name) || (names.deprecated?.[kind].includes(name) ?? false)

/** Problems as one text: `a; b.`, or `a; b?` when the last one asks. */
const sentences = (problems: string[]) => {
  const text = problems.join('; ')
  return text.endsWith('?') ? text : `${text}.`
}

function unknownNames(
  names: PropertyNames,
  reports: readonly NamedFields[],
  prefixes: readonly string[],
  of: string,
): string[] {
  const problems: string[] = []
  reports.forEach((report, i) => {
    const prefix = prefixes[i] ?? ''
    const check = (name: string, kind: 'dimension' | 'metric', where: string) => {
      const [own, other] = kind === 'dimension' ? KINDS : KINDS_REVERSED
      if (accepts(names, own, name)) return
      let problem = `${prefix}"${name}"${where} is not a ${kind} of ${of}`
      const near = nearest(name, names[own])
      if (accepts(names, other, name))
        problem += `; it is a ${kind === 'dimension' ? 'metric' : 'dimension'}: ${
          where
            ? `filter it in ${kind === 'dimension' ? 'metricFilter' : 'dimensionFilter'}`
            : `move it to ${kind === 'dimension' ? 'metrics' : 'dimensions'}`
        }`
      else if (near.length) problem += `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?`
      problems.push(problem)
    }
    for (const { name } of report.dimensions ?? []) check(name, 'dimension', '')
    for (const { name } of report.metrics ?? []) check(name, 'metric', '')
    for (const { filter } of filtersOf(report.dimensionFilter))
      check(filter.fieldName, 'dimension', ' in dimensionFilter')
    for (const { filter } of filtersOf(report.metricFilter))
      check(filter.fieldName, 'metric', ' in metricFilter')
  })
  return problems
}

/**
 * Up to three valid names near a wrong one: the same but for case, a few edits away (about one
 * in three characters), or containing it (`pageviews` -> `screenPageViews`).
 */
export function nearest(name: string, candidates: readonly string[]): string[] {
  const lower = name.toLowerCase()
  const sameButCase = candidates.find((candidate) => candidate.toLowerCase() === lower)
  if (sameButCase) return [sameButCase]
  const scored: { candidate: string; score: number }[] = []
  for (const candidate of candidates) {
    const other = candidate.toLowerCase()
    const edits = distance(lower, other)
    if (edits <= Math.max(2, Math.floor(name.length / 3))) scored.push({ candidate, score: edits })
    else if (lower.length >= 4 && (other.includes(lower) || lower.includes(other)))
      scored.push({ candidate, score: 100 + Math.abs(other.length - lower.length) })
  }
  return scored
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map((s) => s.candidate)
}
