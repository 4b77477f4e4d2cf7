import { describe, expect, it, vi } from 'vitest'
import { historyStart, pacificNow } from '../../src/search/analytics/calendar.js'
import { isoDay, parseDay } from '../../src/synthetic/calendar.js'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  daysAgo,
  enc,
  expectError,
  expectInvalid,
  searchUser,
  SETTLED,
  totals,
  type Row,
} from './client.js'

const sandbox = sandboxForSuite()
const keys = (rows: Row[] = [], at = 0) => rows.map((r) => r.keys![at]!)

describe('search analytics: answers', () => {
  it('rows of keys, clicks, impressions, ctr and position, sorted by clicks; 1,000 by default', async () => {
    const { query } = await searchUser(sandbox)
    const answer = await query({ ...SETTLED, dimensions: ['query', 'date'] })
    expect(answer.responseAggregationType).toBe('byProperty')
    expect(answer.rows).toHaveLength(1000)
    for (const row of answer.rows!) {
      expect(Object.keys(row)).toEqual(['keys', 'clicks', 'impressions', 'ctr', 'position'])
      expect(row.keys).toHaveLength(2)
      expect(Number.isInteger(row.clicks) && Number.isInteger(row.impressions)).toBe(true)
      expect(row.impressions).toBeGreaterThan(0)
      expect(row.clicks).toBeLessThanOrEqual(row.impressions)
      expect(row.ctr).toBe(row.clicks / row.impressions)
      expect(row.position).toBeGreaterThanOrEqual(1)
    }
    const rows = answer.rows!
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!]
      expect(a.clicks > b.clicks || (a.clicks === b.clicks && a.impressions >= b.impressions)).toBe(
        true,
      )
    }
  })

  it('without dimensions: one row of totals, without keys', async () => {
    const { query } = await searchUser(sandbox)
    const answer = await query(SETTLED)
    expect(answer.rows).toHaveLength(1)
    expect(answer.rows![0]!.keys).toBeUndefined()
    expect(answer.rows![0]!.impressions).toBeGreaterThan(10_000)
  })

  it('keys as the real API writes them: alpha-3 countries in lowercase, devices, days, pages of the site', async () => {
    const { query, prefixSite } = await searchUser(sandbox)
    const countries = keys((await query({ ...SETTLED, dimensions: ['country'] })).rows)
    expect(countries.length).toBeGreaterThanOrEqual(5)
    for (const c of countries) expect(c).toMatch(/^[a-z]{3}$/)
    expect(countries).toContain('usa')
    expect(keys((await query({ ...SETTLED, dimensions: ['device'] })).rows).sort()).toEqual([
      'DESKTOP',
      'MOBILE',
      'TABLET',
    ])
    const pages = keys((await query({ ...SETTLED, dimensions: ['page'], rowLimit: 25000 })).rows)
    expect(pages.length).toBeGreaterThanOrEqual(100)
    for (const p of pages) expect(p.startsWith(prefixSite)).toBe(true)
    const queries = keys((await query({ ...SETTLED, dimensions: ['query'], rowLimit: 25000 })).rows)
    expect(queries.length).toBeGreaterThanOrEqual(200)
    const days = keys((await query({ ...SETTLED, dimensions: ['date'] })).rows).sort()
    expect(days[0]).toBe(SETTLED.startDate)
    expect(days.at(-1)).toBe(SETTLED.endDate)
    expect(days).toHaveLength(parseDay(SETTLED.endDate)! - parseDay(SETTLED.startDate)! + 1)
  })

  it('sixteen months of daily data, nothing before; a range with no data has no rows at all', async () => {
    const { query } = await searchUser(sandbox)
    const today = pacificNow().day
    const answer = await query({
      startDate: '2020-01-01',
      endDate: daysAgo(0),
      dimensions: ['date'],
      rowLimit: 25000,
    })
    const days = keys(answer.rows).sort()
    expect(days[0]).toBe(isoDay(historyStart(today)))
    expect(days.length).toBeGreaterThanOrEqual(480)
    const empty = await query({
      startDate: '2020-01-01',
      endDate: '2020-12-31',
      dimensions: ['query'],
    })
    expect(empty).toEqual({ responseAggregationType: 'byProperty' })
  })

  it('the two sites have data of their own; the domain property’s pages span its hosts', async () => {
    const { query, domainSite, name } = await searchUser(sandbox)
    const prefix = await query(SETTLED)
    const domain = await query(SETTLED, domainSite)
    expect(domain.rows![0]!.clicks).not.toBe(prefix.rows![0]!.clicks)
    const hosts = new Set(
      keys(
        (await query({ ...SETTLED, dimensions: ['page'], rowLimit: 25000 }, domainSite)).rows,
      ).map((p) => new URL(p).hostname),
    )
    expect([...hosts].sort()).toEqual([
      `blog.${name}.example`,
      `shop.${name}.example`,
      `www.${name}.example`,
    ])
  })

  it('is deterministic: the same query answers the same', async () => {
    const { query } = await searchUser(sandbox)
    const body = { ...SETTLED, dimensions: ['page', 'device'], rowLimit: 50 }
    expect(await query(body)).toEqual(await query(body))
  })
})

describe('search analytics: dates and data state', () => {
  it('startDate and endDate are required real dates, startDate on or before endDate', async () => {
    const { analytics } = await searchUser(sandbox)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ endDate: '2026-01-01' }, /startDate: is required/],
      [
        { startDate: '2026-02-30', endDate: '2026-03-01' },
        /startDate: must be a real date as YYYY-MM-DD; got "2026-02-30"/,
      ],
      [{ startDate: '2026-01-01', endDate: '1/2/2026' }, /endDate: must be a real date/],
      [
        { startDate: '2026-03-02', endDate: '2026-03-01' },
        /startDate 2026-03-02 is after endDate 2026-03-01/,
      ],
    ]
    for (const [body, says] of cases)
      expect(expectInvalid(await analytics(body)).message).toMatch(says)
  })

  it('final (the default) ends three days ago; all goes on to today, and says where fresh data starts', async () => {
    const { query } = await searchUser(sandbox)
    const range = { startDate: daysAgo(9), endDate: daysAgo(0), dimensions: ['date'] }
    const final = keys((await query(range)).rows).sort()
    expect(final.at(-1)).toBe(daysAgo(3))
    expect(final).toEqual(keys((await query({ ...range, dataState: 'final' })).rows).sort())
    const all = await query({ ...range, dataState: 'all' })
    const allDays = keys(all.rows).sort()
    expect(allDays).toEqual(expect.arrayContaining([...final, daysAgo(2), daysAgo(1)]))
    expect(all.metadata).toEqual({ firstIncompleteDate: daysAgo(2) })
    expect((await query(range)).metadata).toBeUndefined()
    // A day both answers have is the same day.
    const settled = (rows: Row[] = []) => rows.find((r) => r.keys![0] === daysAgo(5))
    expect(settled(all.rows)).toEqual(settled((await query(range)).rows))
  })

  it('hour: needs hourly_all and the last ten days; hours add up to their day', async () => {
    const { analytics, query } = await searchUser(sandbox)
    const day = daysAgo(4)
    expect(
      expectInvalid(await analytics({ startDate: day, endDate: day, dimensions: ['hour'] }))
        .message,
    ).toMatch(/Grouping by hour needs dataState "hourly_all"/)
    expect(
      expectInvalid(
        await analytics({
          startDate: daysAgo(10),
          endDate: day,
          dimensions: ['hour'],
          dataState: 'hourly_all',
        }),
      ).message,
    ).toMatch(/last 10 days only: startDate must be .* or later/)
    const hourly = await query({
      startDate: day,
      endDate: day,
      dimensions: ['hour'],
      dataState: 'HOURLY_ALL',
    })
    expect(hourly.rows!.length).toBeGreaterThan(12)
    for (const k of keys(hourly.rows))
      expect(k).toMatch(new RegExp(`^${day}T\\d\\d:00:00-0[78]:00$`))
    // Settled hours: no word on incomplete data; a range into the last days: where it starts.
    expect(hourly.metadata).toBeUndefined()
    const fresh = await query({
      startDate: daysAgo(3),
      endDate: daysAgo(1),
      dimensions: ['hour'],
      dataState: 'hourly_all',
    })
    expect(fresh.metadata).toEqual({
      firstIncompleteHour: expect.stringMatching(new RegExp(`^${daysAgo(2)}T00:00:00-0[78]:00$`)),
    })
    const daily = await query({ startDate: day, endDate: day, dataState: 'all' })
    const sum = totals(hourly.rows)
    expect(sum.clicks).toBe(daily.rows![0]!.clicks)
    expect(sum.impressions).toBe(daily.rows![0]!.impressions)
    expect(sum.position).toBeCloseTo(daily.rows![0]!.position, 9)
    // With hourly_all and no hour dimension, it is the same as all.
    expect(await query({ startDate: day, endDate: day, dataState: 'hourly_all' })).toEqual(daily)
  })

  it('today is partial: only the hours that are over', async () => {
    // Mid-day in Pacific Time (13:30 PDT), so today has hours that are over.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-03-10T20:30:00Z'))
    try {
      const { query } = await searchUser(sandbox)
      const hourly = await query({
        startDate: daysAgo(0),
        endDate: daysAgo(0),
        dimensions: ['hour'],
        dataState: 'hourly_all',
      })
      const { hour } = pacificNow()
      const rows = keys(hourly.rows)
      expect(rows.length).toBeGreaterThan(0)
      for (const k of rows) expect(Number(k.slice(11, 13))).toBeLessThanOrEqual(hour)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('search analytics: dimensions, type, aggregation, paging', () => {
  it('dimensions: the real ones in any case; unknown, repeated, or searchAppearance with others: 400', async () => {
    const { analytics, query } = await searchUser(sandbox)
    expect(await query({ ...SETTLED, dimensions: ['QUERY', 'Device'] })).toEqual(
      await query({ ...SETTLED, dimensions: ['query', 'device'] }),
    )
    const cases: [unknown, RegExp][] = [
      [
        ['keyword'],
        /dimensions\.0: must be one of "country", "device", "page", "query", "searchAppearance", "date", "hour"/,
      ],
      [['query', 'query'], /"query" is given more than once/],
      [['searchAppearance', 'query'], /searchAppearance cannot be grouped with other dimensions/],
      ['query', /dimensions/],
    ]
    for (const [dimensions, says] of cases)
      expect(expectInvalid(await analytics({ ...SETTLED, dimensions })).message).toMatch(says)
    const appearances = keys((await query({ ...SETTLED, dimensions: ['searchAppearance'] })).rows)
    expect(appearances.length).toBeGreaterThan(1)
    for (const a of appearances) expect(a).toMatch(/^[A-Z_]+$/)
  })

  it('type: six search types with data of their own; searchType is its deprecated alias', async () => {
    const { analytics, query } = await searchUser(sandbox)
    const web = await query(SETTLED)
    expect(await query({ ...SETTLED, type: 'web' })).toEqual(web)
    const seen = new Set<number>()
    for (const type of ['web', 'image', 'video', 'news', 'discover', 'googleNews']) {
      const answer = await query({ ...SETTLED, type })
      expect(answer.rows![0]!.impressions).toBeGreaterThan(0)
      seen.add(answer.rows![0]!.impressions)
      expect(await query({ ...SETTLED, searchType: type })).toEqual(answer)
    }
    expect(seen.size).toBe(6)
    expect(await query({ ...SETTLED, type: 'GOOGLE_NEWS' })).toEqual(
      await query({ ...SETTLED, type: 'googleNews' }),
    )
    expect(
      expectInvalid(await analytics({ ...SETTLED, type: 'image', searchType: 'video' })).message,
    ).toMatch(/give type only \(searchType is its deprecated alias\)/)
    expect(expectInvalid(await analytics({ ...SETTLED, type: 'shopping' })).message).toMatch(
      /type: must be one of/,
    )
    for (const type of ['discover', 'googleNews'])
      expect(
        expectInvalid(await analytics({ ...SETTLED, type, dimensions: ['query'] })).message,
      ).toMatch(/has no queries/)
  })

  it('aggregationType: auto is by page when grouping or filtering by page; byProperty then is refused', async () => {
    const { analytics, query } = await searchUser(sandbox)
    const pageFilter = [{ filters: [{ dimension: 'page', operator: 'contains', expression: '/' }] }]
    expect((await query(SETTLED)).responseAggregationType).toBe('byProperty')
    expect((await query({ ...SETTLED, dimensions: ['page'] })).responseAggregationType).toBe(
      'byPage',
    )
    expect(
      (await query({ ...SETTLED, dimensionFilterGroups: pageFilter })).responseAggregationType,
    ).toBe('byPage')
    expect((await query({ ...SETTLED, aggregationType: 'byPage' })).responseAggregationType).toBe(
      'byPage',
    )
    expect(
      (await query({ ...SETTLED, aggregationType: 'BY_PROPERTY' })).responseAggregationType,
    ).toBe('byProperty')
    for (const body of [{ dimensions: ['page'] }, { dimensionFilterGroups: pageFilter }])
      expect(
        expectInvalid(await analytics({ ...SETTLED, ...body, aggregationType: 'byProperty' }))
          .message,
      ).toMatch(/"byProperty" cannot be used when you group or filter by page/)
  })

  it('byNewsShowcasePanel: Discover or Google News, filtered to the NEWS_SHOWCASE appearance', async () => {
    const { analytics, query } = await searchUser(sandbox)
    const showcase = [{ filters: [{ dimension: 'searchAppearance', expression: 'NEWS_SHOWCASE' }] }]
    const body = { ...SETTLED, aggregationType: 'byNewsShowcasePanel' }
    expect(
      expectInvalid(await analytics({ ...body, dimensionFilterGroups: showcase })).message,
    ).toMatch(/needs type "discover" or "googleNews"/)
    expect(expectInvalid(await analytics({ ...body, type: 'discover' })).message).toMatch(
      /needs a filter: searchAppearance equals "NEWS_SHOWCASE"/,
    )
    const answer = await query({
      ...body,
      type: 'discover',
      dimensionFilterGroups: showcase,
      dimensions: ['page'],
    })
    expect(answer.responseAggregationType).toBe('byNewsShowcasePanel')
    expect(answer.rows!.length).toBeGreaterThan(0)
  })

  it('rowLimit 1 to 25,000, startRow 0 or more, whole numbers; pages follow each other', async () => {
    const { analytics, query } = await searchUser(sandbox)
    for (const [field, value, says] of [
      ['rowLimit', 0, /rowLimit: must be from 1 to 25000/],
      ['rowLimit', 25_001, /rowLimit: must be at most 25000/],
      ['rowLimit', 2.5, /rowLimit: must be a whole number/],
      ['rowLimit', '10', /rowLimit: must be a whole number/],
      ['startRow', -1, /startRow: must be 0 or more/],
    ] as const)
      expect(expectInvalid(await analytics({ ...SETTLED, [field]: value })).message).toMatch(says)
    const all = (await query({ ...SETTLED, dimensions: ['query'], rowLimit: 25_000 })).rows!
    const second = (await query({ ...SETTLED, dimensions: ['query'], rowLimit: 10, startRow: 10 }))
      .rows!
    expect(second).toEqual(all.slice(10, 20))
    expect(await query({ ...SETTLED, dimensions: ['query'], startRow: all.length })).toEqual({
      responseAggregationType: 'byProperty',
    })
  })

  it('the body: unknown fields, bad JSON and a site the user does not own are refused', async () => {
    const { analytics, call, prefixSite, token } = await searchUser(sandbox)
    expect(expectInvalid(await analytics({ ...SETTLED, metrics: ['clicks'] })).message).toContain(
      'Unknown field "metrics"',
    )
    const raw = await sandbox.request(
      'POST',
      `/search/v1/sites/${enc(prefixSite)}/search-analytics`,
      {
        token,
        rawBody: '{"startDate":',
        headers: { 'content-type': 'application/json' },
      },
    )
    expectInvalid(raw)
    expectError(
      await call('POST', `/sites/${enc('https://www.other.example/')}/search-analytics`, SETTLED),
      403,
      'PERMISSION_DENIED',
      'forbidden',
    )
  })
})
