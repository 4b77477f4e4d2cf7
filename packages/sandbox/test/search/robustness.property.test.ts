import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { FILTER_DIMENSIONS, OPERATORS } from '../../src/search/analytics/request.js'
import { daysAgo, enc, searchUser, type SearchUser } from './client.js'

/**
 * Malformed input is the caller's error, never a crash: whatever the body of a query or an
 * inspection and whatever the path, the search API answers 200 or a 4xx in its error shape.
 */

const sandbox = sandboxForSuite()
let user: SearchUser
beforeAll(async () => {
  user = await searchUser(sandbox, ['webmasters'], 'robust')
})

/**
 * Each body starts valid, so most reach the query engine (RE2 filters, paging, aggregation,
 * hourly data); then at most one field is overwritten with any JSON value, or removed.
 */
const corrupt = <T extends Record<string, unknown>>(valid: fc.Arbitrary<T>, keys: string[]) =>
  fc
    .tuple(
      valid,
      fc.option(
        fc.tuple(fc.constantFrom(...keys), fc.oneof(fc.jsonValue(), fc.constant(undefined))),
        { freq: 2 },
      ),
    )
    .map(([b, change]): Record<string, unknown> => {
      if (!change) return b
      const [key, value] = change
      const copy: Record<string, unknown> = { ...b }
      if (value === undefined) delete copy[key]
      else copy[key] = value
      return copy
    })

const EXPRESSIONS: Record<string, string[]> = {
  country: ['usa', 'GBR', 'ind', 'deu'],
  device: ['MOBILE', 'desktop', 'TABLET'],
  page: ['/reviews/', '/guides/', 'shop', '/blog/', '.example/', '^https://www\\.', '(a|b)+$'],
  query: ['best', 'how to', 'vs', 'price', 'e', '^how', '.*(vs|price).*', '[a-'],
  searchAppearance: ['REVIEW_SNIPPET', 'FAQ_RICH_RESULT', 'VIDEO', 'NEWS_SHOWCASE'],
}
const filter = fc.constantFrom(...FILTER_DIMENSIONS).chain((dimension) =>
  fc.record({
    dimension: fc.constant(dimension),
    operator: fc.constantFrom(...OPERATORS),
    // Random text as a regex reaches RE2: most compile, some do not (a 400, never a 5xx).
    expression: fc.oneof(fc.constantFrom(...EXPRESSIONS[dimension]!), fc.string({ maxLength: 30 })),
  }),
)
const GROUPINGS = ['query', 'page', 'date', 'hour', 'country', 'device'] as const
const BODY_KEYS = [
  'startDate',
  'endDate',
  'dimensions',
  'type',
  'searchType',
  'dimensionFilterGroups',
  'aggregationType',
  'rowLimit',
  'startRow',
  'dataState',
]
const validBody = fc
  .record({
    end: fc.integer({ min: 0, max: 600 }),
    span: fc.integer({ min: 0, max: 40 }),
    dimensions: fc.oneof(
      {
        weight: 5,
        arbitrary: fc.uniqueArray(fc.constantFrom<string>(...GROUPINGS), { maxLength: 3 }),
      },
      { weight: 1, arbitrary: fc.constant<string[]>(['searchAppearance']) },
    ),
    type: fc.option(fc.constantFrom('web', 'image', 'video', 'news', 'WEB'), { nil: undefined }),
    filters: fc.array(filter, { maxLength: 3 }),
    aggregationType: fc.constantFrom('auto', 'byPage', 'byProperty'),
    rowLimit: fc.integer({ min: 1, max: 25_000 }),
    startRow: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
    dataState: fc.constantFrom('final', 'all', 'hourly_all'),
  })
  .map((v) => {
    const hourly = v.dimensions.includes('hour')
    // Grouping by hour needs hourly_all and a start in the last ten days.
    const end = hourly ? v.end % 5 : v.end
    const span = hourly ? v.span % 5 : v.span
    const byPage = v.dimensions.includes('page') || v.filters.some((f) => f.dimension === 'page')
    return {
      startDate: daysAgo(end + span),
      endDate: daysAgo(end),
      dimensions: v.dimensions,
      ...(v.type !== undefined && { type: v.type }),
      dimensionFilterGroups: [{ groupType: 'and', filters: v.filters }],
      aggregationType: v.aggregationType === 'byProperty' && byPage ? 'auto' : v.aggregationType,
      rowLimit: v.rowLimit,
      startRow: v.startRow,
      dataState: hourly ? 'hourly_all' : v.dataState,
    }
  })
const body = corrupt(validBody, BODY_KEYS)

const answered = (res: { status: number; body: any; text: string }) => {
  expect(res.status, res.text).toBeLessThan(500)
  if (res.status !== 200) expect(typeof res.body?.error?.message, res.text).toBe('string')
}

describe('search API robustness (property)', () => {
  it('any analytics body: 200 or a 4xx saying why', async () => {
    let ok = 0
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('prefixSite', 'domainSite'), async (b, site) => {
        const res = await user.analytics(b, user[site as 'prefixSite' | 'domainSite'])
        answered(res)
        if (res.status === 200) ok++
      }),
      { numRuns: 150 },
    )
    expect(ok).toBeGreaterThan(0)
  })

  it('any inspection body, any sitemap path: 200 or a 4xx', async () => {
    const sites = [user.prefixSite, user.domainSite]
    const hosts = ['www', 'shop', 'blog'].map((h) => `https://${h}.${user.name}.example/`)
    const onSite = fc.oneof(
      fc.webPath().map((p) => user.prefixSite + p.slice(1)),
      fc.tuple(fc.constantFrom(...hosts), fc.webPath()).map(([h, p]) => h + p.slice(1)),
    )
    const text = fc.oneof(onSite, fc.webUrl(), fc.string({ maxLength: 40 }), fc.constant(''))
    const inspection = corrupt(
      fc.record(
        {
          inspectionUrl: fc.oneof({ weight: 3, arbitrary: onSite }, { weight: 1, arbitrary: text }),
          siteUrl: fc.constantFrom(...sites),
          languageCode: fc.constantFrom('en', 'en-US', 'de-CH', 'fr'),
        },
        { requiredKeys: ['inspectionUrl', 'siteUrl'] },
      ),
      ['inspectionUrl', 'siteUrl', 'languageCode'],
    )
    const seeded = [
      'sitemap.xml',
      'sitemap-pages.xml',
      'sitemap-products.xml',
      'sitemap-news.xml',
    ].map((p) => user.prefixSite + p)
    const feedOf = fc.oneof(
      fc.constantFrom(...seeded, `https://blog.${user.name}.example/feed.xml`),
      onSite,
      fc.webUrl(),
      fc.string({ minLength: 1, maxLength: 30 }),
    )
    let inspected = 0
    let fed = 0
    let listed = 0
    await fc.assert(
      fc.asyncProperty(
        inspection,
        fc.constantFrom(...sites, 'x'),
        feedOf,
        fc.constantFrom('GET', 'PUT'),
        async (inspection, site, feed, method) => {
          const res = await user.call('POST', '/inspect-url', inspection)
          answered(res)
          if (res.status === 200) inspected++
          const one = await user.call(method, `/sites/${enc(site)}/sitemaps/${enc(feed)}`)
          answered(one)
          if (one.status === 200) fed++
          const list = await user.call(
            'GET',
            `/sites/${enc(site)}/sitemaps?sitemapIndex=${enc(feed)}`,
          )
          answered(list)
          if (list.status === 200) listed++
        },
      ),
      { numRuns: 100 },
    )
    expect(inspected).toBeGreaterThan(0)
    expect(fed).toBeGreaterThan(0)
    expect(listed).toBeGreaterThan(0)
  })
})
