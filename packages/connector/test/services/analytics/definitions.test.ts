import { describe, expect, it } from 'vitest'
import { ANALYTICS_TOOLS } from '../../../src/services/analytics/index.js'
import { pathParamsOf } from '../../../src/services/definition.js'
import { toolJsonSchema } from '../../../src/services/json-schema.js'
import { SERVICE_TOOLS } from '../../../src/services/tools.js'

/** The tool table for the web-analytics service, in its order. */
const SEED = [
  ['get_metadata', 'GET', '/properties/{propertiesId}/metadata'],
  ['run_realtime_report', 'POST', '/properties/{propertiesId}/realtime-report'],
  ['run_report', 'POST', '/properties/{propertiesId}/report'],
  ['run_reports', 'POST', '/properties/{propertiesId}/reports'],
] as const

/** The body fields of each tool: the real API's request fields. */
const REPORT_FIELDS = [
  'dateRanges',
  'dimensions',
  'metrics',
  'dimensionFilter',
  'metricFilter',
  'offset',
  'limit',
  'metricAggregations',
  'orderBys',
  'keepEmptyRows',
  'currencyCode',
  'returnPropertyQuota',
]
const BODY: Record<string, string[]> = {
  get_metadata: [],
  run_realtime_report: [
    'dimensions',
    'metrics',
    'dimensionFilter',
    'metricFilter',
    'limit',
    'metricAggregations',
    'orderBys',
    'minuteRanges',
    'returnPropertyQuota',
  ],
  run_report: REPORT_FIELDS,
  run_reports: ['requests'],
}
/** Inputs the connector reads itself and never sends: get_metadata's filters. */
const OWN: Record<string, string[]> = { get_metadata: ['names', 'category', 'search', 'offset'] }
const REQUIRED: Record<string, string[]> = {
  get_metadata: ['propertiesId'],
  run_realtime_report: ['metrics', 'propertiesId'],
  run_report: ['dateRanges', 'metrics', 'propertiesId'],
  run_reports: ['propertiesId', 'requests'],
}

const byName = (name: string) => ANALYTICS_TOOLS.find((tool) => tool.name === name)!
/** The input schema as a model reads it in the listing. */
const inputSchema = (name: string) => toolJsonSchema(byName(name).input, 'input') as any

describe('analytics tool definitions', () => {
  it('are exactly the provider’s four tools, in its order, with its methods and paths, registered', () => {
    expect(ANALYTICS_TOOLS.map((t) => [t.name, t.method, t.path])).toEqual(
      SEED.map((row) => [...row]),
    )
    expect(SERVICE_TOOLS.analytics).toBe(ANALYTICS_TOOLS)
    for (const tool of ANALYTICS_TOOLS) expect(tool.service).toBe('analytics')
  })

  it.each(SEED)('%s: a read with analytics.readonly, no approval', (name) => {
    const tool = byName(name)
    expect(tool.scope).toBe('analytics.readonly')
    expect(tool.approval).toBeUndefined()
    expect(tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true })
    expect(tool.idempotent).toBe(true)
  })

  it.each(SEED)(
    '%s: propertiesId in the path, the API’s body fields beside it, no query',
    (name) => {
      const tool = byName(name)
      expect(pathParamsOf(tool.path)).toEqual(['propertiesId'])
      expect(tool.query).toEqual([])
      const own = OWN[name] ?? []
      const inputs = Object.keys(tool.input.shape).filter((f) => f !== 'propertiesId')
      expect(inputs.filter((f) => own.includes(f))).toEqual(own)
      const sent = inputs.filter((f) => !own.includes(f))
      expect(sent.sort()).toEqual([...BODY[name]!].sort())
      expect(tool.body).toBe(sent.length ? 'rest' : 'none')
    },
  )

  it.each(SEED)('%s: schemas convert to JSON Schema a model can read', (name) => {
    const input = inputSchema(name)
    expect(input.type).toBe('object')
    expect(input.additionalProperties).toBe(false)
    expect((input.required ?? []).sort()).toEqual(REQUIRED[name])
    for (const [field, schema] of Object.entries<any>(input.properties))
      expect(schema.description, `${name}.${field}`).toMatch(/\w/)
    const output = toolJsonSchema(byName(name).output, 'output')
    expect(output.type).toBe('object')
    expect(byName(name).title).toMatch(/^[A-Z]/)
  })

  it('run_reports takes run_report’s fields for each request, shown once, in run_report', () => {
    const requests = inputSchema('run_reports').properties.requests
    expect(requests.maxItems).toBe(5)
    expect(requests.items).toEqual({
      type: 'object',
      description: 'run_report’s fields, without propertiesId.',
    })
    // Shown in brief, still validated in full: each request is run_report's fields, no other.
    const checked = byName('run_reports').input.safeParse({
      propertiesId: '1',
      requests: [{ dateRanges: [{ startDate: 'today', endDate: 'today' }], limit: 0, sort: 1 }],
    })
    expect(checked.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'requests.0',
      'requests.0.limit',
      'requests.0.metrics',
    ])
  })

  it('filters: one recursive FilterExpression, told in words, with no $ref a host cannot read', () => {
    for (const tool of ANALYTICS_TOOLS) {
      const json = JSON.stringify(inputSchema(tool.name))
      expect(json).not.toMatch(/\$ref|\$defs|\$schema/)
    }
    const { dimensionFilter, metricFilter } = inputSchema('run_report').properties
    expect(dimensionFilter.type).toBe('object')
    expect(dimensionFilter.properties).toBeUndefined()
    for (const kind of [
      'andGroup',
      'orGroup',
      'notExpression',
      'fieldName',
      'stringFilter',
      'inListFilter',
      'numericFilter',
      'betweenFilter',
      'emptyFilter',
    ])
      expect(dimensionFilter.description).toContain(kind)
    expect(metricFilter.description).toMatch(/numericFilter or betweenFilter/)
  })

  it('the descriptions say what a model needs: paging, relative dates, strings, compatibility, delay', () => {
    const text = byName('run_report').description
    expect(text).toMatch(/rowCount/)
    expect(text).toMatch(/100 rows by default \(limit, up to 250,000\)/)
    expect(text).toMatch(/nextOffset, call again with it as offset/)
    expect(text).toMatch(/NdaysAgo/)
    expect(text).toMatch(/table/)
    expect(text).toMatch(/customEvent:/)
    expect(text).toMatch(/itemName/)
    expect(text).toMatch(/today and yesterday may still be incomplete/)
    expect(text).toMatch(/get_metadata/)
    expect(byName('run_realtime_report').description).toMatch(/last 30 minutes/)
    expect(byName('run_realtime_report').description).toMatch(/minutesAgo/)
    expect(byName('run_reports').description).toMatch(/1 to 5 reports/)
    const metadata = byName('get_metadata').description
    expect(metadata).toMatch(/Without a filter: every apiName, as rows by category/)
    expect(metadata).toMatch(/With names, category or search .*50 a page \(nextOffset/)
    expect(metadata).toMatch(/a deprecated name works too/)
    for (const tool of ANALYTICS_TOOLS)
      expect(Buffer.byteLength(tool.description)).toBeLessThanOrEqual(2048)
  })
})
