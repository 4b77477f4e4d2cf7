import { describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS } from '../../packages/connector/src/auth/rate-limits.js'
import { connectorForSuite } from '../../packages/connector/test/support/connector.js'

/**
 * DESIGN §7 "rate limits on the token and registration endpoints": floods of registrations and
 * token requests from one address are cut with 429, Retry-After and no-store, far above normal use
 * (DESIGN §5: at least 60 registrations and 300 token requests a minute).
 */

const suite = connectorForSuite({
  options: { rateLimits: { registrationsPerMinute: 3, tokenRequestsPerMinute: 4 } },
})

function expectTooMany(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429)
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(res.body).toEqual({
    error: 'temporarily_unavailable',
    error_description: expect.stringMatching(/try again in \d+ seconds/),
  })
}

describe('rate limits on the token and registration endpoints', () => {
  it('are far above normal use by default', () => {
    expect(DEFAULT_RATE_LIMITS.registrationsPerMinute).toBeGreaterThanOrEqual(60)
    expect(DEFAULT_RATE_LIMITS.tokenRequestsPerMinute).toBeGreaterThanOrEqual(300)
  })

  it('answer registrations beyond the limit with 429 and Retry-After', async () => {
    const register = () =>
      suite.request('POST', '/oauth/register', {
        json: { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'none' },
      })
    for (let i = 0; i < 3; i += 1) expect((await register()).status).toBe(201)
    const before = await suite.holdings()
    expectTooMany(await register())
    expect(await suite.holdings(), 'no client registered').toEqual(before)
  })

  it('answer token requests beyond the limit with 429 and Retry-After', async () => {
    const form = { grant_type: 'refresh_token', refresh_token: 'nope', client_id: 'nobody' }
    for (let i = 0; i < 4; i += 1) {
      expect((await suite.request('POST', '/oauth/token', { form })).status).not.toBe(429)
    }
    expectTooMany(await suite.request('POST', '/oauth/token', { form }))
  })

  it('leave other endpoints alone', async () => {
    const res = await suite.request('GET', '/.well-known/oauth-authorization-server')
    expect(res.status).toBe(200)
  })
})
