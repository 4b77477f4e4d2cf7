import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../../support/sandbox.js'
import { enc, searchUser, type SearchUser } from './client.js'

/**
 * Malformed input is the caller's error, never a crash: whatever the body of a query or an
 * inspection and whatever the path, the search API answers 200 or a 4xx in its error shape.
 */

const sandbox = sandboxForSuite()
let user: SearchUser
beforeAll(async () => {
  user = await searchUser(sandbox, ['webmasters'], 'robust')
})

const near = <T>(good: fc.Arbitrary<T>) => fc.oneof(good, fc.jsonValue())
const dateText = fc.oneof(
  fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.string({ maxLength: 12 }),
)
const filter = fc.record(
  {
    dimension: near(
      fc.constantFrom('query', 'page', 'country', 'device', 'searchAppearance', 'date'),
    ),
    operator: near(
      fc.constantFrom(
        'equals',
        'notContains',
        'includingRegex',
        'excludingRegex',
        'INCLUDING_REGEX',
      ),
    ),
    expression: near(fc.string({ maxLength: 30 })),
  },
  { requiredKeys: [] },
)
const body = fc.record(
  {
    startDate: near(dateText),
    endDate: near(dateText),
    dimensions: near(
      fc.array(near(fc.constantFrom('query', 'page', 'date', 'hour', 'searchAppearance')), {
        maxLength: 4,
      }),
    ),
    type: near(fc.constantFrom('web', 'discover', 'googleNews', 'GOOGLE_NEWS')),
    searchType: near(fc.constantFrom('web', 'image')),
    dimensionFilterGroups: near(
      fc.array(
        fc.record(
          {
            groupType: near(fc.constant('and')),
            filters: near(fc.array(filter, { maxLength: 3 })),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
    ),
    aggregationType: near(fc.constantFrom('auto', 'byPage', 'byProperty', 'byNewsShowcasePanel')),
    rowLimit: near(fc.integer({ min: -5, max: 30_000 })),
    startRow: near(fc.integer({ min: -5, max: 2 ** 32 })),
    dataState: near(fc.constantFrom('final', 'all', 'hourly_all')),
  },
  { requiredKeys: [] },
)

const answered = (res: { status: number; body: any; text: string }) => {
  expect(res.status, res.text).toBeLessThan(500)
  if (res.status !== 200 && res.status !== 204)
    expect(typeof res.body?.error?.message, res.text).toBe('string')
}

describe('search API robustness (property)', () => {
  it('any analytics body: 200 or a 4xx saying why', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('prefixSite', 'domainSite'), async (b, site) => {
        answered(await user.analytics(b, user[site as 'prefixSite' | 'domainSite']))
      }),
      { numRuns: 150 },
    )
  })

  it('any inspection body, any sitemap path: 200, 204 or a 4xx', async () => {
    const text = fc.oneof(fc.webUrl(), fc.string({ maxLength: 40 }), fc.constant(''))
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            inspectionUrl: near(text),
            siteUrl: near(fc.constantFrom(user.prefixSite, user.domainSite)),
            languageCode: near(fc.string({ maxLength: 8 })),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom(user.prefixSite, user.domainSite, 'x'),
        fc.oneof(fc.webUrl(), fc.string({ minLength: 1, maxLength: 30 })),
        fc.constantFrom('GET', 'PUT'),
        async (inspection, site, feed, method) => {
          answered(await user.call('POST', '/inspect-url', inspection))
          answered(await user.call(method, `/sites/${enc(site)}/sitemaps/${enc(feed)}`))
          answered(await user.call('GET', `/sites/${enc(site)}/sitemaps?sitemapIndex=${enc(feed)}`))
        },
      ),
      { numRuns: 100 },
    )
  })
})
