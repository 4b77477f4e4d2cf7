import { quotaExceededMessage, usageLimitError, type ProviderError } from '../http/errors.js'
import { pacificNow } from '../synthetic/calendar.js'
import type { QuotaLimits, QuotaName } from './quota-limits.js'

/**
 * Google's quotas on the number of requests (docs/sandbox.md, "Quotas"): Tasks' queries a day,
 * Search Console's and the Analytics Admin API's a minute and a day. Counted per running sandbox,
 * in memory (`POST /_sandbox/reset` empties them), in fixed windows: the minute, and the day in
 * Pacific time, as Google resets daily quotas at midnight Pacific time. A request that finds one
 * of its quotas spent is refused before it runs and charges none of them.
 */

/** Who a quota is counted for: a project is the OAuth client the access token was issued to. */
type QuotaHolder = 'project' | 'user' | 'site'

interface RequestQuota {
  window: 'minute' | 'day'
  holder: QuotaHolder
  service: string
  /** The quota metric and the limit, as Google's message names them. */
  metric: string
  limit: string
}

const SEARCH_CONSOLE = 'searchconsole.googleapis.com'
const ADMIN = 'analyticsadmin.googleapis.com'
const TASKS = 'tasks.googleapis.com'

const search = (window: RequestQuota['window'], holder: QuotaHolder, metric: string) => ({
  window,
  holder,
  service: SEARCH_CONSOLE,
  metric,
  limit: `${metric} per ${window} per ${holder}`,
})

const REQUEST_QUOTAS = {
  tasksQueriesPerDay: {
    window: 'day',
    holder: 'project',
    service: TASKS,
    metric: 'Queries',
    limit: 'Queries per day',
  },
  searchAnalyticsQueriesPerMinutePerSite: search('minute', 'site', 'Search Analytics queries'),
  searchAnalyticsQueriesPerMinutePerUser: search('minute', 'user', 'Search Analytics queries'),
  searchAnalyticsQueriesPerMinutePerProject: search(
    'minute',
    'project',
    'Search Analytics queries',
  ),
  searchAnalyticsQueriesPerDayPerProject: search('day', 'project', 'Search Analytics queries'),
  urlInspectionsPerMinutePerSite: search('minute', 'site', 'URL Inspection queries'),
  urlInspectionsPerDayPerSite: search('day', 'site', 'URL Inspection queries'),
  urlInspectionsPerMinutePerProject: search('minute', 'project', 'URL Inspection queries'),
  urlInspectionsPerDayPerProject: search('day', 'project', 'URL Inspection queries'),
  searchConsoleOtherQueriesPerMinutePerUser: search('minute', 'user', 'Queries'),
  searchConsoleOtherQueriesPerDayPerProject: search('day', 'project', 'Queries'),
  analyticsAdminRequestsPerMinutePerProject: {
    window: 'minute',
    holder: 'project',
    service: ADMIN,
    metric: 'Requests',
    limit: 'Requests per minute',
  },
  analyticsAdminRequestsPerMinutePerUser: {
    window: 'minute',
    holder: 'user',
    service: ADMIN,
    metric: 'Requests',
    limit: 'Requests per minute per user',
  },
} as const satisfies Partial<Record<QuotaName, RequestQuota>>

export type RequestQuotaName = keyof typeof REQUEST_QUOTAS

/** The callers a request is counted for. */
export interface Caller {
  /** The OAuth client the access token was issued to. */
  client: string
  user: string
  /** The site a Search Console request is about, if any. */
  site?: string
}

/**
 * Google's refusal once a quota is spent. Tasks, an Apiary-era API, says a spent daily quota
 * with 403 `dailyLimitExceeded`; Search Console and the Admin API say 429 RESOURCE_EXHAUSTED,
 * `rateLimitExceeded` for a minute's limit and `quotaExceeded` for a day's.
 */
function refusal(name: RequestQuotaName): ProviderError {
  const quota: RequestQuota = REQUEST_QUOTAS[name]
  if (quota.service === TASKS)
    return usageLimitError(
      403,
      'dailyLimitExceeded',
      `Daily Limit Exceeded. The quota will be reset at midnight Pacific Time (PT). You may monitor your quota usage and adjust limits in the API Console: https://console.developers.google.com/apis/api/${TASKS}/quotas?project=0`,
      TASKS,
      'RATE_LIMIT_EXCEEDED',
    )
  return usageLimitError(
    429,
    quota.window === 'minute' ? 'rateLimitExceeded' : 'quotaExceeded',
    quotaExceededMessage(quota.metric, quota.limit, quota.service),
    quota.service,
    'RATE_LIMIT_EXCEEDED',
  )
}

const MAX_COUNTERS = 100_000

export class RequestQuotas {
  /** Per quota and holder: the window counted and the requests in it. */
  readonly #counts = new Map<string, { window: number; count: number }>()
  readonly #limits: QuotaLimits
  #day: { minute: number; day: number } | undefined

  constructor(limits: QuotaLimits) {
    this.#limits = limits
  }

  /**
   * Charges one request to each of `quotas` for `caller`, or refuses it, charging none, when one
   * is spent: a day's quota first, the longer wait.
   */
  spend(quotas: readonly RequestQuotaName[], caller: Caller, now: number): void {
    const minute = Math.floor(now / 60_000)
    const counters = quotas.map((name) => {
      const quota: RequestQuota = REQUEST_QUOTAS[name]
      const window = quota.window === 'minute' ? minute : this.#dayOf(minute, now)
      const key = `${name}\u0000${holderOf(quota.holder, caller)}`
      const entry = this.#counts.get(key)
      return { name, quota, key, window, used: entry?.window === window ? entry.count : 0 }
    })
    const limits = this.#limits.current
    const spent = counters
      .filter((c) => c.used + 1 > limits[c.name])
      .sort((a, b) => (a.quota.window === b.quota.window ? 0 : a.quota.window === 'day' ? -1 : 1))
    if (spent[0]) throw refusal(spent[0].name)
    for (const { key, window, used } of counters) {
      if (!this.#counts.has(key) && this.#counts.size >= MAX_COUNTERS)
        this.#counts.delete(this.#counts.keys().next().value!)
      this.#counts.set(key, { window, count: used + 1 })
    }
  }

  clear(): void {
    this.#counts.clear()
  }

  /**
   * The Pacific day, read once a minute: every task request needs it, and a time zone's midnight
   * falls on a whole minute, so the day cannot change within one.
   */
  #dayOf(minute: number, now: number): number {
    if (this.#day?.minute !== minute) this.#day = { minute, day: pacificNow(now).day }
    return this.#day.day
  }
}

/** A user's quota is theirs within the project; a site's is the site's, whoever asks. */
function holderOf(holder: QuotaHolder, caller: Caller): string {
  switch (holder) {
    case 'project':
      return caller.client
    case 'user':
      return `${caller.client}\u0000${caller.user}`
    case 'site':
      return caller.site ?? ''
  }
}
