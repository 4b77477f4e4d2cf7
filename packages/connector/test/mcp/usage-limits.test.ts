import { pino } from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { MAX_RETRIES } from '../../src/upstream/api/policy.js'
import { approvalFlow } from '../approval/flow.js'
import { AuthorizationStopped, connectorForSuite } from '../support/connector.js'
import { moved, scrapeExposition } from '../support/prometheus.js'
import { serviceTools } from '../support/service-tools.js'
import { assistantV2, textOf } from './approval-clients.js'
import { taskFixtures } from './fixtures.js'

/**
 * A limit is not a refusal: Google's Apiary-era APIs (Tasks, webmasters v3) answer quota and
 * setup problems with 403 (docs/sandbox.md, "Quotas"), which the sandbox's dialects answer
 * too (its control API's `reason`). A limit on the rate is retried like a 429; a quota used up for
 * the day and an API not enabled are said for what they are, to the model, in the operator's log
 * and in the metrics, are sent once, and never open the breaker. GA4's property tokens are the
 * sandbox's own quota, spent by real reports. In both profiles: under Google's, an API not
 * enabled is named with Google's link to enable it, to the model, the operator and the person
 * choosing what a connection covers.
 */

const lines: string[] = []
const suite = connectorForSuite({
  connector: { metrics: { port: 0, host: '127.0.0.1' } },
  options: { log: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }) },
})
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

let people = 0
async function listTasksOf() {
  const user = `limits-${++people}`
  const { tokens } = await flow.connected(user)
  const { tasklist } = await seed(user, 1)
  const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
  const path = suite.providerPath('list_tasks', { tasklist })
  const limit = (reason: string, times = 1) =>
    suite.sandboxRequest('POST', '/_sandbox/faults', {
      json: { match: { method: 'GET', path }, status: 403, reason, times },
    })
  return { list: () => assistant.call('list_tasks', { tasklist }), limit, assistant }
}

/** Switches Google APIs off in the connector's project (all on again with none). */
const disableApis = (...disabled: string[]) =>
  suite.sandboxRequest('POST', '/_sandbox/apis', { json: { disabled } })

/** Google's link to enable `api` in the sandbox's project, as its answers give it. */
const activation = (api: string) =>
  `https://console.developers.google.com/apis/api/${api}/overview?project=0`

/** What the model reads of an API not enabled: Google's words and link, or the provider's. */
const notEnabledResult = (title: string, api: string) =>
  suite.profile === 'google'
    ? `Google says the ${title} is not enabled in the Google Cloud project of the connector’s OAuth client, so nothing was done. Nothing in the arguments can fix it: tell the person that the connector’s operator must enable it at ${activation(api)}, then wait a few minutes and try again.`
    : `The provider has not enabled the ${title} for the connector’s OAuth client, so nothing was done. Nothing in the arguments can fix it: tell the person that the connector’s operator must enable it (for Google, in the Google Cloud project of the connector’s OAuth client).`

/** The operator's line for it. */
const notEnabledLog = (title: string, api: string) =>
  suite.profile === 'google'
    ? `the ${title} is not enabled in the Google Cloud project of the connector's OAuth client: enable it at ${activation(api)}, then wait a few minutes`
    : `the provider has not enabled the ${title} for the connector's OAuth client: enable it (for Google, under APIs & Services in the client's Google Cloud project)`

/** The log's api_disabled lines since `from`. */
const disabledLines = (from: number) =>
  lines
    .slice(from)
    .map((line) => JSON.parse(line))
    .filter((l) => l.kind === 'api_disabled')

/** The alert of a page, as the person reads it. */
const alertOf = (page: string) =>
  /<p class="alert" role="alert">([^<]*)<\/p>/
    .exec(page)?.[1]
    ?.replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

const statuses = async (from: number) => (await upstreamCalls(from)).calls.map((c) => c.status)
const scrape = () => scrapeExposition(suite.connector.metricsUrl!)

describe('the provider’s usage limits under the tools', () => {
  it.each(['rateLimitExceeded', 'userRateLimitExceeded'])(
    'a 403 %s is a limit on the rate: retried, and the call succeeds',
    async (reason) => {
      const p = await listTasksOf()
      await p.limit(reason, 2)
      const { next } = await upstreamCalls()
      const result = await p.list()
      expect(result.isError ?? false, textOf(result)).toBe(false)
      expect(await statuses(next)).toEqual([403, 403, 200])
      await p.assistant.close()
    },
  )

  it('a limit on the rate that outlasts the retries: the model is told to wait, not that access is refused', async () => {
    const p = await listTasksOf()
    await p.limit('userRateLimitExceeded', 1 + MAX_RETRIES)
    const result = await p.list()
    expect(textOf(result)).toMatch(
      /busy \(it is limiting the rate of requests\); retry in \d+ seconds/,
    )
    expect(textOf(result)).not.toMatch(/permission/)
    await p.assistant.close()
  })

  it.each([
    ['dailyLimitExceeded', /Daily Limit Exceeded/],
    ['quotaExceeded', /Queries per day/],
  ])(
    'a 403 %s is a quota used up for the day: sent once, said so, counted, logged, the breaker closed',
    async (reason, providerWords) => {
      const p = await listTasksOf()
      await p.limit(reason, 10)
      const before = await scrape()
      const logged = lines.length
      const { next } = await upstreamCalls()
      for (let i = 0; i < 3; i++) {
        const result = await p.list()
        expect(result.isError).toBe(true)
        expect(textOf(result)).toMatch(/quota for today is used up/)
        expect(textOf(result)).toMatch(providerWords)
        expect(textOf(result)).toMatch(/midnight Pacific time/)
      }
      expect(await statuses(next)).toEqual([403, 403, 403])
      const after = await scrape()
      expect(moved(before, after, 'countersign_upstream_failures_total')).toEqual({
        'kind=quota_exhausted,service=tasks': 3,
      })
      // This case's own line: the log is the file's.
      const quotaLines = lines
        .slice(logged)
        .filter((line) => /quota at the provider is used up for the day/.test(line))
      expect(quotaLines).toHaveLength(3)
      expect(suite.connector.parts.api.circuitStates().tasks).toBe('closed')
      await p.assistant.close()
    },
  )

  it('a 403 accessNotConfigured is the API not enabled for the connector: sent once, the operator told', async () => {
    const p = await listTasksOf()
    await p.limit('accessNotConfigured', 10)
    const before = await scrape()
    const logged = lines.length
    const { next } = await upstreamCalls()
    const result = await p.list()
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe(notEnabledResult('Google Tasks API', 'tasks.googleapis.com'))
    expect(await statuses(next)).toEqual([403])
    expect(moved(before, await scrape(), 'countersign_upstream_failures_total')).toEqual({
      'kind=api_disabled,service=tasks': 1,
    })
    const disabled = disabledLines(logged)
    expect(disabled).toHaveLength(1)
    expect(disabled[0]).toMatchObject({ level: 50, service: 'tasks', api: 'Google Tasks API' })
    expect(disabled[0].msg).toBe(notEnabledLog('Google Tasks API', 'tasks.googleapis.com'))
    expect(suite.connector.parts.api.circuitStates().tasks).toBe('closed')
    await p.assistant.close()
  })

  it('the Tasks API switched off in the project: the model and the operator are told which, and where to enable it', async () => {
    const p = await listTasksOf()
    await disableApis('tasks.googleapis.com')
    try {
      const logged = lines.length
      const { next } = await upstreamCalls()
      const result = await p.list()
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe(notEnabledResult('Google Tasks API', 'tasks.googleapis.com'))
      expect(await statuses(next)).toEqual([403])
      const [line, ...more] = disabledLines(logged)
      expect(more).toEqual([])
      expect(line.msg).toBe(notEnabledLog('Google Tasks API', 'tasks.googleapis.com'))
      expect(line.activationUrl).toBe(
        suite.profile === 'google' ? activation('tasks.googleapis.com') : undefined,
      )
    } finally {
      await disableApis()
    }
    // Enabled again, the same call goes through.
    expect((await p.list()).isError ?? false).toBe(false)
    await p.assistant.close()
  })

  it('the Admin API switched off: the person choosing properties is told which API, and where the operator enables it', async () => {
    await disableApis('analyticsadmin.googleapis.com')
    try {
      const person = suite.person(`limits-chooser-${++people}`)
      const client = await suite.registerClient({ client_name: 'Helpful Assistant' })
      const url = suite.authorizationUrl(client, 'analytics', suite.pkce())
      const stopped = await person.authorize(url, { cover: 'stop' }).catch((e: unknown) => e)
      expect(stopped).toBeInstanceOf(AuthorizationStopped)
      const { url: at, page } = stopped as AuthorizationStopped
      expect(at).toMatch(/\/consent\/[^/]+\/choose$/)
      expect(alertOf(page)).toBe(
        suite.profile === 'google'
          ? `Google says the API that lists your properties (the Google Analytics Admin API) is not enabled for this connector, so you cannot pick some of them here: the connector's operator must enable it at ${activation('analyticsadmin.googleapis.com')}. Until then, you can allow every property, try again later, or deny.`
          : "The connector's operator has not enabled the API that lists your properties (the Google Analytics Admin API) at your provider, so you cannot pick some of them here. You can allow every property, try again later, or deny.",
      )
    } finally {
      await disableApis()
    }
  })

  it('Tasks’ queries for the day spent (the sandbox’s own count per project): the model is told when it renews', async () => {
    const p = await listTasksOf()
    const limits = (await suite.sandboxRequest('GET', '/_sandbox/quotas')).body
    // 0: spent whatever the connector's project has already asked today.
    await suite.sandboxRequest('POST', '/_sandbox/quotas', { json: { tasksQueriesPerDay: 0 } })
    try {
      const { next } = await upstreamCalls()
      const result = await p.list()
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/quota for today is used up/)
      expect(textOf(result)).toMatch(/Daily Limit Exceeded/)
      expect(textOf(result)).toMatch(/midnight Pacific time/)
      expect(await statuses(next)).toEqual([403])
      expect(suite.connector.parts.api.circuitStates().tasks).toBe('closed')
    } finally {
      await suite.sandboxRequest('POST', '/_sandbox/quotas', { json: limits })
      await p.assistant.close()
    }
  })

  it('Search Console’s search analytics for the day spent: the model is told the day’s quota is used up', async () => {
    const search = serviceTools(suite, 'search', 'search-day')
    const { person, call } = await search.newPerson('2026-07-28')
    const assets = await suite.sandboxRequest('GET', `/_sandbox/users/${person.user}`)
    const siteUrl = assets.body.sites[0] as string
    const limits = (await suite.sandboxRequest('GET', '/_sandbox/quotas')).body
    await suite.sandboxRequest('POST', '/_sandbox/quotas', {
      json: { searchAnalyticsQueriesPerDayPerProject: 0 },
    })
    try {
      const { next } = await search.upstreamCalls()
      const refused = await call('query_search_analytics', {
        siteUrl,
        startDate: '2026-07-01',
        endDate: '2026-07-20',
      })
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toMatch(/quota for today is used up/)
      expect(textOf(refused)).toMatch(/Search Analytics queries per day per project/)
      expect(textOf(refused)).toMatch(/midnight Pacific time/)
      expect((await search.upstreamCalls(next)).calls.map((c) => c.status)).toEqual([429])
    } finally {
      await suite.sandboxRequest('POST', '/_sandbox/quotas', { json: limits })
    }
  })

  it.each(['day', 'hour'] as const)(
    'a GA4 property’s tokens for the %s spent (the sandbox’s own quota): the model is told, and the report is not sent again',
    async (period) => {
      const analytics = serviceTools(suite, 'analytics', `tokens-${period}`)
      const { person, call } = await analytics.newPerson('2026-07-28')
      const assets = await suite.sandboxRequest('GET', `/_sandbox/users/${person.user}`)
      const propertiesId = assets.body.properties[0] as string
      const report = () =>
        call('run_report', {
          propertiesId,
          dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
          metrics: [{ name: 'sessions' }],
        })
      const limits = (await suite.sandboxRequest('GET', '/_sandbox/quotas')).body
      // Room for one report (5 tokens) in the period, then none.
      const quota = period === 'day' ? 'analyticsTokensPerDay' : 'analyticsTokensPerHour'
      await suite.sandboxRequest('POST', '/_sandbox/quotas', { json: { [quota]: 5 } })
      // Date held still: the hour cannot turn between the two reports.
      vi.useFakeTimers({ toFake: ['Date'] })
      try {
        expect((await report()).isError ?? false).toBe(false)
        const { next } = await analytics.upstreamCalls()
        const refused = await report()
        expect(refused.isError).toBe(true)
        expect(textOf(refused)).toMatch(`quota for ${period === 'day' ? 'today' : 'this hour'}`)
        expect(textOf(refused)).toMatch(`Exhausted property tokens per ${period}`)
        expect((await analytics.upstreamCalls(next)).calls.map((c) => c.status)).toEqual([429])
        expect(suite.connector.parts.api.circuitStates().analytics).toBe('closed')
      } finally {
        vi.useRealTimers()
        await suite.sandboxRequest('POST', '/_sandbox/quotas', { json: limits })
      }
    },
  )
})
