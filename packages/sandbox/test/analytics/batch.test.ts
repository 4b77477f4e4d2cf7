import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, dims, invalid, LAST_28_DAYS, metrics, ok } from './client.js'

const sandbox = sandboxForSuite()

const byCountry = {
  dateRanges: LAST_28_DAYS,
  dimensions: dims('country'),
  metrics: metrics('sessions'),
}
const byDevice = {
  dateRanges: LAST_28_DAYS,
  dimensions: dims('deviceCategory'),
  metrics: metrics('activeUsers'),
  limit: 2,
}

describe('analytics API: batchRunReports', () => {
  it('answers each request as runReport would, in order', async () => {
    const u = await analyticsUser(sandbox)
    const batch = ok(await u.post('reports', { requests: [byCountry, byDevice] }))
    expect(batch.kind).toBe('analyticsData#batchRunReports')
    expect(batch.reports).toEqual([await u.report(byCountry), await u.report(byDevice)])
  })

  it('up to 5 requests: 6 (or none) is a 400', async () => {
    const u = await analyticsUser(sandbox)
    expect(ok(await u.post('reports', { requests: Array(5).fill(byDevice) })).reports).toHaveLength(
      5,
    )
    expect(invalid(await u.post('reports', { requests: Array(6).fill(byDevice) }))).toMatch(
      /1 to 5 report requests; this one has 6/,
    )
    expect(invalid(await u.post('reports', { requests: [] }))).toMatch(/has 0/)
    expect(invalid(await u.post('reports', {}))).toMatch(/has 0/)
  })

  it('a request naming another property is refused; its own property is fine', async () => {
    const u = await analyticsUser(sandbox)
    const other = { ...byDevice, property: `properties/${u.properties[1]}` }
    const res = await u.post('reports', { requests: [byCountry, other] })
    expect(invalid(res)).toMatch(/^requests\[1\]: .*not the property of the URL/)
    const own = { ...byDevice, property: `properties/${u.property}` }
    expect((await u.post('reports', { requests: [own] })).status).toBe(200)
  })

  it('a bad request says which one it is', async () => {
    const u = await analyticsUser(sandbox)
    const bad = { ...byCountry, metrics: metrics('sesions') }
    expect(invalid(await u.post('reports', { requests: [byDevice, bad] }))).toMatch(
      /^requests\[1\]: Field sesions is not a valid metric/,
    )
    expect(invalid(await u.post('reports', { requests: [{ ...byDevice, colour: 1 }] }))).toMatch(
      `Unknown name "colour" at 'requests[0]'`,
    )
  })
})
