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

/** Each tool's quota, found once: the upstream client asks on every request. */
const byTool = new Map<string, SharedQuotaName | undefined>()

/** The quota a call of `tool` spends, or undefined when none is shared out. */
export function quotaOf(service: ServiceName, tool: string): SharedQuotaName | undefined {
  const key = `${service}/${tool}`
  if (byTool.has(key)) return byTool.get(key)
  const ofService = NAMES.filter((name) => SHARED_QUOTAS[name].service === service)
  const quota =
    ofService.find((name) => SHARED_QUOTAS[name].tools?.includes(tool)) ??
    ofService.find((name) => SHARED_QUOTAS[name].tools === undefined)
  // Tools and reads are a fixed set, named by the definitions, never by a request.
  byTool.set(key, quota)
  return quota
}

/** The quota's name as a metric label and a log field: `tasks_queries_per_day`. */
export { quotaLabel } from '../metrics/labels.js'
