import { describe, expect, it } from 'vitest'
import { providerError, sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, invalid, LAST_28_DAYS, metrics } from './client.js'

const sandbox = sandboxForSuite()

const REPORT = { dateRanges: LAST_28_DAYS, metrics: metrics('sessions') }

describe('analytics API: who may read which property', () => {
  it('without a token: 401 UNAUTHENTICATED in the provider shape, with WWW-Authenticate', async () => {
    const u = await analyticsUser(sandbox)
    const res = await sandbox.request('GET', `/analytics/v1/properties/${u.property}/metadata`)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(providerError(res)).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED',
      errors: [{ reason: 'authError', domain: 'global' }],
    })
  })

  it('a token for tasks only: 403 insufficientPermissions naming the analytics scope', async () => {
    const u = await analyticsUser(sandbox, ['tasks'])
    const res = await u.post('report', REPORT)
    expect(res.status).toBe(403)
    const error = providerError(res)
    expect(error).toMatchObject({ status: 'PERMISSION_DENIED' })
    expect(error.errors[0]!.reason).toBe('insufficientPermissions')
    expect(error.message).toMatch(/analytics\.readonly/)
  })

  it.each([['analytics.readonly'], ['tasks.readonly', 'analytics.readonly']])(
    'a token with %s reads its properties, all four calls',
    async (...scopes) => {
      const u = await analyticsUser(sandbox, scopes)
      for (const property of u.properties) {
        expect((await u.metadata(property)).status).toBe(200)
        expect((await u.post('report', REPORT, property)).status).toBe(200)
        expect((await u.post('reports', { requests: [REPORT] }, property)).status).toBe(200)
        expect(
          (await u.post('realtime-report', { metrics: metrics('activeUsers') }, property)).status,
        ).toBe(200)
      }
    },
  )

  it("another user's property: 403 PERMISSION_DENIED (forbidden) on every call", async () => {
    const [u, other] = [await analyticsUser(sandbox), await analyticsUser(sandbox)]
    const calls = [
      u.metadata(other.property),
      u.post('report', REPORT, other.property),
      u.post('reports', { requests: [REPORT] }, other.property),
      u.post('realtime-report', { metrics: metrics('activeUsers') }, other.property),
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403)
      const error = providerError(res)
      expect(error.status).toBe('PERMISSION_DENIED')
      expect(error.errors[0]!.reason).toBe('forbidden')
      expect(error.message).toMatch(/does not have sufficient permissions for this property/)
    }
  })

  it.each(['abc', 'properties%2F123', '0', '-5', '12.5', '1'.repeat(30)])(
    'a malformed property id %s: 400 INVALID_ARGUMENT saying what an id is',
    async (id) => {
      const u = await analyticsUser(sandbox)
      expect(invalid(await u.metadata(id))).toMatch(/property ID is a number/)
    },
  )

  it('an unknown path under the API: 404 NOT_FOUND in the provider shape', async () => {
    const u = await analyticsUser(sandbox)
    const res = await u.call('GET', `/properties/${u.property}/nothing`)
    expect(res.status).toBe(404)
    expect(providerError(res).status).toBe('NOT_FOUND')
  })

  it('a body that is not a JSON object: 400', async () => {
    const u = await analyticsUser(sandbox)
    for (const rawBody of ['', 'not json', '[1]']) {
      const res = await sandbox.request('POST', `/analytics/v1/properties/${u.property}/report`, {
        token: u.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      })
      expect(invalid(res)).toMatch(/JSON/)
    }
  })

  it('two users own different properties, the same ones on every call', async () => {
    const u = await analyticsUser(sandbox)
    const again = await sandbox.request('GET', `/_sandbox/users/${u.name}`)
    expect(again.body.properties).toEqual(u.properties)
    expect(u.properties[0]).not.toBe(u.properties[1])
    for (const id of u.properties) expect(id).toMatch(/^[1-9]\d+$/)
    const other = await analyticsUser(sandbox)
    expect(other.properties).not.toContain(u.properties[0])
  })
})
