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
/** As the real API types them (key events count in fractions where a key event is per session). */
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
  keyEvents: 'TYPE_FLOAT',
  totalRevenue: 'TYPE_CURRENCY',
  adUnitExposure: 'TYPE_MILLISECONDS',
}
/** The categories of a real property's answer. */
const DIMENSION_CATEGORIES = [
  'Traffic Source',
  'Other',
  'Ecommerce',
  'Time',
  'Attribution',
  'Platform / Device',
  'Page / Screen',
  'Geography',
  'User',
  'Cohort',
  'Publisher',
  'Demographics',
  'Event',
  'User Lifetime',
]
const METRIC_CATEGORIES = [
  'Ecommerce',
  'Other',
  'User',
  'Session',
  'Event',
  'Revenue',
  'Page / Screen',
  'Cohort',
  'Publisher',
]

describe('analytics API: get_metadata', () => {
  it('names the resource and lists the usual dimensions and metrics with their types', async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    expect(metadata.name).toBe(`properties/${u.property}/metadata`)
    const dimensionNames = metadata.dimensions.map((d: any) => d.apiName)
    expect(dimensionNames).toEqual(expect.arrayContaining(USUAL_DIMENSIONS))
    const types = Object.fromEntries(metadata.metrics.map((m: any) => [m.apiName, m.type]))
    expect(types).toMatchObject(USUAL_METRICS)
    const names = [...dimensionNames, ...metadata.metrics.map((m: any) => m.apiName)]
    expect(new Set(names).size).toBe(names.length)
  })

  it("is a real property's size: hundreds of entries, tens of kilobytes, Google's categories", async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    const entries = metadata.dimensions.length + metadata.metrics.length
    // A bare property in 2024 answered 194 dimensions and 89 metrics in 68.8 KB of compact JSON.
    expect(metadata.dimensions.length).toBeGreaterThanOrEqual(194)
    expect(metadata.metrics.length).toBeGreaterThanOrEqual(89)
    expect(entries).toBeGreaterThanOrEqual(283)
    expect(Buffer.byteLength(JSON.stringify(metadata))).toBeGreaterThanOrEqual(65_000)
    expect(new Set(metadata.dimensions.map((d: any) => d.category))).toEqual(
      new Set([...DIMENSION_CATEGORIES, 'Custom']),
    )
    expect(new Set(metadata.metrics.map((m: any) => m.category))).toEqual(
      new Set(METRIC_CATEGORIES),
    )
    for (const entry of [...metadata.dimensions, ...metadata.metrics]) {
      expect(entry.uiName).toEqual(expect.any(String))
      expect(entry.description.length).toBeGreaterThan(10)
    }
  })

  it('leaves out fields at their default, as the real API does', async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    const allowed = {
      dimension: [
        'apiName',
        'uiName',
        'description',
        'deprecatedApiNames',
        'customDefinition',
        'category',
      ],
      metric: [
        'apiName',
        'uiName',
        'description',
        'deprecatedApiNames',
        'type',
        'customDefinition',
        'blockedReasons',
        'category',
      ],
    }
    const check = (entry: any, fields: string[]) => {
      for (const [key, value] of Object.entries(entry)) {
        expect(fields).toContain(key)
        expect(value === false || (Array.isArray(value) && value.length === 0)).toBe(false)
      }
    }
    for (const d of metadata.dimensions) check(d, allowed.dimension)
    for (const m of metadata.metrics) check(m, allowed.metric)
    expect(Object.keys(metadata)).toEqual(['name', 'dimensions', 'metrics'])
  })

  it('lists the names Google deprecated on the entries that replace them', async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    const deprecated = (list: any[]) =>
      Object.fromEntries(
        list.filter((e) => e.deprecatedApiNames).map((e) => [e.apiName, e.deprecatedApiNames]),
      )
    expect(deprecated(metadata.dimensions)).toMatchObject({
      countryId: ['countryIsoCode'],
      dayOfWeek: ['dayOfWeekZero'],
      defaultChannelGroup: ['defaultChannelGrouping'],
      sessionDefaultChannelGroup: ['sessionDefaultChannelGrouping'],
    })
    expect(deprecated(metadata.metrics)).toMatchObject({
      itemListClickEvents: ['itemListClicks'],
      itemsPurchased: ['itemPurchaseQuantity'],
    })
  })

  it('marks the cost metrics blocked: the sandbox user has no access to cost data', async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    const blocked = metadata.metrics.filter((m: any) => m.blockedReasons)
    expect(blocked.map((m: any) => m.apiName).sort()).toEqual([
      'advertiserAdCost',
      'advertiserAdCostPerClick',
      'advertiserAdCostPerKeyEvent',
      'returnOnAdSpend',
    ])
    for (const m of blocked) expect(m.blockedReasons).toEqual(['NO_COST_METRICS'])
  })

  it('has the metrics of each key event of the property, under their key-event names', async () => {
    const u = await analyticsUser(sandbox)
    const metadata = ok(await u.metadata())
    const names = metadata.metrics.map((m: any) => m.apiName)
    expect(names).toEqual(
      expect.arrayContaining([
        'keyEvents',
        'sessionKeyEventRate',
        'userKeyEventRate',
        'keyEvents:purchase',
        'sessionKeyEventRate:purchase',
        'userKeyEventRate:purchase',
        'keyEvents:sign_up',
      ]),
    )
    expect(names.filter((n: string) => /conversion/i.test(n))).toEqual([])
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
