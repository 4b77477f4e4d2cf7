import { describe, expect, it } from 'vitest'
import { providerError, sandboxForSuite } from '../support/sandbox.js'
import { assetsOf, fault } from '../google/clients.js'

const sandbox = sandboxForSuite()

describe('sandbox control API', () => {
  it('readiness: GET /healthz answers 200', async () => {
    expect((await sandbox.request('GET', '/healthz')).status).toBe(200)
  })

  it('POST /_sandbox/tokens creates the user and returns working tokens', async () => {
    const res = await sandbox.request('POST', '/_sandbox/tokens', {
      body: { user: 'carol', scopes: ['tasks.readonly'] },
    })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token'])
    expect(res.body.expires_in).toBeGreaterThan(0)
    const user = await sandbox.request('GET', '/_sandbox/users/carol')
    expect(user.body.user).toBe('carol')
  })

  it('GET /_sandbox/users/{user} returns a URL-prefix site, a domain site and two numeric properties, the same every time', async () => {
    const first = await sandbox.request('GET', '/_sandbox/users/dave%40example.com')
    expect(first.status).toBe(200)
    expect(first.body.user).toBe('dave@example.com')
    expect(first.body.sites).toHaveLength(2)
    expect(first.body.sites[0]).toMatch(/^https:\/\/.+\/$/)
    expect(first.body.sites[1]).toMatch(/^sc-domain:/)
    expect(first.body.properties).toHaveLength(2)
    for (const p of first.body.properties) expect(p).toMatch(/^\d+$/)
    const again = await sandbox.request('GET', '/_sandbox/users/dave%40example.com')
    expect(again.body).toEqual(first.body)
  })

  it('bad control input gets a 400 naming the field', async () => {
    const res = await sandbox.request('POST', '/_sandbox/tokens', {
      body: { user: 'erin', scopes: ['tasks.write'] },
    })
    expect(res.status).toBe(400)
    expect(providerError(res).message).toContain('scopes')
  })

  it('faults: an injected 429 carries Retry-After, is used up after `times`, and is logged', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    const token = await sandbox.token('frank', ['tasks'])
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { method: 'GET', path: '/tasks/v1/*' }, times: 2, status: 429, retryAfter: 7 },
    })
    for (let i = 0; i < 2; i++) {
      const res = await sandbox.request('GET', '/tasks/v1/lists', { token })
      expect(res.status).toBe(429)
      expect(res.headers.get('retry-after')).toBe('7')
      expect(providerError(res).status).toBe('RESOURCE_EXHAUSTED')
      expect(providerError(res).errors[0]!.reason).toBe('rateLimitExceeded')
    }
    const third = await sandbox.request('GET', '/tasks/v1/lists', { token })
    expect(third.status).not.toBe(429)
    const log = await sandbox.request('GET', '/_sandbox/requests')
    expect(log.body.map((r: { status: number }) => r.status).slice(0, 2)).toEqual([429, 429])
    expect(log.body[0]).toEqual({
      method: 'GET',
      path: '/tasks/v1/lists',
      status: 429,
      dialect: 'seed',
    })
  })

  it('faults: a reset drops the connection and is logged with status 0', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { path: '/tasks/v1/lists' }, reset: true },
    })
    await expect(fetch(sandbox.url + '/tasks/v1/lists')).rejects.toThrow()
    const log = await sandbox.request('GET', '/_sandbox/requests')
    expect(log.body).toEqual([
      { method: 'GET', path: '/tasks/v1/lists', status: 0, dialect: 'seed' },
    ])
  })

  it('GET /_sandbox/faults lists the faults still queued, with how many requests each has left', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { method: 'GET', path: '/tasks/v1/lists' }, times: 2, status: 503 },
    })
    expect((await sandbox.request('GET', '/_sandbox/faults')).body).toEqual([
      { match: { method: 'GET', path: '/tasks/v1/lists' }, times: 2, status: 503, remaining: 2 },
    ])
    await sandbox.request('GET', '/tasks/v1/lists')
    expect((await sandbox.request('GET', '/_sandbox/faults')).body[0].remaining).toBe(1)
    await sandbox.request('GET', '/tasks/v1/lists')
    expect((await sandbox.request('GET', '/_sandbox/faults')).body).toEqual([])
  })

  it('faults: match.dialect takes "seed" or "generic" for S, and the wire writes it "seed"', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    for (const dialect of ['seed', 'generic']) {
      const queued = await sandbox.request('POST', '/_sandbox/faults', {
        body: { match: { path: '/tasks/v1/lists', dialect }, status: 503 },
      })
      expect(queued.body.queued.match).toEqual({ path: '/tasks/v1/lists', dialect: 'seed' })
    }
    expect((await sandbox.request('GET', '/_sandbox/faults')).body).toEqual([
      { match: { path: '/tasks/v1/lists', dialect: 'seed' }, times: 1, status: 503, remaining: 1 },
      { match: { path: '/tasks/v1/lists', dialect: 'seed' }, times: 1, status: 503, remaining: 1 },
    ])
    // Google's origin does not meet them; the generic one meets both.
    const atGoogle = await sandbox.googleRequest('GET', '/tasks/v1/lists')
    expect(atGoogle.status).not.toBe(503)
    expect((await sandbox.request('GET', '/tasks/v1/lists')).status).toBe(503)
    expect((await sandbox.request('GET', '/tasks/v1/lists')).status).toBe(503)
    expect((await sandbox.request('GET', '/_sandbox/requests')).body).toEqual([
      { method: 'GET', path: '/tasks/v1/lists', status: atGoogle.status, dialect: 'google' },
      { method: 'GET', path: '/tasks/v1/lists', status: 503, dialect: 'seed' },
      { method: 'GET', path: '/tasks/v1/lists', status: 503, dialect: 'seed' },
    ])
  })

  it('faults: a usage limit of Google’s by its reason, in both dialects', async () => {
    const token = await sandbox.token('hana', ['tasks', 'analytics.readonly'])
    const limit = (reason: string, status: number, path: string) =>
      fault(sandbox, { match: { path }, status, reason })
    await limit('dailyLimitExceeded', 403, '/tasks/v1/*')
    const daily = await sandbox.request('GET', '/tasks/v1/lists', { token })
    expect(daily.status).toBe(403)
    expect(daily.body.error).toMatchObject({
      code: 403,
      message: 'Daily Limit Exceeded',
      status: 'PERMISSION_DENIED',
      errors: [{ reason: 'dailyLimitExceeded', domain: 'usageLimits' }],
      details: [{ reason: 'RATE_LIMIT_EXCEEDED', metadata: { service: 'tasks.googleapis.com' } }],
    })
    // Google's Analytics Data API words it without errors[]: the reason is in details.
    await limit('accessNotConfigured', 403, '/v1beta/properties/*')
    const { properties } = await assetsOf(sandbox, 'hana')
    const disabled = await sandbox.googleRequest(
      'GET',
      `/v1beta/properties/${properties[0]}/metadata`,
      { token },
    )
    expect(disabled.status).toBe(403)
    expect(disabled.body.error.errors).toBeUndefined()
    expect(disabled.body.error.details).toEqual([
      expect.objectContaining({
        reason: 'SERVICE_DISABLED',
        metadata: { service: 'analyticsdata.googleapis.com', consumer: 'projects/0' },
      }),
    ])
    const refused = await sandbox.request('POST', '/_sandbox/faults', {
      body: { status: 503, reason: 'quotaExceeded' },
    })
    expect(refused.status).toBe(400)
    expect(providerError(refused).message).toMatch(/403 or 429/)
  })

  it('faults: with a probability, only some matching requests meet one; DELETE forgets the rest', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { path: '/healthz-blip' }, status: 503, probability: 0.5, times: 1_000 },
    })
    const statuses: number[] = []
    for (let i = 0; i < 60; i++)
      statuses.push((await sandbox.request('GET', '/healthz-blip')).status)
    const met = statuses.filter((status) => status === 503).length
    // 60 draws at one chance in two: 0 or 60 would come once in 10^18 runs.
    expect(met).toBeGreaterThan(0)
    expect(met).toBeLessThan(60)
    expect((await sandbox.request('GET', '/_sandbox/faults')).body[0].remaining).toBe(1_000 - met)
    expect((await sandbox.request('DELETE', '/_sandbox/faults')).status).toBe(200)
    expect((await sandbox.request('GET', '/_sandbox/faults')).body).toEqual([])
    expect((await sandbox.request('GET', '/healthz-blip')).status).toBe(404)
  })

  it('faults: a delay holds the answer back by at least delayMs', async () => {
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { path: '/healthz-never' }, delayMs: 300, status: 503 },
    })
    const started = Date.now()
    const res = await sandbox.request('GET', '/healthz-never')
    expect(res.status).toBe(503)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('POST /_sandbox/reset empties everything: tokens stop working and the log is cleared', async () => {
    const token = await sandbox.token('gina', ['tasks'])
    await sandbox.request('POST', '/_sandbox/reset')
    expect((await sandbox.request('GET', '/tasks/v1/lists', { token })).status).toBe(401)
    const log = await sandbox.request('GET', '/_sandbox/requests')
    expect(log.body).toHaveLength(1)
  })

  it('POST /_sandbox/reset also empties the analytics quota a property has spent', async () => {
    const spent = async () => {
      const token = await sandbox.token('hana', ['analytics.readonly'])
      const user = await sandbox.request('GET', '/_sandbox/users/hana')
      const res = await sandbox.request(
        'POST',
        `/analytics/v1/properties/${user.body.properties[0]}/report`,
        {
          token,
          body: {
            dateRanges: [{ startDate: 'yesterday', endDate: 'today' }],
            metrics: [{ name: 'sessions' }],
            returnPropertyQuota: true,
          },
        },
      )
      expect(res.status).toBe(200)
      return res.body.propertyQuota.tokensPerDay.remaining as number
    }
    const first = await spent()
    expect(await spent()).toBeLessThan(first)
    await sandbox.request('POST', '/_sandbox/reset')
    expect(await spent()).toBe(first)
  })
})
