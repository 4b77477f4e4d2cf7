import { describe, expect, it } from 'vitest'
import { pathParamsOf } from '../../../src/services/definition.js'
import { toolJsonSchema } from '../../../src/services/json-schema.js'
import { SEARCH_TOOLS } from '../../../src/services/search/index.js'
import { SERVICE_TOOLS } from '../../../src/services/tools.js'

/** The tool table for the search service, in its order, with its scopes. */
const SEED = [
  ['get_site', 'GET', '/sites/{siteUrl}', 'webmasters.readonly', undefined],
  ['inspect_url', 'POST', '/inspect-url', 'webmasters.readonly', undefined],
  ['list_sitemaps', 'GET', '/sites/{siteUrl}/sitemaps', 'webmasters.readonly', undefined],
  ['list_sites', 'GET', '/sites', 'webmasters.readonly', undefined],
  [
    'query_search_analytics',
    'POST',
    '/sites/{siteUrl}/search-analytics',
    'webmasters.readonly',
    undefined,
  ],
  ['submit_sitemap', 'PUT', '/sites/{siteUrl}/sitemaps/{feedpath}', 'webmasters', 'auth-token'],
] as const

const tool = (name: string) => SEARCH_TOOLS.find((t) => t.name === name)!
const SITE = 'https://www.example.com/'
const RANGE = { siteUrl: SITE, startDate: '2026-01-01', endDate: '2026-01-31' }

/** The one message a refusal gives, as the MCP layer puts it together. */
function refusal(name: string, args: unknown): string {
  const parsed = tool(name).input.safeParse(args)
  expect(parsed.success, `${name} accepted ${JSON.stringify(args)}`).toBe(false)
  return parsed.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
}

describe('search tool definitions', () => {
  it('are exactly the tool table’s six tools, in its order, with its methods, paths, scopes and approval', () => {
    expect(SEARCH_TOOLS.map((t) => [t.name, t.method, t.path, t.scope, t.approval?.mode])).toEqual(
      SEED.map((row) => [...row]),
    )
    for (const t of SEARCH_TOOLS) expect(t.service).toBe('search')
    expect(SERVICE_TOOLS.search).toBe(SEARCH_TOOLS)
  })

  it('reads are read-only and idempotent; submit_sitemap is a change, idempotent, not destructive', () => {
    for (const t of SEARCH_TOOLS.filter((t) => t.name !== 'submit_sitemap')) {
      expect(t.annotations).toEqual({ readOnlyHint: true, idempotentHint: true })
      expect(t.idempotent).toBe(true)
      expect(t.approval).toBeUndefined()
    }
    const submit = tool('submit_sitemap')
    expect(submit.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    })
    expect(submit.idempotent).toBe(true)
    expect(submit.body).toBe('none')
  })

  it('flat inputs: path parameters, query and body fields side by side, as JSON Schema', () => {
    const expected: Record<string, { query: string[]; required: string[]; fields: string[] }> = {
      get_site: { query: [], required: ['siteUrl'], fields: ['siteUrl'] },
      inspect_url: {
        query: [],
        required: ['inspectionUrl', 'siteUrl'],
        fields: ['inspectionUrl', 'siteUrl', 'languageCode'],
      },
      list_sitemaps: {
        query: ['sitemapIndex'],
        required: ['siteUrl'],
        fields: ['siteUrl', 'sitemapIndex'],
      },
      list_sites: { query: [], required: [], fields: [] },
      query_search_analytics: {
        query: [],
        required: ['siteUrl', 'startDate', 'endDate'],
        fields: [
          'siteUrl',
          'startDate',
          'endDate',
          'dimensions',
          'type',
          'dimensionFilterGroups',
          'aggregationType',
          'rowLimit',
          'startRow',
          'dataState',
        ],
      },
      submit_sitemap: {
        query: [],
        required: ['siteUrl', 'feedpath'],
        fields: ['siteUrl', 'feedpath'],
      },
    }
    for (const t of SEARCH_TOOLS) {
      const want = expected[t.name]!
      expect([...t.query]).toEqual(want.query)
      expect(Object.keys(t.input.shape)).toEqual(want.fields)
      for (const name of pathParamsOf(t.path)) expect(want.fields).toContain(name)
      const schema = toolJsonSchema(t.input, 'input') as {
        required?: string[]
        additionalProperties?: boolean
      }
      expect(schema.required ?? []).toEqual(want.required)
      expect(schema.additionalProperties).toBe(false)
      expect(toolJsonSchema(t.output, 'output')).toMatchObject({ type: 'object' })
    }
    const query = toolJsonSchema(tool('query_search_analytics').input, 'input') as any
    expect(query.properties.rowLimit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 25000,
      default: 100,
    })
    expect(query.properties.startRow).toMatchObject({ type: 'integer', minimum: 0 })
    expect(query.properties.type.enum).toEqual([
      'web',
      'image',
      'video',
      'news',
      'discover',
      'googleNews',
    ])
    expect(query.properties.dataState.enum).toEqual(['final', 'all', 'hourly_all'])
    expect(query.properties.aggregationType.enum).toEqual([
      'auto',
      'byPage',
      'byProperty',
      'byNewsShowcasePanel',
    ])
    expect(query.properties.startDate).toMatchObject({ type: 'string', format: 'date' })
  })

  it('descriptions tell a model the pitfalls: site forms, trailing slash, delay, ctr, position, paging', () => {
    const text = tool('query_search_analytics').description
    for (const words of [
      'sc-domain:example.com',
      'ends with "/"',
      'about 3 days ago',
      'a fraction: 0.05 is 5%',
      'impression-weighted',
      'paths on pageOrigin',
      '100 rows by default (rowLimit, up to 25,000)',
      'call again with it as startRow',
    ])
      expect(text).toContain(words)
    // The filters' rules are in the fields they concern.
    const input = JSON.stringify(toolJsonSchema(tool('query_search_analytics').input, 'input'))
    for (const words of ['RE2', 'alpha-3', 'DESKTOP', 'byProperty (not with page)', 'hourly_all'])
      expect(input).toContain(words)
    expect(tool('list_sites').description).toContain('unchanged')
    expect(tool('submit_sitemap').description).toContain('only after they approve')
  })
})

describe('search tool inputs: refused before anything is sent, saying what to change', () => {
  it.each([
    ['get_site', {}, /siteUrl: siteUrl is required: give a site from list_sites/],
    [
      'get_site',
      { siteUrl: 'https://www.example.com' },
      /lacks its trailing slash: URL-prefix sites end with "\/", so write "https:\/\/www\.example\.com\/"/,
    ],
    [
      'get_site',
      { siteUrl: 'example.com' },
      /write "sc-domain:example\.com" for a domain property, or "https:\/\/example\.com\/" for a URL-prefix site/,
    ],
    [
      'get_site',
      { siteUrl: 'sc-domain:https://example.com/' },
      /after sc-domain: comes a domain name only/,
    ],
    ['get_site', { siteUrl: 'https://www.example.com/?a=1' }, /must not have a query/],
    ['get_site', { siteUrl: SITE, extra: 1 }, /get_site does not take "extra": remove it/],
    [
      'inspect_url',
      { siteUrl: SITE, inspectionUrl: 'https://other.example/x' },
      /inspectionUrl "https:\/\/other\.example\/x" is not within the site https:\/\/www\.example\.com\/, which holds addresses starting with/,
    ],
    [
      'inspect_url',
      { siteUrl: 'sc-domain:example.com', inspectionUrl: 'https://example.com.evil.example/' },
      /which holds every address on example\.com and its subdomains/,
    ],
    [
      'inspect_url',
      { siteUrl: SITE, inspectionUrl: '/relative' },
      /inspectionUrl must be a full http or https URL, .*: put the table’s pageOrigin before a path/,
    ],
    ['inspect_url', { siteUrl: SITE, inspectionUrl: SITE, languageCode: 'english' }, /BCP-47/],
    [
      'list_sitemaps',
      { siteUrl: SITE, sitemapIndex: 'https://other.example/sitemap.xml' },
      /sitemapIndex .* is not within the site/,
    ],
    [
      'submit_sitemap',
      { siteUrl: SITE, feedpath: 'https://other.example/sitemap.xml' },
      /feedpath .* is not within the site/,
    ],
    ['submit_sitemap', { siteUrl: SITE }, /feedpath is required/],
    [
      'query_search_analytics',
      { siteUrl: SITE, startDate: '2026-01-01' },
      /endDate is required: give a date as YYYY-MM-DD/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, startDate: '2026-02-30' },
      /startDate must be a real date as YYYY-MM-DD, such as 2026-03-31; got "2026-02-30"/,
    ],
    ['query_search_analytics', { ...RANGE, endDate: '31/01/2026' }, /endDate must be a real date/],
    [
      'query_search_analytics',
      { ...RANGE, startDate: '2026-02-01' },
      /startDate 2026-02-01 is after endDate 2026-01-31: give a startDate on or before endDate/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, dimensions: ['keyword'] },
      /dimensions must be one of "query", "page", "country", "device", "searchAppearance", "date", "hour"/,
    ],
    ['query_search_analytics', { ...RANGE, dimensions: ['query', 'query'] }, /names "query" twice/],
    [
      'query_search_analytics',
      { ...RANGE, dimensions: ['searchAppearance', 'page'] },
      /searchAppearance cannot be grouped with other dimensions/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, dimensions: ['hour'] },
      /grouping by hour needs dataState "hourly_all"/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, type: 'shopping' },
      /type must be one of "web", "image", "video", "news", "discover", "googleNews"/,
    ],
    ['query_search_analytics', { ...RANGE, searchType: 'web' }, /does not take "searchType"/],
    [
      'query_search_analytics',
      { ...RANGE, dataState: 'fresh' },
      /dataState must be one of "final", "all", "hourly_all"/,
    ],
    ['query_search_analytics', { ...RANGE, rowLimit: 0 }, /rowLimit must be at least 1/],
    [
      'query_search_analytics',
      { ...RANGE, rowLimit: 25001 },
      /rowLimit must be at most 25000: page with startRow for more rows/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, rowLimit: 10.5 },
      /rowLimit must be a whole number from 1 to 25000/,
    ],
    ['query_search_analytics', { ...RANGE, startRow: -1 }, /startRow must be 0 or more/],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [{ filters: [{ dimension: 'page', expression: '/blog/' }] }],
      },
      /page values are full URLs: give pageOrigin followed by "\/blog\/", such as https:\/\/www\.example\.com\/blog\/, or use operator contains/,
    ],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [
          { filters: [{ dimension: 'page', operator: 'includingRegex', expression: '^/blog/' }] },
        ],
      },
      /page values are full URLs, so \^\/ never matches/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, aggregationType: 'byProperty', dimensions: ['page'] },
      /"byProperty" cannot be used when grouping or filtering by page/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, aggregationType: 'byNewsShowcasePanel' },
      /needs type "discover" or "googleNews"/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, dimensionFilterGroups: [{ filters: [{ dimension: 'date', expression: 'x' }] }] },
      /dimension must be one of "query", "page", "country", "device", "searchAppearance"/,
    ],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [
          { filters: [{ dimension: 'query', operator: 'like', expression: 'x' }] },
        ],
      },
      /operator must be one of "equals", "notEquals"/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, dimensionFilterGroups: [{ filters: [{ dimension: 'query', expression: '' }] }] },
      /expression must not be empty/,
    ],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [
          { filters: [{ dimension: 'query', operator: 'includingRegex', expression: 'a(?=b)' }] },
        ],
      },
      /RE2 syntax has no lookahead or lookbehind/,
    ],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [
          { filters: [{ dimension: 'query', operator: 'excludingRegex', expression: '(a)\\1' }] },
        ],
      },
      /RE2 syntax has no backreferences/,
    ],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [
          { groupType: 'or', filters: [{ dimension: 'query', expression: 'a' }] },
        ],
      },
      /groupType must be "and"/,
    ],
    [
      'query_search_analytics',
      { ...RANGE, dimensionFilterGroups: [{ filters: [] }] },
      /filters must hold at least one filter/,
    ],
    [
      'query_search_analytics',
      {
        ...RANGE,
        dimensionFilterGroups: [{ filters: [{ dimension: 'query', expression: 'a', not: true }] }],
      },
      /a filter has dimension, operator and expression only: remove "not"/,
    ],
  ])('%s %j', (name, args, says) => {
    expect(refusal(name, args)).toMatch(says)
  })

  it('accepts what the real API accepts', () => {
    const ok = (name: string, args: Record<string, unknown>) => {
      const parsed = tool(name).input.safeParse(args)
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
      // No transform: what validates is what is sent, with the tool's own page size where none
      // is given (the description says 100 rows).
      const sized = name === 'query_search_analytics' ? { rowLimit: 100, ...args } : args
      expect(parsed.data).toEqual(sized)
    }
    ok('list_sites', {})
    ok('get_site', { siteUrl: 'sc-domain:example.com' })
    ok('get_site', { siteUrl: 'http://example.com/blog/' })
    ok('inspect_url', {
      siteUrl: 'sc-domain:example.com',
      inspectionUrl: 'http://shop.example.com/a?b=c',
      languageCode: 'de-CH',
    })
    ok('list_sitemaps', { siteUrl: SITE, sitemapIndex: `${SITE}sitemap.xml` })
    ok('submit_sitemap', {
      siteUrl: 'sc-domain:example.com',
      feedpath: 'https://blog.example.com/feed.xml',
    })
    ok('query_search_analytics', {
      ...RANGE,
      dimensions: ['query', 'date'],
      type: 'image',
      dimensionFilterGroups: [
        {
          groupType: 'and',
          filters: [
            { dimension: 'country', expression: 'usa' },
            { dimension: 'query', operator: 'includingRegex', expression: '(?i)^(best|top) ' },
            { dimension: 'page', operator: 'contains', expression: '/blog/' },
            { dimension: 'page', expression: 'https://www.example.com/blog/' },
          ],
        },
      ],
      aggregationType: 'auto',
      rowLimit: 25000,
      startRow: 50000,
      dataState: 'all',
    })
    ok('query_search_analytics', { ...RANGE, dimensions: ['hour'], dataState: 'hourly_all' })
    ok('query_search_analytics', {
      ...RANGE,
      type: 'discover',
      aggregationType: 'byNewsShowcasePanel',
      dimensionFilterGroups: [
        { filters: [{ dimension: 'searchAppearance', expression: 'NEWS_SHOWCASE' }] },
      ],
    })
  })

  it('query_search_analytics: dimensions [] and dimensionFilterGroups [] are none, as forms send them', () => {
    const query = tool('query_search_analytics').input
    expect(query.parse({ ...RANGE, dimensions: [], dimensionFilterGroups: [] })).toEqual(
      query.parse(RANGE),
    )
    expect(query.parse(RANGE)).toEqual({ ...RANGE, rowLimit: 100 })
  })

  it('lengths in characters, as the listing’s maxLength counts them: an emoji is one', () => {
    const filter = (expression: string) => ({
      ...RANGE,
      dimensionFilterGroups: [{ filters: [{ dimension: 'query', expression }] }],
    })
    expect(tool('query_search_analytics').input.safeParse(filter('😀'.repeat(4096))).success).toBe(
      true,
    )
    expect(refusal('query_search_analytics', filter('😀'.repeat(4097)))).toMatch(
      /expression must be at most 4096 characters/,
    )
  })

  it('submit_sitemap: a bodiless answer stands for the submission, and fits the output schema', () => {
    const submit = tool('submit_sitemap')
    const args = { siteUrl: SITE, feedpath: `${SITE}sitemap.xml` }
    const result = submit.answerWithoutBody!(submit.input.parse(args))
    expect(result).toEqual({ ...args, submitted: true })
    expect(submit.output.safeParse(result).success).toBe(true)
  })
})
