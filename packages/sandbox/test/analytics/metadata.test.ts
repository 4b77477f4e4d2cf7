import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsUser, ok } from './client.js'

const sandbox = sandboxForSuite()

const USUAL_DIMENSIONS = [
  'date',
  'dateHour',
  'country',
  'city',
  'deviceCategory',
  'browser',
  'operatingSystem',
  'sessionSource',
  'sessionMedium',
  'sessionDefaultChannelGroup',
  'pagePath',
  'pageTitle',
  'landingPage',
  'eventName',
  'newVsReturning',
  'itemName',
]
const USUAL_METRICS: Record<string, string> = {
  activeUsers: 'TYPE_INTEGER',
  newUsers: 'TYPE_INTEGER',
  totalUsers: 'TYPE_INTEGER',
  sessions: 'TYPE_INTEGER',
  engagedSessions: 'TYPE_INTEGER',
  engagementRate: 'TYPE_FLOAT',
  bounceRate: 'TYPE_FLOAT',
  screenPageViews: 'TYPE_INTEGER',
  eventCount: 'TYPE_INTEGER',
  averageSessionDuration: 'TYPE_SECONDS',
  userEngagementDuration: 'TYPE_SECONDS',
  keyEvents: 'TYPE_INTEGER',
  totalRevenue: 'TYPE_CURRENCY',
}

describe('analytics API: get_metadata', () => {
  it('names the resource and lists the usual dimensions and metrics with their types', async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    expect(metadata.name).toBe(`properties/${u.property}/metadata`)
    const dimensionNames = metadata.dimensions.map((d: any) => d.apiName)
    expect(dimensionNames).toEqual(expect.arrayContaining(USUAL_DIMENSIONS))
    for (const d of metadata.dimensions) {
      expect(Object.keys(d).sort()).toEqual(
        expect.arrayContaining(['apiName', 'category', 'description', 'uiName']),
      )
      expect(typeof d.uiName).toBe('string')
    }
    const types = Object.fromEntries(metadata.metrics.map((m: any) => [m.apiName, m.type]))
    expect(types).toMatchObject(USUAL_METRICS)
    const rate = metadata.metrics.find((m: any) => m.apiName === 'engagementRate')
    expect(rate.expression).toBe('engagedSessions/sessions')
    expect(new Set(dimensionNames).size).toBe(dimensionNames.length)
  })

  it("custom definitions are marked, and a user's two properties have different ones", async () => {
    const u = await analyticsUser(sandbox)
    const custom = async (property: string) =>
      ok(await u.metadata(property))
        .dimensions.filter((d: any) => d.customDefinition)
        .map((d: any) => d.apiName) as string[]
    const [first, second] = [await custom(u.properties[0]), await custom(u.properties[1])]
    for (const list of [first, second]) {
      expect(list.filter((name) => name.startsWith('customEvent:')).length).toBe(2)
      expect(list).toContain('customUser:membership_tier')
    }
    expect(first).not.toEqual(second)
  })

  it('is the same on every call', async () => {
    const u = await analyticsUser(sandbox)
    expect(ok(await u.metadata())).toEqual(ok(await u.metadata()))
  })
})
