import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { analyticsClient, rejection } from '../google/clients.js'
import { GOOGLE_DEFAULTS, setQuotas } from '../support/quotas.js'
import { providerError, sandboxForSuite, type ApiResponse } from '../support/sandbox.js'
import { analyticsUser, LAST_28_DAYS, metrics, type AnalyticsUser } from './client.js'

/**
 * A property's tokens (docs/sandbox.md, "Quotas"): each report costs 5, and once the day's or the
 * hour's are spent the next report is refused with Google's 429, before it runs and for nothing.
 */

const sandbox = sandboxForSuite()

const sessions = { dateRanges: LAST_28_DAYS, metrics: metrics('sessions') }
const withQuota = { ...sessions, returnPropertyQuota: true }

/** The property's tokens left for the day and the hour, as a report that runs says. */
async function left(u: AnalyticsUser, property = u.property) {
  const { tokensPerDay, tokensPerHour } = (await u.report(withQuota, property)).propertyQuota
  return { day: tokensPerDay.remaining, hour: tokensPerHour.remaining }
}

/** Google's body for a property's tokens spent, in the generic dialect (with `errors[]`). */
const exhausted = (period: 'day' | 'hour') => {
  const message = `Exhausted property tokens per ${period} for this property.`
  return {
    code: 429,
    message,
    status: 'RESOURCE_EXHAUSTED',
    errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits', message }],
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        metadata: { service: 'analyticsdata.googleapis.com', consumer: 'projects/0' },
      },
    ],
  }
}

function refused(res: ApiResponse, period: 'day' | 'hour') {
  expect(res.status, res.text).toBe(429)
  expect(res.body).toEqual({ error: exhausted(period) })
}

describe('analytics API: a property’s tokens run out', () => {
  // The clock (Date only) stands in the middle of an hour: no test sees its hour or day roll over.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-04-01T12:30:00Z'))
  })
  afterEach(async () => {
    vi.useRealTimers()
    expect((await setQuotas(sandbox, GOOGLE_DEFAULTS)).status).toBe(200)
  })

  it('GET /_sandbox/quotas answers Google’s limits; POST sets some and answers all in force', async () => {
    expect((await sandbox.request('GET', '/_sandbox/quotas')).body).toEqual(GOOGLE_DEFAULTS)
    const set = await setQuotas(sandbox, { analyticsTokensPerDay: 10 })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({ ...GOOGLE_DEFAULTS, analyticsTokensPerDay: 10 })
    expect((await setQuotas(sandbox, {})).body).toEqual(set.body)
    expect((await sandbox.request('GET', '/_sandbox/quotas')).body).toEqual(set.body)
  })

  it('10 tokens a day: two reports run, the third is refused with Google’s 429 and costs nothing', async () => {
    const u = await analyticsUser(sandbox)
    await setQuotas(sandbox, { analyticsTokensPerDay: 10 })
    expect(await left(u)).toEqual({ day: 5, hour: 40_000 - 5 })
    expect(await left(u)).toEqual({ day: 0, hour: 40_000 - 10 })
    refused(await u.post('report', withQuota), 'day')
    // Refused before the report runs: its fields are not even read.
    refused(await u.post('report', { ...withQuota, metrics: metrics('notAMetric') }), 'day')
    // The property's other quota is its own.
    expect((await left(u, u.properties[1])).day).toBe(5)
    // Nothing was charged for the refusals: 10 spent, not 20.
    await setQuotas(sandbox, { analyticsTokensPerDay: 100 })
    expect(await left(u)).toEqual({ day: 100 - 15, hour: 40_000 - 15 })
  })

  it('at Google’s origin the refusal has no errors[], as Analytics Data words it', async () => {
    const u = await analyticsUser(sandbox)
    await setQuotas(sandbox, { analyticsTokensPerDay: 5 })
    await left(u)
    const res = await sandbox.googleRequest('POST', `/v1beta/properties/${u.property}:runReport`, {
      token: u.token,
      body: sessions,
    })
    expect(res.status).toBe(429)
    const { errors: _, ...google } = exhausted('day')
    expect(res.body).toEqual({ error: google })
  })

  it('the hour’s tokens spent: "per hour", while the day has tokens left', async () => {
    const u = await analyticsUser(sandbox)
    await setQuotas(sandbox, { analyticsTokensPerHour: 5 })
    expect(await left(u)).toEqual({ day: 200_000 - 5, hour: 0 })
    refused(await u.post('report', sessions), 'hour')
    // Both spent: the day is said, the longer wait.
    await setQuotas(sandbox, { analyticsTokensPerDay: 5 })
    refused(await u.post('report', sessions), 'day')
  })

  it('a batch costs each of its reports, and is refused whole when they do not all fit', async () => {
    const u = await analyticsUser(sandbox)
    await setQuotas(sandbox, { analyticsTokensPerDay: 15 })
    refused(await u.post('reports', { requests: [sessions, sessions, sessions, sessions] }), 'day')
    expect((await u.post('reports', { requests: [sessions, sessions] })).status).toBe(200)
    expect(await left(u)).toEqual({ day: 0, hour: 40_000 - 15 })
  })

  it('realtime reports spend the same tokens as core reports', async () => {
    const u = await analyticsUser(sandbox)
    await setQuotas(sandbox, { analyticsTokensPerDay: 10 })
    const realtime = { metrics: metrics('activeUsers'), returnPropertyQuota: true }
    expect((await u.realtime(realtime)).propertyQuota.tokensPerDay).toEqual({
      consumed: 5,
      remaining: 5,
    })
    await left(u)
    refused(await u.post('realtime-report', realtime), 'day')
    refused(await u.post('report', sessions), 'day')
  })

  it('POST /_sandbox/reset brings back Google’s limits', async () => {
    await setQuotas(sandbox, { analyticsTokensPerDay: 0, analyticsTokensPerHour: 0 })
    expect((await sandbox.request('POST', '/_sandbox/reset')).status).toBe(200)
    expect((await sandbox.request('GET', '/_sandbox/quotas')).body).toEqual(GOOGLE_DEFAULTS)
    const u = await analyticsUser(sandbox)
    expect(await left(u)).toEqual({ day: 200_000 - 5, hour: 40_000 - 5 })
  })

  it('bad control input is a 400 that says what to change, and changes nothing', async () => {
    const message = async (body: unknown) => {
      const res = await setQuotas(sandbox, body)
      expect(res.status).toBe(400)
      return providerError(res).message
    }
    const whole =
      /^Invalid value for analyticsTokensPer(Day|Hour): give a whole number, 0 or more\.$/
    expect(await message({ analyticsTokensPerDay: -1 })).toMatch(whole)
    expect(await message({ analyticsTokensPerHour: 2.5 })).toMatch(whole)
    expect(await message({ analyticsTokensPerDay: '10' })).toMatch(whole)
    expect(await message({ tokensPerProjectPerHour: 10, analyticsTokensPerDay: 5 })).toBe(
      `Invalid value for body: unknown "tokensPerProjectPerHour": the quotas are ${Object.keys(GOOGLE_DEFAULTS).join(', ')}.`,
    )
    expect(await message([10])).toBeTruthy()
    expect((await sandbox.request('GET', '/_sandbox/quotas')).body).toEqual(GOOGLE_DEFAULTS)
  })
})

describe("Google's Analytics Data client meets the spent tokens", () => {
  const opened: { close(): Promise<void> }[] = []
  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()))
  })
  afterEach(async () => {
    expect((await setQuotas(sandbox, GOOGLE_DEFAULTS)).status).toBe(200)
  })

  it('runReport is rejected with the 429 and Google’s message', async () => {
    const u = await analyticsUser(sandbox)
    const ga = analyticsClient(sandbox, u.token)
    opened.push(ga)
    await setQuotas(sandbox, { analyticsTokensPerDay: 0 })
    // gax 5 over REST surfaces an HTTP error as a GaxiosError: the status, and the body as text.
    const error = await rejection(
      ga.runReport({ property: `properties/${u.property}`, ...sessions }),
    )
    expect(error.status).toBe(429)
    const { errors: _, ...google } = exhausted('day')
    expect(JSON.parse(error.message)).toEqual({ error: google })
  })
})
