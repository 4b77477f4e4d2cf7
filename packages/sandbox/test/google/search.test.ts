import { describe, expect, it } from 'vitest'
import { requestsSince } from '../support/request-log.js'
import { sandboxForSuite } from '../support/sandbox.js'
import { assetsOf, fault, GOOGLE_SCOPE, rejection, searchClient } from './clients.js'

/**
 * Google's Search Console client (`@googleapis/searchconsole`) against the sandbox's Google
 * origin: webmasters v3 and URL Inspection v1, one host, as at searchconsole.googleapis.com.
 */

const sandbox = sandboxForSuite()

async function person(user: string, scopes = ['webmasters']) {
  const sc = searchClient(sandbox, await sandbox.token(user, scopes))
  const { sites } = await assetsOf(sandbox, user)
  return { sc, prefixSite: sites[0]!, domainSite: sites[1]! }
}

describe("Google's Search Console client against G", () => {
  it('sites.list and sites.get, a URL-prefix and a domain property', async () => {
    const { sc, prefixSite, domainSite } = await person('sc-alice')
    const list = await sc.sites.list()
    expect(list.data.siteEntry).toEqual([
      { siteUrl: prefixSite, permissionLevel: 'siteOwner' },
      { siteUrl: domainSite, permissionLevel: 'siteOwner' },
    ])
    const domain = await sc.sites.get({ siteUrl: domainSite })
    expect(domain.data).toEqual({ siteUrl: domainSite, permissionLevel: 'siteOwner' })
  })

  it('sitemaps.submit (204, a feedpath full of reserved characters) then sitemaps.list and get', async () => {
    const { sc, prefixSite } = await person('sc-bob')
    const since = (await requestsSince(sandbox, 0)).length
    const feedpath = `${prefixSite}sitemap(1)!.xml?lang=en&x=a b`
    const submitted = await sc.sitemaps.submit({ siteUrl: prefixSite, feedpath })
    expect(submitted.status).toBe(204)
    const [logged] = await requestsSince(sandbox, since)
    // RFC 6570 encoding, as the client sends it: ( ) ! encoded too.
    expect(logged!.path).toContain('sitemap%281%29%21.xml%3Flang%3Den%26x%3Da%20b')

    const list = await sc.sitemaps.list({ siteUrl: prefixSite })
    const mine = list.data.sitemap!.find((s) => s.path === feedpath)
    expect(mine).toMatchObject({ path: feedpath, isPending: true })
    const one = await sc.sitemaps.get({ siteUrl: prefixSite, feedpath })
    expect(one.data.path).toBe(feedpath)
  })

  it('searchanalytics.query: rows with keys and metrics, filters and paging', async () => {
    const { sc, domainSite } = await person('sc-carol', ['webmasters.readonly'])
    const body = {
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      dimensions: ['query', 'country'],
      type: 'web',
      dimensionFilterGroups: [
        {
          groupType: 'and',
          filters: [{ dimension: 'device', operator: 'equals', expression: 'MOBILE' }],
        },
      ],
      aggregationType: 'auto',
      rowLimit: 10,
      startRow: 0,
      dataState: 'final',
    }
    const res = await sc.searchanalytics.query({ siteUrl: domainSite, requestBody: body })
    expect(res.data.rows!.length).toBeGreaterThan(0)
    expect(res.data.rows!.length).toBeLessThanOrEqual(10)
    for (const row of res.data.rows!) {
      expect(row.keys).toHaveLength(2)
      expect(row.ctr).toBeCloseTo(row.clicks! / row.impressions!, 10)
    }
    // The same query through the generic dialect gives the same rows.
    const token = await sandbox.token('sc-carol', ['webmasters.readonly'])
    const seed = await sandbox.request(
      'POST',
      `/search/v1/sites/${encodeURIComponent(domainSite)}/search-analytics`,
      { token, body },
    )
    expect(seed.body.rows).toEqual(res.data.rows)
  })

  it('urlInspection.index.inspect: the inspection result of a URL on the site', async () => {
    const { sc, prefixSite } = await person('sc-dave', ['webmasters.readonly'])
    const res = await sc.urlInspection.index.inspect({
      requestBody: {
        inspectionUrl: `${prefixSite}page`,
        siteUrl: prefixSite,
        languageCode: 'en-US',
      },
    })
    expect(res.data.inspectionResult!.indexStatusResult!.verdict).toMatch(/^[A-Z_]+$/)
    // The link opens the sandbox's own page, at S.
    expect(res.data.inspectionResult!.inspectionResultLink).toMatch(
      new RegExp(`^${sandbox.url}/search/inspect\\?`),
    )
  })

  it('403: a site of someone else, with errors[] on webmasters v3 and without on URL Inspection', async () => {
    const { sc } = await person('sc-erin')
    const site = await rejection(sc.sites.get({ siteUrl: 'https://www.not-erin.example/' }))
    expect(site.status).toBe(403)
    expect(site.cause).toMatchObject({ status: 'PERMISSION_DENIED' })
    expect(site.cause!.errors![0]!.reason).toBe('forbidden')

    const inspect = await rejection(
      sc.urlInspection.index.inspect({
        requestBody: {
          inspectionUrl: 'https://www.not-erin.example/a',
          siteUrl: 'https://www.not-erin.example/',
        },
      }),
    )
    expect(inspect.status).toBe(403)
    expect(inspect.cause).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' })
    expect(inspect.cause!.errors).toBeUndefined()
  })

  it('403: submitting a sitemap needs the webmasters scope, named by its Google id', async () => {
    const { sc, prefixSite } = await person('sc-frank', ['webmasters.readonly'])
    const error = await rejection(
      sc.sitemaps.submit({ siteUrl: prefixSite, feedpath: `${prefixSite}sitemap.xml` }),
    )
    expect(error.status).toBe(403)
    expect(error.cause!.errors![0]!.reason).toBe('insufficientPermissions')
    expect(error.message).toContain(GOOGLE_SCOPE('webmasters'))
  })

  it('400 and 404: a bad query says what to change; an unknown sitemap is not found', async () => {
    const { sc, prefixSite } = await person('sc-gina')
    const bad = await rejection(
      sc.searchanalytics.query({
        siteUrl: prefixSite,
        requestBody: { startDate: '2026-01-31', endDate: '2026-01-01' },
      }),
    )
    expect(bad.status).toBe(400)
    expect(bad.cause).toMatchObject({ status: 'INVALID_ARGUMENT' })
    expect(bad.message).toMatch(/startDate|endDate/)

    const missing = await rejection(
      sc.sitemaps.get({ siteUrl: prefixSite, feedpath: `${prefixSite}never-submitted.xml` }),
    )
    expect(missing.status).toBe(404)
    expect(missing.cause!.errors![0]!.reason).toBe('notFound')
  })

  it('429 with Retry-After on a submission (a PUT gaxios would retry)', async () => {
    const { sc, prefixSite } = await person('sc-hana')
    await fault(sandbox, {
      match: { method: 'PUT', dialect: 'google' },
      status: 429,
      retryAfter: 3,
    })
    const error = await rejection(
      sc.sitemaps.submit({ siteUrl: prefixSite, feedpath: `${prefixSite}sitemap.xml` }),
    )
    expect(error.status).toBe(429)
    expect(error.response!.headers.get('retry-after')).toBe('3')
    expect(error.cause!.errors![0]!.reason).toBe('rateLimitExceeded')
  })
})
