import { describe, expect, it } from 'vitest'
import { metadataTable, metadataTableOf } from '../../../src/services/analytics/metadata-table.js'

/**
 * A property's metadata as the model reads it, entry by entry, including what a real property
 * may leave out (through the connector, on the sandbox's real-size metadata: tools.test.ts).
 */

const answer = {
  name: 'properties/1/metadata',
  dimensions: [
    { apiName: 'date', uiName: 'Date', description: 'YYYYMMDD.', category: 'Time' },
    {
      apiName: 'countryId',
      uiName: 'Country ID',
      description: 'ISO 3166-1 alpha-2.',
      deprecatedApiNames: ['countryIsoCode'],
      category: 'Geography',
    },
    {
      apiName: 'customEvent:plan',
      uiName: 'Plan',
      description: 'Event-scoped.',
      customDefinition: true,
      category: 'Custom',
    },
    { apiName: 'noCategory' },
  ],
  metrics: [
    {
      apiName: 'screenPageViews',
      uiName: 'Views',
      description: 'Views.',
      type: 'TYPE_INTEGER',
      category: 'Page / Screen',
    },
    {
      apiName: 'advertiserAdCost',
      uiName: 'Ads cost',
      type: 'TYPE_CURRENCY',
      blockedReasons: ['NO_COST_METRICS'],
      category: 'Other',
    },
    {
      apiName: 'customEvent:points',
      uiName: 'Points',
      type: 'TYPE_FLOAT',
      expression: 'points/1',
      customDefinition: true,
      category: 'Custom',
      somethingNew: 1,
    },
    { apiName: 'untyped', uiName: 'Untyped', category: 'Other' },
  ],
}

const shown = (args: Record<string, unknown>) => {
  const table = metadataTableOf(answer, args)
  expect(metadataTable.safeParse(table).success).toBe(true)
  return table as Record<string, any>
}

describe('a property’s metadata as the model reads it', () => {
  it('without a filter: rows by category, uiName only where it says more, custom and blocked named', () => {
    expect(shown({})).toEqual({
      columns: { dimensions: ['apiName', 'uiName'], metrics: ['apiName', 'type', 'uiName'] },
      custom: ['customEvent:plan', 'customEvent:points'],
      blocked: { NO_COST_METRICS: ['advertiserAdCost'] },
      more: expect.stringMatching(/names \(up to 50\), category or search/),
      dimensions: {
        '(none)': [['noCategory']],
        Custom: [['customEvent:plan', 'Plan']],
        Geography: [['countryId']],
        Time: [['date']],
      },
      metrics: {
        Custom: [['customEvent:points', 'float', 'Points']],
        Other: [
          ['advertiserAdCost', 'currency', 'Ads cost'],
          ['untyped', 'standard'],
        ],
        'Page / Screen': [['screenPageViews', 'integer', 'Views']],
      },
    })
  })

  it('with names: the entries whole (a deprecated name finds its entry), unknown ones named', () => {
    expect(shown({ names: ['countryIsoCode', 'customEvent:points', 'sreenPageViews'] })).toEqual({
      matches: 2,
      notFound: { sreenPageViews: ['screenPageViews'] },
      dimensions: [answer.dimensions[1]],
      metrics: [
        {
          apiName: 'customEvent:points',
          uiName: 'Points',
          type: 'float',
          expression: 'points/1',
          customDefinition: true,
          category: 'Custom',
        },
      ],
    })
  })

  it('by category (any case) and search (every word): dimensions and metrics alike', () => {
    const custom = shown({ category: 'custom' })
    expect(custom.matches).toBe(2)
    expect(custom.dimensions.map((d: any) => d.apiName)).toEqual(['customEvent:plan'])
    expect(custom.metrics.map((m: any) => m.apiName)).toEqual(['customEvent:points'])
    expect(shown({ search: 'ALPHA-2 country' }).dimensions).toEqual([answer.dimensions[1]])
    expect(shown({ search: 'views', category: 'Time' }).matches).toBe(0)
    expect(shown({ category: 'Weather' }).categories).toEqual([
      '(none)',
      'Custom',
      'Geography',
      'Other',
      'Page / Screen',
      'Time',
    ])
  })

  it('pages of 50 with nextOffset; the last page names none', () => {
    const many = {
      dimensions: Array.from({ length: 120 }, (_, i) => ({ apiName: `d${i}`, category: 'Big' })),
    }
    const page = (offset?: number) => metadataTableOf(many, { category: 'Big', offset })
    expect(page()).toMatchObject({ matches: 120, nextOffset: 50 })
    expect(page(100)).toMatchObject({ matches: 120, dimensions: many.dimensions.slice(100) })
    expect(page(100).nextOffset).toBeUndefined()
    expect(page(500)).toEqual({ matches: 120, dimensions: [], metrics: [] })
  })
})
