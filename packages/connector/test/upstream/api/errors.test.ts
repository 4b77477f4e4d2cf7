import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { googleSandboxUpstream, sandboxUpstream } from '../../../src/connector/sandbox-upstream.js'
import type { ServiceName } from '../../../src/services/catalog.js'
import { operationOf } from '../../../src/services/profiles/index.js'
import { GOOGLE_PROFILE } from '../../../src/services/profiles/google.js'
import { GENERIC_PROFILE } from '../../../src/services/profiles/generic.js'
import { retryAfter } from '../../../src/upstream/api/attempt.js'
import { errorForAnswer } from '../../../src/upstream/api/errors.js'
import type { ApiCall } from '../../../src/upstream/api/index.js'
import { MAX_RETRIES } from '../../../src/upstream/api/policy.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import {
  apiError,
  apiFor,
  fault,
  grantFor,
  newUser,
  requestCount,
  requestsSince,
} from './harness.js'

const sandbox = sandboxForSuite()

const task = (id: string) => ({ tasklist: '@default', task: id })

async function newTask(api: ReturnType<typeof apiFor>, grant: any, title: string) {
  const created = await api.call(
    {
      service: 'tasks',
      method: 'POST',
      path: '/lists/{tasklist}/tasks',
      pathParams: { tasklist: '@default' },
      body: { title },
      idempotent: false,
    },
    grant,
  )
  return created.body as { id: string; etag: string }
}

describe("UpstreamApi: the provider's errors", () => {
  it('maps a 404 to not_found with the provider’s message', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks/{task}',
          pathParams: task('no-such-task'),
          idempotent: true,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'not_found', status: 404, reason: 'notFound' })
    expect(error.providerMessage).toContain('no-such-task')
    // Our own message holds nothing from the request: it is what gets logged.
    expect(error.message).not.toContain('no-such-task')
  })

  it('maps a 400 INVALID_ARGUMENT to invalid (maxResults=1000 on list tasks), without retrying', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const since = (await requestsSince(sandbox)).length
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks',
          pathParams: { tasklist: '@default' },
          query: { maxResults: 1000 },
          idempotent: true,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'invalid', status: 400, reason: 'invalid' })
    expect(error.providerMessage).toMatch(/maxResults/)
    expect(await requestsSince(sandbox, since)).toHaveLength(1)
  })

  it('maps a 400 FAILED_PRECONDITION to failed_precondition, keeping the reason', async () => {
    const api = apiFor(sandbox)
    const user = newUser()
    const grant = await grantFor(sandbox, user)
    const assigned = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
      body: { user, tasklist: '@default', title: 'Assigned', surfaceType: 'DOCUMENT' },
    })
    expect(assigned.status).toBe(200)
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'POST',
          path: '/lists/{tasklist}/tasks',
          pathParams: { tasklist: '@default' },
          query: { parent: assigned.body.id },
          body: { title: 'Under an assigned task' },
          idempotent: false,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({
      kind: 'failed_precondition',
      status: 400,
      reason: 'failedPrecondition',
    })
    expect(error.providerMessage).toMatch(/assigned task cannot be a parent/)
  })

  it('maps a 412 (If-Match with a stale etag on PATCH) to conflict, and sends If-Match', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const { id, etag } = await newTask(api, grant, 'Before')
    const patch = (title: string, ifMatch: string) =>
      api.call(
        {
          service: 'tasks',
          method: 'PATCH',
          path: '/lists/{tasklist}/tasks/{task}',
          pathParams: task(id),
          body: { title },
          ifMatch,
          idempotent: true,
        },
        grant,
      )
    const changed = await patch('After', etag)
    expect((changed.body as any).title).toBe('After')
    expect(changed.etag).toBeDefined()
    expect(changed.etag).not.toBe(etag)

    const error = await apiError(patch('Lost update', etag))
    expect(error).toMatchObject({ kind: 'conflict', status: 412, reason: 'conditionNotMet' })
    expect(error.providerMessage).toBeTruthy()
  })

  it('maps a 403 (a read-only token writing) to permission', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser(), ['tasks.readonly'])
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'POST',
          path: '/lists',
          body: { title: 'x' },
          idempotent: false,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({
      kind: 'permission',
      status: 403,
      reason: 'insufficientPermissions',
    })
  })

  it('calls a 2xx answer that is not JSON malformed, with its status, never a crash', async () => {
    // The sandbox's web pages answer HTML: a base URL pointing there stands in for a provider
    // whose API answers something other than JSON.
    const api = apiFor(sandbox, {
      apiBase: { tasks: `${sandbox.url}/web`, search: sandbox.url, analytics: sandbox.url },
    })
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(
      api.call({ service: 'tasks', method: 'GET', path: '/tasks', idempotent: true }, grant),
    )
    expect(error).toMatchObject({ kind: 'malformed', status: 200 })
    expect(error.providerMessage).toBeUndefined()
  })

  it('calls a 400 that is not the provider’s error shape malformed, with its status', async () => {
    // The sandbox's OAuth token endpoint answers errors in OAuth's shape, not the API's.
    const api = apiFor(sandbox, {
      apiBase: { tasks: `${sandbox.url}/oauth`, search: sandbox.url, analytics: sandbox.url },
    })
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(
      api.call(
        { service: 'tasks', method: 'POST', path: '/token', body: {}, idempotent: false },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'malformed', status: 400 })
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-05-01T00:00:00Z')
    expect(retryAfter('3', now)).toBe(3_000)
    expect(retryAfter(' 0 ', now)).toBe(0)
    expect(retryAfter('Fri, 01 May 2026 00:00:10 GMT', now)).toBe(10_000)
    expect(retryAfter('Thu, 30 Apr 2026 00:00:00 GMT', now)).toBe(0)
    expect(retryAfter('soon', now)).toBeUndefined()
    expect(retryAfter('-5', now)).toBeUndefined()
    expect(retryAfter(undefined, now)).toBeUndefined()
  })
})

/**
 * The sandbox's two dialects as the connector calls them: the generic one at its origin, and
 * Google's under the Google profile (its operations' paths, its system query) at Google's origin.
 */
const DIALECTS = [
  { name: 'generic', profile: GENERIC_PROFILE, upstream: () => sandboxUpstream(sandbox.url) },
  {
    name: 'google',
    profile: GOOGLE_PROFILE,
    upstream: () => googleSandboxUpstream(sandbox.googleUrl),
  },
] as const

type Dialect = (typeof DIALECTS)[number]

/** The client and a person of their own, calling one tool's operation in `dialect`. */
async function caller(dialect: Dialect, scopes: string[]) {
  const { apiBase } = dialect.upstream()
  const api = apiFor(sandbox, {
    apiBase,
    systemQuery: dialect.profile.systemQuery,
    consoleHosts: dialect.profile.consoleHosts,
  })
  const user = newUser('limits')
  const grant = await grantFor(sandbox, user, scopes)
  /** Calls the tool `name`'s operation: a read unless told. */
  const call = (
    service: ServiceName,
    name: string,
    { pathParams = {}, body, idempotent = true }: Partial<ApiCall> = {},
  ) => {
    const { method, path, api: base } = operationOf(dialect.profile, name)
    return api.call({ service, api: base, method, path, pathParams, body, idempotent }, grant)
  }
  return {
    call,
    /** The path the sandbox logs for the operation `name` on `property`. */
    pathOn: (service: ServiceName, name: string, property: string) =>
      new URL(apiBase[service]).pathname +
      operationOf(dialect.profile, name).path.replace('{propertiesId}', property),
    /** Matches every request to `service` at this dialect's origin, for a fault. */
    paths: (service: ServiceName) => ({
      dialect: dialect.name,
      path: `${new URL(apiBase[service]).pathname}/*`,
    }),
    /** The user's two sites (`GET /_sandbox/users/{user}`). */
    sites: async () =>
      (await sandbox.request('GET', `/_sandbox/users/${user}`)).body.sites as string[],
    /** The user's two analytics properties (`GET /_sandbox/users/{user}`). */
    properties: async () =>
      (await sandbox.request('GET', `/_sandbox/users/${user}`)).body.properties as string[],
  }
}

const report = {
  dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
  metrics: [{ name: 'sessions' }],
}

describe('what a 403 or a 429 says beyond its status (Google’s usage limits)', () => {
  afterEach(async () => {
    expect((await sandbox.request('DELETE', '/_sandbox/faults')).status).toBe(200)
  })

  describe.each(DIALECTS)('from the sandbox, in the $name dialect', (dialect) => {
    // Tasks is an Apiary-era API: its usage limits are 403s with a reason in errors[].
    it.each([
      ['userRateLimitExceeded', 'rate_limited', 1 + MAX_RETRIES, undefined],
      ['rateLimitExceeded', 'rate_limited', 1 + MAX_RETRIES, undefined],
      ['dailyLimitExceeded', 'quota_exhausted', 1, 'day'],
      ['quotaExceeded', 'quota_exhausted', 1, 'day'],
      ['accessNotConfigured', 'api_disabled', 1, undefined],
    ] as const)(
      '403 %s on a task call is %s, sent %i time(s)',
      async (reason, kind, sent, period) => {
        const c = await caller(dialect, ['tasks'])
        await fault(sandbox, { match: c.paths('tasks'), status: 403, reason, times: sent })
        const since = await requestCount(sandbox)
        const error = await apiError(c.call('tasks', 'list_task_lists'))
        expect(error).toMatchObject({ kind, status: 403, reason })
        expect(error.quotaPeriod).toBe(period)
        expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual(
          Array(sent).fill(403),
        )
      },
    )

    it('a 403 forbidden (another person’s property) and insufficientPermissions (a read-only token writing) are permission', async () => {
      const c = await caller(dialect, ['analytics.readonly'])
      const others = await sandbox.request('GET', `/_sandbox/users/${newUser('other')}`)
      const since = await requestCount(sandbox)
      const forbidden = await apiError(
        c.call('analytics', 'run_report', {
          pathParams: { propertiesId: others.body.properties[0] },
          body: report,
        }),
      )
      expect(forbidden).toMatchObject({ kind: 'permission', status: 403 })
      expect(forbidden.providerMessage).toMatch(/sufficient permissions for this property/)
      const reader = await caller(dialect, ['tasks.readonly'])
      const readOnly = await apiError(
        reader.call('tasks', 'create_task_list', {
          body: { title: 'Not mine to make' },
          idempotent: false,
        }),
      )
      expect(readOnly).toMatchObject({
        kind: 'permission',
        status: 403,
        reason: 'insufficientPermissions',
      })
      expect(await requestsSince(sandbox, since)).toHaveLength(2)
    })

    // Analytics Data is a One Platform API: the reason is an ErrorInfo in details.
    it('403 SERVICE_DISABLED on an analytics call is api_disabled, sent once', async () => {
      const c = await caller(dialect, ['analytics.readonly'])
      const [property] = await c.properties()
      await fault(sandbox, {
        match: c.paths('analytics'),
        status: 403,
        reason: 'accessNotConfigured',
      })
      const since = await requestCount(sandbox)
      const error = await apiError(
        c.call('analytics', 'get_metadata', { pathParams: { propertiesId: property! } }),
      )
      expect(error).toMatchObject({ kind: 'api_disabled', status: 403 })
      expect(error.providerMessage).toMatch(
        /Google Analytics Data API has not been used .* disabled/,
      )
      expect(error.apiTitle).toBe('Google Analytics Data API')
      expect(await requestsSince(sandbox, since)).toHaveLength(1)
    })

    // Google's link is passed on only under the Google profile, whose console it is.
    it('an API switched off in the project (the control API): named, with Google’s link under the Google profile only', async () => {
      const c = await caller(dialect, ['analytics.readonly'])
      await sandbox.request('POST', '/_sandbox/apis', {
        body: { disabled: ['analyticsadmin.googleapis.com'] },
      })
      try {
        const since = await requestCount(sandbox)
        const error = await apiError(c.call('analytics', 'list_account_summaries'))
        expect(error).toMatchObject({
          kind: 'api_disabled',
          status: 403,
          apiTitle: 'Google Analytics Admin API',
        })
        expect(error.activationUrl).toBe(
          dialect.name === 'google'
            ? 'https://console.developers.google.com/apis/api/analyticsadmin.googleapis.com/overview?project=0'
            : undefined,
        )
        expect(await requestsSince(sandbox, since)).toHaveLength(1)
      } finally {
        await sandbox.request('POST', '/_sandbox/apis', { body: { disabled: [] } })
      }
    })

    describe('a property’s tokens spent', () => {
      let limits: unknown
      beforeEach(async () => {
        limits = (await sandbox.request('GET', '/_sandbox/quotas')).body
        // The clock (Date only) stands mid-hour: no hour or day rolls over between two reports.
        vi.useFakeTimers({ toFake: ['Date'] })
        vi.setSystemTime(new Date('2026-04-01T12:30:00Z'))
      })
      afterEach(async () => {
        vi.useRealTimers()
        const restored = await sandbox.request('POST', '/_sandbox/quotas', { body: limits })
        expect(restored.status).toBe(200)
      })

      it.each([
        ['day', 'analyticsTokensPerDay'],
        ['hour', 'analyticsTokensPerHour'],
      ] as const)(
        'for the %s: run_report is quota_exhausted, sent once, on each property',
        async (period, quota) => {
          const c = await caller(dialect, ['analytics.readonly'])
          const set = await sandbox.request('POST', '/_sandbox/quotas', { body: { [quota]: 5 } })
          expect(set.status).toBe(200)
          for (const property of await c.properties()) {
            const run = () =>
              c.call('analytics', 'run_report', {
                pathParams: { propertiesId: property },
                body: report,
              })
            // A report costs 5 tokens: the first is paid for, the next finds none left.
            expect((await run()).status).toBe(200)
            const since = await requestCount(sandbox)
            const error = await apiError(run())
            expect(error).toMatchObject({
              kind: 'quota_exhausted',
              status: 429,
              quotaPeriod: period,
            })
            expect(error.providerMessage).toBe(
              `Exhausted property tokens per ${period} for this property.`,
            )
            expect(await requestsSince(sandbox, since)).toEqual([
              { method: 'POST', path: c.pathOn('analytics', 'run_report', property), status: 429 },
            ])
          }
        },
      )
    })
  })

  /**
   * Google's quotas on requests, which the sandbox counts (docs/sandbox.md, "Quotas"): each set
   * to 0, so that the next call finds it spent whatever this file called before. A day's quota is
   * quota_exhausted and sent once; a minute's is a limit on the rate, retried, then rate_limited.
   */
  describe.each(DIALECTS)('a quota on requests spent, in the $name dialect', (dialect) => {
    let limits: unknown
    beforeEach(async () => {
      limits = (await sandbox.request('GET', '/_sandbox/quotas')).body
    })
    afterEach(async () => {
      const restored = await sandbox.request('POST', '/_sandbox/quotas', { body: limits })
      expect(restored.status).toBe(200)
    })

    const searchAnalytics = { startDate: '2026-01-01', endDate: '2026-01-31' }
    type Call = [ServiceName, string, (site: string) => Partial<ApiCall>, string[]]
    const CALLS: Record<string, Call> = {
      tasks: ['tasks', 'list_task_lists', () => ({}), ['tasks']],
      searchAnalytics: [
        'search',
        'query_search_analytics',
        (site) => ({ pathParams: { siteUrl: site }, body: searchAnalytics }),
        ['webmasters.readonly'],
      ],
      inspection: [
        'search',
        'inspect_url',
        (site) => ({ body: { siteUrl: site, inspectionUrl: site } }),
        ['webmasters.readonly'],
      ],
      sites: ['search', 'list_sites', () => ({}), ['webmasters.readonly']],
      admin: ['analytics', 'list_account_summaries', () => ({}), ['analytics.readonly']],
    }
    const minute = (metric: string) => new RegExp(`^Quota exceeded .*'${metric} per minute`)
    const day = (metric: string) => new RegExp(`^Quota exceeded .*'${metric} per day`)

    it.each([
      [
        'tasksQueriesPerDay',
        'tasks',
        403,
        'quota_exhausted',
        /^Daily Limit Exceeded\. The quota will be reset at midnight Pacific Time/,
      ],
      [
        'searchAnalyticsQueriesPerMinutePerSite',
        'searchAnalytics',
        429,
        'rate_limited',
        minute('Search Analytics queries'),
      ],
      [
        'searchAnalyticsQueriesPerMinutePerUser',
        'searchAnalytics',
        429,
        'rate_limited',
        minute('Search Analytics queries'),
      ],
      [
        'searchAnalyticsQueriesPerMinutePerProject',
        'searchAnalytics',
        429,
        'rate_limited',
        minute('Search Analytics queries'),
      ],
      [
        'searchAnalyticsQueriesPerDayPerProject',
        'searchAnalytics',
        429,
        'quota_exhausted',
        day('Search Analytics queries'),
      ],
      [
        'urlInspectionsPerMinutePerSite',
        'inspection',
        429,
        'rate_limited',
        minute('URL Inspection queries'),
      ],
      [
        'urlInspectionsPerDayPerSite',
        'inspection',
        429,
        'quota_exhausted',
        day('URL Inspection queries'),
      ],
      [
        'urlInspectionsPerMinutePerProject',
        'inspection',
        429,
        'rate_limited',
        minute('URL Inspection queries'),
      ],
      [
        'urlInspectionsPerDayPerProject',
        'inspection',
        429,
        'quota_exhausted',
        day('URL Inspection queries'),
      ],
      [
        'searchConsoleOtherQueriesPerMinutePerUser',
        'sites',
        429,
        'rate_limited',
        minute('Queries'),
      ],
      [
        'searchConsoleOtherQueriesPerDayPerProject',
        'sites',
        429,
        'quota_exhausted',
        day('Queries'),
      ],
      [
        'analyticsAdminRequestsPerMinutePerProject',
        'admin',
        429,
        'rate_limited',
        minute('Requests'),
      ],
      ['analyticsAdminRequestsPerMinutePerUser', 'admin', 429, 'rate_limited', minute('Requests')],
    ] as const)(
      '%s spent: a %s call is answered %i, read as %s',
      async (quota, surface, status, kind, words) => {
        const [service, name, args, scopes] = CALLS[surface]!
        const c = await caller(dialect, scopes)
        const [site] = await c.sites()
        const set = await sandbox.request('POST', '/_sandbox/quotas', { body: { [quota]: 0 } })
        expect(set.status).toBe(200)
        const since = await requestCount(sandbox)
        const error = await apiError(c.call(service, name, args(site!)))
        const exhausted = kind === 'quota_exhausted'
        expect(error).toMatchObject({ kind, status })
        expect(error.quotaPeriod).toBe(exhausted ? 'day' : undefined)
        expect(error.providerMessage).toMatch(words)
        const sent = exhausted ? 1 : 1 + MAX_RETRIES
        expect((await requestsSince(sandbox, since)).map((r) => r.status)).toEqual(
          Array(sent).fill(status),
        )
      },
    )
  })

  // Answers the sandbox does not serve: its properties have no limit on concurrent requests, and
  // its errors always have a body.
  it.each([
    [
      429,
      {
        error: {
          code: 429,
          message: 'Exhausted concurrent requests for this property.',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'RATE_LIMIT_EXCEEDED',
              domain: 'googleapis.com',
              metadata: { service: 'analyticsdata.googleapis.com' },
            },
          ],
        },
      },
      'rate_limited',
    ],
    [429, undefined, 'rate_limited'],
    [403, undefined, 'permission'],
  ])('%i %j is %s', (status, body, kind) => {
    expect(errorForAnswer(status, body, true, undefined, 'token').kind).toBe(kind)
  })
})

describe('an API not enabled: which, and Google’s link to enable it', () => {
  const CONSOLE = GOOGLE_PROFILE.consoleHosts!
  const ACTIVATION =
    'https://console.developers.google.com/apis/api/analyticsadmin.googleapis.com/overview?project=123'
  const disabled = (message: string, details: unknown[] = [], errors?: unknown[]) => ({
    error: { code: 403, message, status: 'PERMISSION_DENIED', details, ...(errors && { errors }) },
  })
  const info = (metadata: Record<string, string>) => ({
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'SERVICE_DISABLED',
    domain: 'googleapis.com',
    metadata,
  })
  const read = (body: unknown, hosts: readonly string[] = CONSOLE, token = 'tok') =>
    errorForAnswer(403, body, true, undefined, token, hosts)

  it('a newer body: the ErrorInfo’s serviceTitle and activationUrl (before the Help link and the message)', () => {
    const error = read(
      disabled(
        'Analytics Admin API has not been used in project 123 before or it is disabled. Enable it by visiting https://console.cloud.google.com/apis/library then retry.',
        [
          info({
            service: 'analyticsadmin.googleapis.com',
            serviceTitle: 'Google Analytics Admin API',
            activationUrl: ACTIVATION,
            consumer: 'projects/123',
          }),
          {
            '@type': 'type.googleapis.com/google.rpc.Help',
            links: [{ description: 'activation', url: 'https://console.cloud.google.com/help' }],
          },
        ],
      ),
    )
    expect(error).toMatchObject({
      kind: 'api_disabled',
      apiTitle: 'Google Analytics Admin API',
      activationUrl: ACTIVATION,
    })
  })

  it('an older body: the title the message begins with, and the link in it (without its full stop)', () => {
    const error = read(
      disabled(
        `Google Tasks API has not been used in project 123 before or it is disabled. Enable it by visiting ${ACTIVATION}.`,
        [],
        [{ reason: 'accessNotConfigured', domain: 'usageLimits' }],
      ),
    )
    expect(error).toMatchObject({ apiTitle: 'Google Tasks API', activationUrl: ACTIVATION })
  })

  it('a Help link when the ErrorInfo has none; the service’s name when nothing gives a title', () => {
    const error = read(
      disabled('The API is disabled.', [
        info({ service: 'analyticsadmin.googleapis.com' }),
        { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ url: ACTIVATION }] },
      ]),
    )
    expect(error).toMatchObject({
      apiTitle: 'analyticsadmin.googleapis.com API',
      activationUrl: ACTIVATION,
    })
  })

  it.each([
    ['http, not https', ACTIVATION.replace('https:', 'http:')],
    ['another host', 'https://console.example.com/apis/api/x/overview'],
    ['a host that only begins like the console’s', 'https://console.cloud.google.com.example.com/'],
    ['credentials before the host', 'https://console.cloud.google.com@example.com/'],
    ['a user name at the console', 'https://someone@console.cloud.google.com/apis'],
    ['a port', 'https://console.cloud.google.com:8443/apis'],
    ['a script', 'javascript:alert(1)//console.cloud.google.com'],
    ['the bearer token in it', `${ACTIVATION}&t=tok`],
  ])('no link from %s, wherever it is', (_, url) => {
    const body = disabled(
      `Google Tasks API is disabled. Enable it by visiting ${url} then retry.`,
      [
        info({ service: 'tasks.googleapis.com', activationUrl: url }),
        { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ url }] },
      ],
    )
    const error = read(body)
    expect(error.kind).toBe('api_disabled')
    expect(error.apiTitle).toBe('Google Tasks API')
    expect(error.activationUrl).toBeUndefined()
  })

  it('no link at all without the profile’s console hosts (the generic provider)', () => {
    const body = disabled('x', [
      info({ service: 'tasks.googleapis.com', activationUrl: ACTIVATION }),
    ])
    expect(read(body, []).activationUrl).toBeUndefined()
    expect(errorForAnswer(403, body, true, undefined, 'tok').activationUrl).toBeUndefined()
  })

  it('a title that is not plain words is not taken', () => {
    const error = read(
      disabled('<b>Evil</b> API has not been used', [
        info({
          service: 'tasks.googleapis.com',
          serviceTitle: 'Google <script>alert(1)</script> API',
        }),
      ]),
    )
    expect(error.apiTitle).toBe('tasks.googleapis.com API')
  })
})
