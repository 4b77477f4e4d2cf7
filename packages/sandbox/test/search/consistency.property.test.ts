import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { daysAgo, searchUser, totals, type SearchUser } from './client.js'
import { OPERATORS } from '../../src/search/analytics/request.js'

/**
 * Consistency of the synthetic data, for random queries: totals equal the sums of their rows,
 * ctr is clicks over impressions, position is impression-weighted, and paging returns each row
 * exactly once. Ranges stay in final data, so the answers cannot move while a property runs.
 */

const sandbox = sandboxForSuite()
let user: SearchUser
beforeAll(async () => {
  user = await searchUser(sandbox, ['webmasters.readonly'], 'property')
})

const DIMENSIONS = ['country', 'device', 'page', 'query', 'date'] as const
const VALUES: Record<string, string[]> = {
  country: ['usa', 'GBR', 'ind', 'deu'],
  device: ['MOBILE', 'desktop', 'TABLET'],
  page: ['/reviews/', '/guides/', 'shop', '/blog/', '.example/'],
  query: ['best', 'how to', 'vs', 'price', 'e'],
  searchAppearance: ['REVIEW_SNIPPET', 'FAQ_RICH_RESULT', 'VIDEO'],
}

const filter = fc.constantFrom(...Object.keys(VALUES)).chain((dimension) =>
  fc.record({
    dimension: fc.constant(dimension),
    operator: fc.constantFrom(...OPERATORS),
    expression: fc.constantFrom(...VALUES[dimension]!),
  }),
)

/** A query grouped by at least `minDimensions` (and at most two) dimensions. */
const queryOf = (minDimensions: 1 | 2) =>
  fc.record({
    site: fc.constantFrom<'prefixSite' | 'domainSite'>('prefixSite', 'domainSite'),
    type: fc.constantFrom('web', 'image', 'video'),
    end: fc.integer({ min: 3, max: 300 }),
    span: fc.integer({ min: 0, max: 60 }),
    dimensions: fc.uniqueArray(fc.constantFrom(...DIMENSIONS), {
      minLength: minDimensions,
      maxLength: 2,
    }),
    filters: fc.array(filter, { maxLength: 2 }),
  })
const query = queryOf(1)

type Query = typeof query extends fc.Arbitrary<infer T> ? T : never

function bodyOf(q: Query, dimensions: readonly string[] = q.dimensions) {
  return {
    startDate: daysAgo(q.end + q.span),
    endDate: daysAgo(q.end),
    type: q.type,
    dimensions,
    dimensionFilterGroups: [{ groupType: 'and', filters: q.filters }],
    rowLimit: 25_000,
  }
}

const RUNS = { numRuns: 40 }

describe('search analytics consistency (property)', () => {
  it('a total (no dimensions) equals the sum of the rows of any grouping, with the same filters', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const site = user[q.site]
        const [total, grouped] = await Promise.all([
          user.query(bodyOf(q, []), site),
          user.query(bodyOf(q), site),
        ])
        const sum = totals(grouped.rows)
        if (!total.rows) {
          expect(grouped.rows).toBeUndefined()
          return
        }
        const row = total.rows[0]!
        expect(row.keys).toBeUndefined()
        expect(sum.clicks).toBe(row.clicks)
        expect(sum.impressions).toBe(row.impressions)
        expect(sum.position).toBeCloseTo(row.position, 9)
      }),
      RUNS,
    )
  })

  it('every row: ctr = clicks / impressions, clicks <= impressions, position at least 1', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const answer = await user.query(bodyOf(q), user[q.site])
        for (const row of answer.rows ?? []) {
          expect(row.ctr).toBe(row.clicks / row.impressions)
          expect(row.clicks).toBeLessThanOrEqual(row.impressions)
          expect(row.position).toBeGreaterThanOrEqual(1)
          expect(row.keys).toHaveLength(q.dimensions.length)
        }
      }),
      RUNS,
    )
  })

  it('position is impression-weighted: a coarser grouping is the weighted mean of a finer one', async () => {
    // Two dimensions, so the finer grouping is not the coarser one itself.
    await fc.assert(
      fc.asyncProperty(queryOf(2), async (q) => {
        const site = user[q.site]
        const [coarse, fine] = await Promise.all([
          user.query(bodyOf(q, q.dimensions.slice(0, 1)), site),
          user.query(bodyOf(q), site),
        ])
        const parts = new Map<string, { clicks: number; impressions: number; weighted: number }>()
        for (const row of fine.rows ?? []) {
          const key = row.keys![0]!
          const p = parts.get(key) ?? { clicks: 0, impressions: 0, weighted: 0 }
          p.clicks += row.clicks
          p.impressions += row.impressions
          p.weighted += row.position * row.impressions
          parts.set(key, p)
        }
        expect(parts.size).toBe(coarse.rows?.length ?? 0)
        for (const row of coarse.rows ?? []) {
          const p = parts.get(row.keys![0]!)!
          expect(p.clicks).toBe(row.clicks)
          expect(p.impressions).toBe(row.impressions)
          expect(p.weighted / p.impressions).toBeCloseTo(row.position, 9)
        }
      }),
      RUNS,
    )
  })

  it('paging with startRow and rowLimit returns each row exactly once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 1, max: 400 }), async (q, pageSize) => {
        const site = user[q.site]
        const all = (await user.query(bodyOf(q), site)).rows ?? []
        const pages = Math.min(8, Math.ceil(all.length / pageSize) + 1)
        const seen = []
        for (let page = 0; page < pages; page++) {
          const answer = await user.query(
            { ...bodyOf(q), rowLimit: pageSize, startRow: page * pageSize },
            site,
          )
          if (page * pageSize >= all.length) expect(answer.rows).toBeUndefined()
          seen.push(...(answer.rows ?? []))
        }
        expect(seen).toEqual(all.slice(0, pages * pageSize))
        const keys = new Set(all.map((row) => JSON.stringify(row.keys)))
        expect(keys.size).toBe(all.length)
      }),
      { numRuns: 25 },
    )
  })
})
