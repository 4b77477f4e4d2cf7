import type { ServiceName, SharedQuotaName } from '../config/config.js'

/**
 * Which of the project's daily quotas each tool call spends (docs/operations.md, "Fair shares of
 * the provider's quotas"). Google counts Tasks as one quota, and Search Console as three: search
 * analytics, URL inspection, and the rest (sites, sitemaps). Analytics has none shared here: a
 * GA4 property's tokens are the property's own, and its owner's to spend.
 */

interface SharedQuota {
  service: ServiceName
  /** Its tools; unset, every tool of the service that no other quota names. */
  tools?: readonly string[]
  /** What it counts, as the model and the log read it. */
  counts: string
}

export const SHARED_QUOTAS: Readonly<Record<SharedQuotaName, SharedQuota>> = {
  tasksQueriesPerDay: { service: 'tasks', counts: 'Tasks queries' },
  searchAnalyticsQueriesPerDay: {
    service: 'search',
    tools: ['query_search_analytics'],
    counts: 'search analytics queries',
  },
  urlInspectionsPerDay: { service: 'search', tools: ['inspect_url'], counts: 'URL inspections' },
  searchConsoleQueriesPerDay: { service: 'search', counts: 'Search Console queries' },
}

const NAMES = Object.keys(SHARED_QUOTAS) as SharedQuotaName[]

/** A quota as a label of the metrics and a field of the log: `tasks_queries_per_day`, ... */
export const quotaLabel = (name: SharedQuotaName) =>
  name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/** The quota a call of `tool` spends, or undefined when none is shared out. */
export function quotaOf(service: ServiceName, tool: string): SharedQuotaName | undefined {
  const ofService = NAMES.filter((name) => SHARED_QUOTAS[name].service === service)
  return (
    ofService.find((name) => SHARED_QUOTAS[name].tools?.includes(tool)) ??
    ofService.find((name) => SHARED_QUOTAS[name].tools === undefined)
  )
}
