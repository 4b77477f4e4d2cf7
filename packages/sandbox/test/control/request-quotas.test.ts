import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { GOOGLE_DEFAULTS, setQuotas, type QuotaName } from '../support/quotas.js'
import { sandboxForSuite, type ApiResponse } from '../support/sandbox.js'

/**
 * Google's quotas on requests (docs/sandbox.md, "Quotas"): Tasks' queries a day per project,
 * Search Console's per minute and per day, the Admin API's per minute. Each set low is reached;
 * the refusal is Google's, in both dialects; a refused request is neither charged nor run; the
 * other project, user or site keeps its own count.
 */

const sandbox = sandboxForSuite()
const enc = encodeURIComponent

type Dialect = 'generic' | 'google'
type Holder = 'project' | 'user' | 'site'

/** One caller: a project (OAuth client), a user of it, and one of the user's two sites. */
interface Caller {
  client: string
  user: string
  site: 'prefix' | 'domain'
}

interface Surface {
  scopes: string[]
  /** The request, in the dialect; `broken` makes it one the API would refuse as invalid. */
  request(
    dialect: Dialect,
    site: string,
    broken: boolean,
  ): { method: string; path: string; body?: unknown }
  /** Whether `errors[]` is in Google's body (the Apiary-era APIs). */
  googleErrorList: boolean
  service: string
}

const DATES = { startDate: '2026-01-01', endDate: '2026-01-31' }

const SURFACES = {
  tasks: {
    scopes: ['tasks'],
    request: (dialect, _site, broken) => ({
      method: 'GET',
      path: `${dialect === 'google' ? '/tasks/v1/users/@me/lists' : '/tasks/v1/lists'}${broken ? '?maxResults=x' : ''}`,
    }),
    googleErrorList: true,
    service: 'tasks.googleapis.com',
  },
  searchAnalytics: {
    scopes: ['webmasters.readonly'],
    request: (dialect, site, broken) => ({
      method: 'POST',
      path:
        dialect === 'google'
          ? `/webmasters/v3/sites/${enc(site)}/searchAnalytics/query`
          : `/search/v1/sites/${enc(site)}/search-analytics`,
      body: broken ? { startDate: 'yesterday' } : DATES,
    }),
    googleErrorList: true,
    service: 'searchconsole.googleapis.com',
  },
  urlInspection: {
    scopes: ['webmasters.readonly'],
    request: (dialect, site) => ({
      method: 'POST',
      path: dialect === 'google' ? '/v1/urlInspection/index:inspect' : '/search/v1/inspect-url',
      body: {
        siteUrl: site,
        inspectionUrl: site.startsWith('sc-domain:')
          ? `https://${site.slice('sc-domain:'.length)}/`
          : site,
      },
    }),
    googleErrorList: false,
    service: 'searchconsole.googleapis.com',
  },
  sites: {
    scopes: ['webmasters.readonly'],
    request: (dialect, _site, broken) => ({
      method: 'GET',
      path: `${dialect === 'google' ? '/webmasters/v3/sites' : '/search/v1/sites'}${broken ? '?unknown=1' : ''}`,
    }),
    googleErrorList: true,
    service: 'searchconsole.googleapis.com',
  },
  accountSummaries: {
    scopes: ['analytics.readonly'],
    request: (dialect, _site, broken) => ({
      method: 'GET',
      path: `${dialect === 'google' ? '/v1beta/accountSummaries' : '/analytics/v1/accountSummaries'}${broken ? '?pageSize=x' : ''}`,
    }),
    googleErrorList: false,
    service: 'analyticsadmin.googleapis.com',
  },
} satisfies Record<string, Surface>

const SEARCH_CONSOLE = 'searchconsole.googleapis.com'
const quotaMessage = (metric: string, limit: string, service = SEARCH_CONSOLE) =>
  `Quota exceeded for quota metric '${metric}' and limit '${limit}' of service '${service}' for consumer 'project_number:0'.`

interface Case {
  quota: Exclude<QuotaName, 'analyticsTokensPerDay' | 'analyticsTokensPerHour'>
  surface: keyof typeof SURFACES
  holder: Holder
  code: 403 | 429
  reason: string
  message: string
}

const search = (
  quota: Case['quota'],
  surface: Case['surface'],
  holder: Holder,
  period: 'minute' | 'day',
  metric: string,
): Case => ({
  quota,
  surface,
  holder,
  code: 429,
  reason: period === 'minute' ? 'rateLimitExceeded' : 'quotaExceeded',
  message: quotaMessage(metric, `${metric} per ${period} per ${holder}`),
})

const CASES: Case[] = [
  {
    quota: 'tasksQueriesPerDay',
    surface: 'tasks',
    holder: 'project',
    code: 403,
    reason: 'dailyLimitExceeded',
    message:
      'Daily Limit Exceeded. The quota will be reset at midnight Pacific Time (PT). You may monitor your quota usage and adjust limits in the API Console: https://console.developers.google.com/apis/api/tasks.googleapis.com/quotas?project=0',
  },
  search(
    'searchAnalyticsQueriesPerMinutePerSite',
    'searchAnalytics',
    'site',
    'minute',
    'Search Analytics queries',
  ),
  search(
    'searchAnalyticsQueriesPerMinutePerUser',
    'searchAnalytics',
    'user',
    'minute',
    'Search Analytics queries',
  ),
  search(
    'searchAnalyticsQueriesPerMinutePerProject',
    'searchAnalytics',
    'project',
    'minute',
    'Search Analytics queries',
  ),
  search(
    'searchAnalyticsQueriesPerDayPerProject',
    'searchAnalytics',
    'project',
    'day',
    'Search Analytics queries',
  ),
  search(
    'urlInspectionsPerMinutePerSite',
    'urlInspection',
    'site',
    'minute',
    'URL Inspection queries',
  ),
  search('urlInspectionsPerDayPerSite', 'urlInspection', 'site', 'day', 'URL Inspection queries'),
  search(
    'urlInspectionsPerMinutePerProject',
    'urlInspection',
    'project',
    'minute',
    'URL Inspection queries',
  ),
  search(
    'urlInspectionsPerDayPerProject',
    'urlInspection',
    'project',
    'day',
    'URL Inspection queries',
  ),
  search('searchConsoleOtherQueriesPerMinutePerUser', 'sites', 'user', 'minute', 'Queries'),
  search('searchConsoleOtherQueriesPerDayPerProject', 'sites', 'project', 'day', 'Queries'),
  {
    quota: 'analyticsAdminRequestsPerMinutePerProject',
    surface: 'accountSummaries',
    holder: 'project',
    code: 429,
    reason: 'rateLimitExceeded',
    message: quotaMessage('Requests', 'Requests per minute', 'analyticsadmin.googleapis.com'),
  },
  {
    quota: 'analyticsAdminRequestsPerMinutePerUser',
    surface: 'accountSummaries',
    holder: 'user',
    code: 429,
    reason: 'rateLimitExceeded',
    message: quotaMessage(
      'Requests',
      'Requests per minute per user',
      'analyticsadmin.googleapis.com',
    ),
  },
]

let made = 0
const tokens = new Map<string, string>()

/** Calls `surface` as `caller` in `dialect`; tokens are made once per client and user. */
async function call(
  surface: keyof typeof SURFACES,
  caller: Caller,
  dialect: Dialect,
  broken = false,
): Promise<ApiResponse> {
  const { scopes, request }: Surface = SURFACES[surface]
  const key = `${caller.client} ${caller.user} ${scopes.join(' ')}`
  let token = tokens.get(key)
  if (!token) {
    token = await sandbox.token(caller.user, scopes, {
      client: caller.client,
      // A day long: the tests move the clock past midnight.
      expires_in: 86_400,
    })
    tokens.set(key, token)
  }
  const site =
    caller.site === 'prefix'
      ? `https://www.${caller.user}.example/`
      : `sc-domain:${caller.user}.example`
  const { method, path, body } = request(dialect, site, broken)
  const send = dialect === 'google' ? sandbox.googleRequest : sandbox.request
  return send(method, path, { token, body })
}

/** Google's body for the refusal, in the dialect. */
function refusalBody(c: Case, dialect: Dialect) {
  const { service, googleErrorList } = SURFACES[c.surface]
  return {
    error: {
      code: c.code,
      message: c.message,
      status: c.code === 429 ? 'RESOURCE_EXHAUSTED' : 'PERMISSION_DENIED',
      ...((dialect === 'generic' || googleErrorList) && {
        errors: [{ reason: c.reason, message: c.message, domain: 'usageLimits' }],
      }),
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'RATE_LIMIT_EXCEEDED',
          domain: 'googleapis.com',
          metadata: { service, consumer: 'projects/0' },
        },
      ],
    },
  }
}

/** Another caller that shares none of `caller`'s holder of the quota, but all the rest. */
function another(caller: Caller, holder: Holder): Caller {
  switch (holder) {
    case 'project':
      return { ...caller, client: `${caller.client}-other` }
    case 'user':
      return { ...caller, user: `${caller.user}-other` }
    case 'site':
      return { ...caller, site: caller.site === 'prefix' ? 'domain' : 'prefix' }
  }
}

describe.each(['generic', 'google'] as const)('Google’s quotas on requests, at %s', (dialect) => {
  // The clock (Date only) stands mid-minute: no minute or Pacific day turns during a test.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-04-01T12:30:30Z'))
  })
  afterEach(async () => {
    vi.useRealTimers()
    expect((await setQuotas(sandbox, GOOGLE_DEFAULTS)).status).toBe(200)
  })

  it.each(CASES)(
    '$quota: reached, refused as Google does ($code $reason), for nothing, for its $holder only',
    async (c) => {
      const caller: Caller = { client: `project-${++made}`, user: `quota${made}`, site: 'prefix' }
      expect((await setQuotas(sandbox, { [c.quota]: 1 })).status).toBe(200)
      const first = await call(c.surface, caller, dialect)
      expect(first.status, first.text).toBe(200)
      const refused = await call(c.surface, caller, dialect)
      expect(refused.status, refused.text).toBe(c.code)
      expect(refused.body).toEqual(refusalBody(c, dialect))
      // Refused before it runs: on the surfaces that can break their request (all but URL
      // inspection, which reads its body to find its site before it is charged), a request the
      // API would find invalid is not even read.
      const unread = await call(c.surface, caller, dialect, true)
      expect(unread.status, unread.text).toBe(c.code)
      // The other holder's count is its own.
      const other = await call(c.surface, another(caller, c.holder), dialect)
      expect(other.status, other.text).toBe(200)
      // Nothing was charged for the refusals: one more is allowed, then refused again.
      expect((await setQuotas(sandbox, { [c.quota]: 2 })).status).toBe(200)
      expect((await call(c.surface, caller, dialect)).status).toBe(200)
      expect((await call(c.surface, caller, dialect)).status).toBe(c.code)
    },
  )

  it('a minute’s quota comes back the next minute; a day’s at midnight Pacific time', async () => {
    const caller: Caller = { client: `project-${++made}`, user: `quota${made}`, site: 'prefix' }
    await setQuotas(sandbox, {
      searchConsoleOtherQueriesPerMinutePerUser: 1,
      tasksQueriesPerDay: 1,
    })
    expect((await call('sites', caller, dialect)).status).toBe(200)
    expect((await call('sites', caller, dialect)).status).toBe(429)
    expect((await call('tasks', caller, dialect)).status).toBe(200)
    expect((await call('tasks', caller, dialect)).status).toBe(403)
    vi.setSystemTime(new Date('2026-04-01T12:31:00Z'))
    expect((await call('sites', caller, dialect)).status).toBe(200)
    // 07:00 UTC is midnight in Los Angeles in April (PDT); 06:59 is still the same day.
    vi.setSystemTime(new Date('2026-04-02T06:59:59Z'))
    expect((await call('tasks', caller, dialect)).status).toBe(403)
    vi.setSystemTime(new Date('2026-04-02T07:00:00Z'))
    expect((await call('tasks', caller, dialect)).status).toBe(200)
  })

  it('a day’s quota spent is said before a minute’s, the longer wait', async () => {
    const caller: Caller = { client: `project-${++made}`, user: `quota${made}`, site: 'prefix' }
    await setQuotas(sandbox, {
      searchAnalyticsQueriesPerMinutePerSite: 1,
      searchAnalyticsQueriesPerDayPerProject: 1,
    })
    expect((await call('searchAnalytics', caller, dialect)).status).toBe(200)
    const refused = await call('searchAnalytics', caller, dialect)
    expect(refused.status).toBe(429)
    expect(refused.body.error.message).toMatch(/per day per project/)
  })
})

describe('the control API over the quotas on requests', () => {
  afterEach(async () => {
    expect((await setQuotas(sandbox, GOOGLE_DEFAULTS)).status).toBe(200)
  })

  it('GET answers Google’s defaults for every quota; POST sets some, keeps the others', async () => {
    expect((await sandbox.request('GET', '/_sandbox/quotas')).body).toEqual(GOOGLE_DEFAULTS)
    const set = await setQuotas(sandbox, { tasksQueriesPerDay: 3, urlInspectionsPerDayPerSite: 0 })
    expect(set.body).toEqual({
      ...GOOGLE_DEFAULTS,
      tasksQueriesPerDay: 3,
      urlInspectionsPerDayPerSite: 0,
    })
  })

  it('POST /_sandbox/reset brings back Google’s limits and empties the counts', async () => {
    const caller: Caller = { client: `project-${++made}`, user: `quota${made}`, site: 'prefix' }
    await setQuotas(sandbox, { tasksQueriesPerDay: 1 })
    expect((await call('tasks', caller, 'generic')).status).toBe(200)
    expect((await call('tasks', caller, 'generic')).status).toBe(403)
    expect((await sandbox.request('POST', '/_sandbox/reset')).status).toBe(200)
    expect((await sandbox.request('GET', '/_sandbox/quotas')).body).toEqual(GOOGLE_DEFAULTS)
    tokens.clear()
    await setQuotas(sandbox, { tasksQueriesPerDay: 1 })
    expect((await call('tasks', caller, 'generic')).status).toBe(200)
  })
})
