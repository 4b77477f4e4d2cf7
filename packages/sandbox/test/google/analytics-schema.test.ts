import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsPeople } from './clients.js'

/**
 * Google's Analytics Data client reads the metadata at its real size (deprecated names, blocked
 * metrics, per-key-event metrics) and runs reports on the fields the sandbox added to its engine.
 */

const sandbox = sandboxForSuite()

const person = analyticsPeople(sandbox)

describe("Google's Analytics Data client and the full schema", () => {
  it('getMetadata: hundreds of entries, with deprecated names and blocked metrics', async () => {
    const { ga, property } = await person('ga-schema-alice')
    const [metadata] = await ga.getMetadata({ name: `${property}/metadata` })
    expect(metadata.dimensions!.length + metadata.metrics!.length).toBeGreaterThanOrEqual(283)
    const countryId = metadata.dimensions!.find((d) => d.apiName === 'countryId')
    expect(countryId).toMatchObject({
      category: 'Geography',
      deprecatedApiNames: ['countryIsoCode'],
    })
    const cost = metadata.metrics!.find((m) => m.apiName === 'advertiserAdCost')
    expect(cost).toMatchObject({ type: 'TYPE_CURRENCY', blockedReasons: ['NO_COST_METRICS'] })
    expect(metadata.metrics!.some((m) => m.apiName === 'keyEvents:purchase')).toBe(true)
    expect(metadata.dimensions!.filter((d) => d.customDefinition).map((d) => d.apiName)).toContain(
      'customUser:membership_tier',
    )
  })

  it('runReport on new entries: a computed one, a "(not set)" one, a per-key-event metric', async () => {
    const { ga, property } = await person('ga-schema-bob')
    const [report] = await ga.runReport({
      property,
      dimensions: [{ name: 'firstUserDefaultChannelGroup' }, { name: 'sessionCm360CampaignName' }],
      metrics: [{ name: 'sessions' }, { name: 'keyEvents:purchase' }, { name: 'taxAmount' }],
      dateRanges: [{ startDate: '2026-01-01', endDate: '2026-01-31' }],
    })
    expect(report.metricHeaders!.map((h) => [h.name, h.type])).toEqual([
      ['sessions', 'TYPE_INTEGER'],
      ['keyEvents:purchase', 'TYPE_INTEGER'],
      ['taxAmount', 'TYPE_CURRENCY'],
    ])
    expect(report.rows!.length).toBeGreaterThan(1)
    for (const row of report.rows!) {
      expect(row.dimensionValues![1]!.value).toBe('(not set)')
      expect(row.metricValues![2]!.value).toBe('0')
    }
    expect(report.rows!.map((r) => r.dimensionValues![0]!.value)).toContain('Organic Search')
  })
})
