import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { expectError, expectInvalid, searchUser, type SearchUser } from './client.js'

const sandbox = sandboxForSuite()

const inspect = (user: SearchUser, body: Record<string, unknown>) =>
  user.call('POST', '/inspect-url', body)

const VERDICTS = ['PASS', 'FAIL', 'NEUTRAL', 'VERDICT_UNSPECIFIED']

describe('search API: URL inspection', () => {
  it('an indexed page: the real inspectionResult shape, index status first', async () => {
    const user = await searchUser(sandbox)
    const res = await inspect(user, { inspectionUrl: user.prefixSite, siteUrl: user.prefixSite })
    expect(res.status).toBe(200)
    const result = res.body.inspectionResult
    expect(Object.keys(res.body)).toEqual(['inspectionResult'])
    expect(result.indexStatusResult).toEqual({
      sitemap: [`${user.prefixSite}sitemap-pages.xml`],
      referringUrls: expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${user.prefixSite}`)),
      ]),
      verdict: 'PASS',
      coverageState: 'Submitted and indexed',
      robotsTxtState: 'ALLOWED',
      indexingState: 'INDEXING_ALLOWED',
      lastCrawlTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      pageFetchState: 'SUCCESSFUL',
      googleCanonical: user.prefixSite,
      userCanonical: user.prefixSite,
      crawledAs: expect.stringMatching(/^(MOBILE|DESKTOP)$/),
    })
    expect(VERDICTS).toContain(result.mobileUsabilityResult.verdict)
    expect(Date.parse(result.indexStatusResult.lastCrawlTime)).toBeLessThan(Date.now())
    // The link opens the sandbox's own inspection page for this site and URL.
    const link = new URL(result.inspectionResultLink)
    expect(link.origin + link.pathname).toBe(`${sandbox.url}/search/inspect`)
    expect(link.searchParams.get('resource_id')).toBe(user.prefixSite)
    expect(link.searchParams.get('id')).toBe(user.prefixSite)
  })

  it('is deterministic per URL, and a site’s pages show the states a real site has', async () => {
    const user = await searchUser(sandbox)
    const pagesOf = async () => {
      const answer = await user.query({
        startDate: '2025-01-01',
        endDate: '2030-01-01',
        dataState: 'all',
        dimensions: ['page'],
      })
      return answer.rows!.map((row) => row.keys![0]!)
    }
    const pages = await pagesOf()
    expect(pages.length).toBeGreaterThan(50)
    const coverage = new Map<string, number>()
    let richPages = 0
    const twice = await Promise.all(
      pages.map(async (url) => {
        const body = { inspectionUrl: url, siteUrl: user.prefixSite }
        return [url, await inspect(user, body), await inspect(user, body)] as const
      }),
    )
    for (const [url, first, again] of twice) {
      expect(again.body).toEqual(first.body)
      const status = first.body.inspectionResult.indexStatusResult
      coverage.set(status.coverageState, (coverage.get(status.coverageState) ?? 0) + 1)
      expect(VERDICTS).toContain(status.verdict)
      if (status.verdict === 'PASS') {
        expect(status.googleCanonical).toBe(url)
        const rich = first.body.inspectionResult.richResultsResult
        if (rich) {
          expect(rich.detectedItems).toBeInstanceOf(Array)
          richPages++
        }
      }
    }
    expect(richPages).toBeGreaterThan(0)
    expect(coverage.get('Submitted and indexed')).toBeGreaterThan(pages.length / 2)
    expect(coverage.size).toBeGreaterThan(2)
  })

  it('rich results where the page has them: a review page shows review snippets', async () => {
    const user = await searchUser(sandbox)
    const answer = await user.query({
      startDate: '2025-01-01',
      endDate: '2030-01-01',
      dimensions: ['page'],
      rowLimit: 25000,
    })
    const reviews = answer.rows!.map((r) => r.keys![0]!).filter((u) => u.includes('/reviews/'))
    const results = await Promise.all(
      reviews.map(
        async (url: string) =>
          (await inspect(user, { inspectionUrl: url, siteUrl: user.prefixSite })).body
            .inspectionResult,
      ),
    )
    const rich = results.filter((r) => r.richResultsResult)
    expect(rich.length).toBeGreaterThan(0)
    for (const r of rich) {
      expect(r.indexStatusResult.verdict).toBe('PASS')
      expect(
        r.richResultsResult.detectedItems.map((d: { richResultType: string }) => d.richResultType),
      ).toContain('Review snippets')
    }
  })

  it('an address the index does not know: no crawl, no canonical', async () => {
    const user = await searchUser(sandbox)
    const res = await inspect(user, {
      inspectionUrl: `${user.prefixSite}never/linked`,
      siteUrl: user.prefixSite,
    })
    const status = res.body.inspectionResult.indexStatusResult
    expect(['URL is unknown to Google', 'Discovered - currently not indexed']).toContain(
      status.coverageState,
    )
    expect(status.verdict).toBe('NEUTRAL')
    expect(status.lastCrawlTime).toBeUndefined()
    expect(status.googleCanonical).toBeUndefined()
    expect(res.body.inspectionResult.richResultsResult).toBeUndefined()
  })

  it('a domain property inspects URLs on any of its hosts', async () => {
    const user = await searchUser(sandbox)
    for (const host of ['www', 'shop', 'blog']) {
      const inspectionUrl = `https://${host}.${user.name}.example/`
      expect((await inspect(user, { inspectionUrl, siteUrl: user.domainSite })).status).toBe(200)
    }
  })

  it('a URL not under the site: 400 saying what the site covers', async () => {
    const user = await searchUser(sandbox)
    const cases: [string, string, RegExp][] = [
      [
        user.prefixSite,
        'https://elsewhere.example/',
        /is not part of the property .* starting with https:\/\/www\./,
      ],
      [user.prefixSite, `http://www.${user.name}.example/`, /is not part of the property/],
      [
        user.domainSite,
        'https://elsewhere.example/',
        /on searcher\d+\.example or one of its subdomains/,
      ],
      [user.prefixSite, '/relative/path', /not an absolute http or https URL/],
    ]
    for (const [siteUrl, inspectionUrl, says] of cases)
      expect(expectInvalid(await inspect(user, { siteUrl, inspectionUrl })).message).toMatch(says)
  })

  it('missing fields, unknown fields and a bad languageCode: 400; a site not owned: 403', async () => {
    const user = await searchUser(sandbox)
    expect(expectInvalid(await inspect(user, { siteUrl: user.prefixSite })).message).toContain(
      'inspectionUrl',
    )
    expect(
      expectInvalid(
        await inspect(user, {
          siteUrl: user.prefixSite,
          inspectionUrl: user.prefixSite,
          live: true,
        }),
      ).message,
    ).toContain('Unknown field "live"')
    expect(
      expectInvalid(
        await inspect(user, {
          siteUrl: user.prefixSite,
          inspectionUrl: user.prefixSite,
          languageCode: 'english please',
        }),
      ).message,
    ).toContain('BCP-47')
    expect(
      (
        await inspect(user, {
          siteUrl: user.prefixSite,
          inspectionUrl: user.prefixSite,
          languageCode: 'de-CH',
        })
      ).status,
    ).toBe(200)
    expectError(
      await inspect(user, {
        siteUrl: 'https://www.other.example/',
        inspectionUrl: 'https://www.other.example/',
      }),
      403,
      'PERMISSION_DENIED',
      'forbidden',
    )
  })

  it('the inspection page: signed-in owner only', async () => {
    const user = await searchUser(sandbox)
    const res = await inspect(user, { inspectionUrl: user.prefixSite, siteUrl: user.prefixSite })
    const link = new URL(res.body.inspectionResult.inspectionResultLink)
    const path = link.pathname + link.search
    const anonymous = await sandbox.request('GET', path)
    expect(anonymous.status).toBe(200)
    expect(anonymous.text).toContain('Sign in to see this URL inspection.')

    const signIn = await sandbox.request('POST', '/account/sign-in', {
      rawBody: new URLSearchParams({ user: user.name, next: path }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(signIn.status).toBe(303)
    expect(signIn.headers.get('location')).toBe(path)
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!
    const shown = await sandbox.request('GET', path, { headers: { cookie } })
    expect(shown.status).toBe(200)
    expect(shown.text).toContain('Submitted and indexed')
    expect(shown.headers.get('x-frame-options')).toBe('DENY')

    const stranger = await sandbox.request('POST', '/account/sign-in', {
      rawBody: new URLSearchParams({ user: 'stranger', next: path }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    const theirs = await sandbox.request('GET', path, {
      headers: { cookie: stranger.headers.get('set-cookie')!.split(';')[0]! },
    })
    expect(theirs.status).toBe(404)
    expect(theirs.text).not.toContain('Submitted and indexed')
  })
})
