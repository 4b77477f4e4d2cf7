import { describe, expect, it } from 'vitest'
import {
  connectorForSuite,
  DEFAULT_RATE_LIMITS,
  describeOnPostgres,
  RATE_LIMIT_TABLE,
  replicasForSuite,
} from '@countersign/connector/testing'

/**
 * Rate limits on the token and registration endpoints (docs/threat-model.md, "Rate limits on the
 * token and registration endpoints"): floods of registrations and token requests from one address
 * are cut with 429, Retry-After and no-store, far above normal use (docs/design.md, "The
 * authorization server": at least 60 registrations and 300 token requests a minute). On PostgreSQL
 * the count is shared: two replicas together allow what one does, whichever one a request reaches.
 */

const suite = connectorForSuite({
  connector: { rateLimits: { registrationsPerMinute: 3, tokenRequestsPerMinute: 4 } },
})

type Answer = { status: number; headers: Headers; body: any }

function expectTooMany(res: Answer) {
  expect(res.status).toBe(429)
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(res.body).toEqual({
    error: 'temporarily_unavailable',
    error_description: `Too many requests from this address: try again in ${retryAfter} seconds.`,
  })
}

const registration = {
  json: { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'none' },
}
const refresh = {
  form: { grant_type: 'refresh_token', refresh_token: 'nope', client_id: 'nobody' },
}

describe('rate limits on the token and registration endpoints', () => {
  it('are far above normal use by default', () => {
    expect(DEFAULT_RATE_LIMITS.registrationsPerMinute).toBeGreaterThanOrEqual(60)
    expect(DEFAULT_RATE_LIMITS.tokenRequestsPerMinute).toBeGreaterThanOrEqual(300)
  })

  it('answer registrations beyond the limit with 429 and Retry-After', async () => {
    const register = () => suite.request('POST', '/oauth/register', registration)
    for (let i = 0; i < 3; i += 1) expect((await register()).status).toBe(201)
    const before = await suite.holdings()
    expectTooMany(await register())
    expect(await suite.holdings(), 'no client registered').toEqual(before)
  })

  it('answer token requests beyond the limit with 429 and Retry-After', async () => {
    for (let i = 0; i < 4; i += 1) {
      expect((await suite.request('POST', '/oauth/token', refresh)).status).not.toBe(429)
    }
    expectTooMany(await suite.request('POST', '/oauth/token', refresh))
  })

  it('leave other endpoints alone', async () => {
    const res = await suite.request('GET', '/.well-known/oauth-authorization-server')
    expect(res.status).toBe(200)
  })
})

describeOnPostgres('rate limits shared by two replicas', (engine) => {
  // Every request goes to the other replica than the one before (support/replicas.ts).
  const replicas = replicasForSuite(() => engine.location(), 2, undefined, {
    RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '3',
    RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '4',
  })
  const request = (path: string, init: object) => replicas.flow.request('POST', path, init)

  it('refuse the registration beyond the limit, counted across both replicas', async () => {
    const served = [...replicas.served]
    for (let i = 0; i < 3; i += 1)
      expect((await request('/oauth/register', registration)).status).toBe(201)
    expectTooMany(await request('/oauth/register', registration))
    // Both replicas answered: two and two of the four.
    expect(replicas.served.map((n, i) => n - served[i]!)).toEqual([2, 2])
  })

  it('refuse the token request beyond the limit, counted across both replicas', async () => {
    for (let i = 0; i < 4; i += 1) {
      expect((await request('/oauth/token', refresh)).status).not.toBe(429)
    }
    expectTooMany(await request('/oauth/token', refresh))
    expectTooMany(await request('/oauth/token', refresh))
  })

  it('keep no client address in the shared table', async () => {
    const store = await engine.openStore(await engine.location())
    const rows = await store.db.selectFrom(RATE_LIMIT_TABLE).selectAll().execute()
    expect(rows.map((r) => [r.key.split(':')[0], r.points]).sort()).toEqual([
      ['registration', 4],
      ['token', 6],
    ])
    for (const { key } of rows) {
      expect(key).toMatch(/^(registration|token):[0-9a-f]{64}$/)
      expect(key).not.toContain('127.0.0.1')
    }
  })
})
