import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { expectInvalid, searchUser, SETTLED, totals, type Row, type SearchUser } from './client.js'

const sandbox = sandboxForSuite()

type Filter = { dimension: string; operator?: string; expression: string }
const where = (...filters: Filter[]) => ({ dimensionFilterGroups: [{ groupType: 'and', filters }] })
const keysOf = (rows: Row[] = []) => rows.map((r) => r.keys![0]!)

/** Every value of a dimension, and the rows a filter on it keeps. */
async function filtered(user: SearchUser, dimension: string, ...filters: Filter[]) {
  const all = (await user.query({ ...SETTLED, dimensions: [dimension], rowLimit: 25000 })).rows!
  const kept =
    (
      await user.query({
        ...SETTLED,
        dimensions: [dimension],
        rowLimit: 25000,
        ...where(...filters),
      })
    ).rows ?? []
  return { all: keysOf(all), kept: keysOf(kept), rows: kept }
}

describe('search analytics: filters', () => {
  it('equals and notEquals: the one value, and everything else (case does not matter)', async () => {
    const user = await searchUser(sandbox)
    const { all } = await filtered(user, 'query')
    const target = all[3]!
    const equal = await filtered(user, 'query', {
      dimension: 'query',
      operator: 'equals',
      expression: target.toUpperCase(),
    })
    expect(equal.kept).toEqual([target])
    const other = await filtered(user, 'query', {
      dimension: 'query',
      operator: 'notEquals',
      expression: target,
    })
    expect(other.kept.sort()).toEqual(all.filter((q) => q !== target).sort())
    // equals is the default operator.
    expect(
      (await filtered(user, 'query', { dimension: 'query', expression: target })).kept,
    ).toEqual([target])
  })

  it('contains and notContains split the data in two', async () => {
    const user = await searchUser(sandbox)
    const { all } = await filtered(user, 'query')
    const part = 'best'
    const yes = await filtered(user, 'query', {
      dimension: 'query',
      operator: 'contains',
      expression: 'BEST',
    })
    const no = await filtered(user, 'query', {
      dimension: 'query',
      operator: 'notContains',
      expression: part,
    })
    expect(yes.kept.length).toBeGreaterThan(0)
    expect(yes.kept.every((q) => q.includes(part))).toBe(true)
    expect(no.kept.every((q) => !q.includes(part))).toBe(true)
    expect([...yes.kept, ...no.kept].sort()).toEqual([...all].sort())
    const total = (await user.query(SETTLED)).rows![0]!
    const [a, b] = [
      (
        await user.query({
          ...SETTLED,
          ...where({ dimension: 'query', operator: 'contains', expression: part }),
        })
      ).rows![0]!,
      (
        await user.query({
          ...SETTLED,
          ...where({ dimension: 'query', operator: 'notContains', expression: part }),
        })
      ).rows![0]!,
    ]
    expect(a.clicks + b.clicks).toBe(total.clicks)
    expect(a.impressions + b.impressions).toBe(total.impressions)
  })

  it('includingRegex and excludingRegex: RE2 syntax, found anywhere in the value', async () => {
    const user = await searchUser(sandbox)
    const { all } = await filtered(user, 'query')
    const re = /^(how|is) /
    const including = await filtered(user, 'query', {
      dimension: 'query',
      operator: 'includingRegex',
      expression: '^(how|is) ',
    })
    const excluding = await filtered(user, 'query', {
      dimension: 'query',
      operator: 'excludingRegex',
      expression: '^(how|is) ',
    })
    expect(including.kept.sort()).toEqual(all.filter((q) => re.test(q)).sort())
    expect(excluding.kept.sort()).toEqual(all.filter((q) => !re.test(q)).sort())
    expect(including.kept.length).toBeGreaterThan(0)
    // Case-sensitive unless (?i), RE2's way; RE2's \A and named groups are understood.
    expect(
      (
        await filtered(user, 'query', {
          dimension: 'query',
          operator: 'includingRegex',
          expression: '^HOW ',
        })
      ).kept,
    ).toEqual([])
    expect(
      (
        await filtered(user, 'query', {
          dimension: 'query',
          operator: 'includingRegex',
          expression: '(?i)^HOW ',
        })
      ).kept.sort(),
    ).toEqual(all.filter((q) => q.startsWith('how ')).sort())
    expect(
      (
        await filtered(user, 'query', {
          dimension: 'query',
          operator: 'includingRegex',
          expression: '\\A(?P<verb>how) ',
        })
      ).kept.sort(),
    ).toEqual(all.filter((q) => q.startsWith('how ')).sort())
  })

  it('an invalid regular expression, or one RE2 cannot run: 400 saying why', async () => {
    const user = await searchUser(sandbox)
    const cases: [string, RegExp][] = [
      ['(unclosed', /is not a valid RE2 regular expression/],
      ['[z-a]', /is not a valid RE2 regular expression/],
      ['foo(?=bar)', /no lookahead or lookbehind/],
      ['(?<!x)y', /no lookahead or lookbehind/],
      ['(a)\\1', /no backreferences/],
      ['a(?i)b', /only at the start/],
      ['x'.repeat(5000), /longer than 4096 characters|at most 4096 characters/],
    ]
    for (const [expression, says] of cases) {
      const res = await user.analytics({
        ...SETTLED,
        ...where({ dimension: 'query', operator: 'includingRegex', expression }),
      })
      expect(expectInvalid(res).message).toMatch(says)
    }
  })

  it('a hostile pattern answers at once: RE2 syntax runs in linear time', async () => {
    const user = await searchUser(sandbox)
    const expression = '(a|aa)+(b|.)*(.*)*$x'
    const res = await user.analytics({
      ...SETTLED,
      ...where({ dimension: 'page', operator: 'includingRegex', expression }),
    })
    expect(res.status).toBe(200)
  })

  it('country, device, page and searchAppearance filters; several filters all apply', async () => {
    const user = await searchUser(sandbox)
    expect(
      (await filtered(user, 'country', { dimension: 'country', expression: 'USA' })).kept,
    ).toEqual(['usa'])
    expect(
      (await filtered(user, 'device', { dimension: 'device', expression: 'mobile' })).kept,
    ).toEqual(['MOBILE'])
    const pages = await filtered(user, 'page', {
      dimension: 'page',
      operator: 'contains',
      expression: '/reviews/',
    })
    expect(pages.kept.length).toBeGreaterThan(0)
    expect(pages.kept.every((p) => p.includes('/reviews/'))).toBe(true)
    const reviews = await filtered(user, 'searchAppearance', {
      dimension: 'searchAppearance',
      expression: 'REVIEW_SNIPPET',
    })
    expect(reviews.kept).toEqual(['REVIEW_SNIPPET'])
    // Filtering by a dimension without grouping by it; two filters in one group are both applied.
    const both = await user.query({
      ...SETTLED,
      dimensions: ['country', 'device'],
      rowLimit: 25000,
      ...where(
        { dimension: 'country', expression: 'usa' },
        { dimension: 'device', operator: 'notEquals', expression: 'TABLET' },
      ),
    })
    expect(both.rows!.map((r) => r.keys!.join(' ')).sort()).toEqual(['usa DESKTOP', 'usa MOBILE'])
    // Two groups: each applies too.
    const groups = await user.query({
      ...SETTLED,
      dimensions: ['country'],
      dimensionFilterGroups: [
        { filters: [{ dimension: 'country', operator: 'notEquals', expression: 'usa' }] },
        { filters: [{ dimension: 'device', expression: 'DESKTOP' }] },
      ],
    })
    expect(keysOf(groups.rows)).not.toContain('usa')
    const desktop = totals(
      (
        await user.query({
          ...SETTLED,
          dimensions: ['country'],
          ...where({ dimension: 'device', expression: 'DESKTOP' }),
        })
      ).rows,
    )
    expect(totals(groups.rows).impressions).toBeLessThan(desktop.impressions)
  })

  it('a filter’s shape: dimension, operator and groupType from the real lists, an expression', async () => {
    const user = await searchUser(sandbox)
    const cases: [unknown, RegExp][] = [
      [
        [{ filters: [{ dimension: 'date', expression: '2026-01-01' }] }],
        /dimension: must be one of "country", "device", "page", "query", "searchAppearance"/,
      ],
      [
        [{ filters: [{ dimension: 'query', operator: 'startsWith', expression: 'a' }] }],
        /operator: must be one of "equals", "notEquals", "contains", "notContains", "includingRegex", "excludingRegex"/,
      ],
      [[{ groupType: 'or', filters: [] }], /groupType: must be one of "and"/],
      [[{ filters: [{ dimension: 'query', operator: 'equals' }] }], /expression: is required/],
      [[{ filters: [{ dimension: 'query', expression: 'a', negate: true }] }], /negate/],
    ]
    for (const [dimensionFilterGroups, says] of cases)
      expect(
        expectInvalid(await user.analytics({ ...SETTLED, dimensionFilterGroups })).message,
      ).toMatch(says)
    // Operators and group types are read in any case, as the real API does.
    const upper = await user.query({
      ...SETTLED,
      dimensionFilterGroups: [
        {
          groupType: 'AND',
          filters: [{ dimension: 'QUERY', operator: 'NOT_CONTAINS', expression: 'best' }],
        },
      ],
    })
    expect(upper).toEqual(
      await user.query({
        ...SETTLED,
        ...where({ dimension: 'query', operator: 'notContains', expression: 'best' }),
      }),
    )
  })
})
