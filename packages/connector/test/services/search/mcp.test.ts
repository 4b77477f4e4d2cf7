import { describe, expect, it } from 'vitest'
import { ERAS, type Era } from '../../support/mcp-client.js'
import { isoDay, pacificNow } from '@countersign/sandbox/testing'
import { SEARCH_TOOLS } from '../../../src/services/search/index.js'
import { connectorForSuite } from '../../support/connector.js'
import { serviceTools } from '../../support/service-tools.js'

/**
 * The search tools through the real connector and sandbox, with the MCP SDK's own client,
 * authorized through the real flow for the `search` service, under both protocol revisions.
 * submit_sitemap and its approval: submit.test.ts.
 */

const suite = connectorForSuite()

const READS = ['get_site', 'inspect_url', 'list_sitemaps', 'list_sites', 'query_search_analytics']
const SEARCH_METRICS = [
  { name: 'clicks', type: 'integer' },
  { name: 'impressions', type: 'integer' },
  { name: 'ctr', type: 'float' },
  { name: 'position', type: 'float' },
]
const tools = serviceTools(suite, 'search', 'search')
const { definition, structured, text, upstreamCalls } = tools

/** A person connected to search, with their two sites (a URL-prefix one and a domain). */
async function newPerson(era: Era, scope?: string) {
  const connected = await tools.newPerson(era, scope)
  const { user } = connected.person
  return { ...connected, site: `https://www.${user}.example/`, domain: `sc-domain:${user}.example` }
}

describe.each(ERAS)('the search tools, protocol %s', (era) => {
  it('tools/list: the six tools; the five reads with schemas, read-only hints and webmasters.readonly', async () => {
    const { client, versions } = await newPerson(era)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(SEARCH_TOOLS.map((t) => t.name))
    expect(tools.find((t) => t.name === 'submit_sitemap')!._meta).toEqual({
      'countersign/scope': 'webmasters',
      'countersign/accessMode': 'auth-token',
    })
    for (const tool of tools.filter((t) => READS.includes(t.name))) {
      const source = definition(tool.name)
      expect(tool.title).toBe(source.title)
      expect(tool.description).toBe(source.description)
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(
        Object.keys(source.input.shape),
      )
      expect(tool.outputSchema).toMatchObject({ type: 'object' })
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true })
      expect(tool._meta).toMatchObject({ 'countersign/scope': 'webmasters.readonly' })
    }
    const query = tools.find((t) => t.name === 'query_search_analytics')!
    expect(query.inputSchema.required).toEqual(['siteUrl', 'startDate', 'endDate'])
    expect(versions.at(-1)).toBe(era)
    await client.close()
  })

  it('list_sites, get_site, list_sitemaps: the person’s sites and sitemaps', async () => {
    const { client, call, site, domain } = await newPerson(era)
    const sites = structured('list_sites', await call('list_sites', {}))
    expect(sites.siteEntry).toEqual([
      { siteUrl: site, permissionLevel: 'siteOwner' },
      { siteUrl: domain, permissionLevel: 'siteOwner' },
    ])
    expect(structured('get_site', await call('get_site', { siteUrl: domain }))).toEqual({
      siteUrl: domain,
      permissionLevel: 'siteOwner',
    })
    const sitemaps = structured('list_sitemaps', await call('list_sitemaps', { siteUrl: site }))
    const index = sitemaps.sitemap.find((s: { isSitemapsIndex: boolean }) => s.isSitemapsIndex)
    expect(index.path).toBe(`${site}sitemap.xml`)
    const children = structured(
      'list_sitemaps',
      await call('list_sitemaps', { siteUrl: site, sitemapIndex: index.path }),
    )
    expect(children.sitemap.map((s: { path: string }) => s.path)).toEqual([
      `${site}sitemap-pages.xml`,
      `${site}sitemap-products.xml`,
    ])
    await client.close()
  })

  it('inspect_url: the index status of a page of the site', async () => {
    const { client, call, site } = await newPerson(era)
    const result = structured(
      'inspect_url',
      await call('inspect_url', { siteUrl: site, inspectionUrl: site }),
    )
    expect(result.inspectionResult.indexStatusResult).toMatchObject({
      verdict: 'PASS',
      coverageState: 'Submitted and indexed',
      googleCanonical: site,
    })
    await client.close()
  })

  it('query_search_analytics with dimensions [] and dimensionFilterGroups [], as a form sends them: the totals', async () => {
    const { client, call, site } = await newPerson(era)
    const today = pacificNow().day
    const range = { siteUrl: site, startDate: isoDay(today - 30), endDate: isoDay(today - 3) }
    const totals = structured('query_search_analytics', await call('query_search_analytics', range))
    const emptied = structured(
      'query_search_analytics',
      await call('query_search_analytics', { ...range, dimensions: [], dimensionFilterGroups: [] }),
    )
    expect(emptied).toEqual(totals)
    expect(emptied.dimensions).toEqual([])
    expect(emptied.rows).toHaveLength(1)
    await client.close()
  })

  it('query_search_analytics: a table of the provider’s rows, rounded, paged with nextStartRow', async () => {
    const { client, call, site, person } = await newPerson(era)
    const today = pacificNow().day
    const args = {
      siteUrl: site,
      startDate: isoDay(today - 60),
      endDate: isoDay(today - 10),
      dimensions: ['query', 'date'],
      dimensionFilterGroups: [
        { filters: [{ dimension: 'device', operator: 'notEquals', expression: 'TABLET' }] },
      ],
      rowLimit: 50,
    }
    const query = (more: Record<string, unknown>) =>
      call('query_search_analytics', { ...args, ...more }).then((result) =>
        structured('query_search_analytics', result),
      )
    const first = await query({})
    expect(first.dimensions).toEqual(['query', 'date'])
    expect(first.metrics).toEqual(SEARCH_METRICS)
    expect(first.rows).toHaveLength(50)
    expect(first.nextStartRow).toBe(50)
    expect(first.responseAggregationType).toBe('byProperty')
    const second = await query({ startRow: first.nextStartRow })
    const both = await query({ rowLimit: 100 })
    expect([...first.rows, ...second.rows]).toEqual(both.rows)

    // Row for row the provider's answer to the same query, with ctr to 4 places and position to 1.
    const { siteUrl, ...body } = { ...args, rowLimit: 100 }
    const provider = await tools.providerAnswer(
      person,
      `/search/v1/sites/${encodeURIComponent(siteUrl)}/search-analytics`,
      body,
    )
    expect(both.rows).toEqual(
      provider.rows.map((row: any) => [
        ...row.keys,
        row.clicks,
        row.impressions,
        Math.round(row.ctr * 1e4) / 1e4,
        Math.round(row.position * 10) / 10,
      ]),
    )

    // Without dimensions and without data: the columns, no rows, and no next page.
    const empty = structured(
      'query_search_analytics',
      await call('query_search_analytics', {
        siteUrl: site,
        startDate: '2020-01-01',
        endDate: '2020-01-31',
      }),
    )
    expect(empty).toEqual({
      dimensions: [],
      metrics: SEARCH_METRICS,
      rows: [],
      responseAggregationType: 'byProperty',
    })
    await client.close()
  })

  it('query_search_analytics by page: the site’s origin said once, pages as paths, 100 rows by default', async () => {
    const { client, call, site, domain } = await newPerson(era)
    const today = pacificNow().day
    const month = { startDate: isoDay(today - 30), endDate: isoDay(today - 3) }
    const byPage = structured(
      'query_search_analytics',
      await call('query_search_analytics', {
        siteUrl: site,
        ...month,
        dimensions: ['query', 'page'],
      }),
    )
    expect(byPage.rows).toHaveLength(100)
    expect(byPage.nextStartRow).toBe(100)
    expect(byPage.pageOrigin).toBe(site.slice(0, -1))
    for (const [, page] of byPage.rows) expect(page).toMatch(/^\/(?!\/)/)
    // A page as the table shows it goes back into a filter as pageOrigin followed by its path.
    const [, page] = byPage.rows[0]
    const one = structured(
      'query_search_analytics',
      await call('query_search_analytics', {
        siteUrl: site,
        ...month,
        dimensions: ['page'],
        dimensionFilterGroups: [
          { filters: [{ dimension: 'page', expression: byPage.pageOrigin + page }] },
        ],
      }),
    )
    expect(one.rows.map((row: unknown[]) => row[0])).toEqual([page])
    // A domain property's pages: each on the origin most of them share, or whole.
    const onDomain = structured(
      'query_search_analytics',
      await call('query_search_analytics', { siteUrl: domain, ...month, dimensions: ['page'] }),
    )
    for (const [page] of onDomain.rows)
      expect(page.startsWith('/') || page.startsWith('http')).toBe(true)
    await client.close()
  })

  it.each([
    ['get_site', { siteUrl: 'https://www.example.com' }, /lacks its trailing slash/],
    [
      'query_search_analytics',
      { siteUrl: 'sc-domain:example.com', startDate: '2026-05-02', endDate: '2026-05-01' },
      /startDate 2026-05-02 is after endDate 2026-05-01/,
    ],
    [
      'query_search_analytics',
      {
        siteUrl: 'sc-domain:example.com',
        startDate: '2026-05-01',
        endDate: '2026-05-02',
        rowLimit: 30000,
      },
      /rowLimit must be at most 25000/,
    ],
    [
      'inspect_url',
      { siteUrl: 'sc-domain:example.com', inspectionUrl: 'https://elsewhere.example/' },
      /is not within the site sc-domain:example\.com/,
    ],
  ])(
    '%s with bad arguments %j: isError saying what to change, nothing sent upstream',
    async (name, args, says) => {
      const { client, call } = await newPerson(era)
      const { next } = await upstreamCalls()
      const result = await call(name, args)
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      expect(text(result)).toMatch(says)
      expect(text(result)).toMatch(/Nothing was sent to the provider/)
      expect((await upstreamCalls(next)).calls).toEqual([])
      await client.close()
    },
  )

  it('the provider’s refusals: a site not the person’s, a rule of the API', async () => {
    const { client, call, site } = await newPerson(era)
    const notMine = await call('get_site', { siteUrl: 'https://www.somebody-else.example/' })
    expect(notMine.isError).toBe(true)
    expect(text(notMine)).toMatch(
      /The provider refused access\. The provider says: User does not have sufficient permission/,
    )
    const rule = await call('query_search_analytics', {
      siteUrl: site,
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      type: 'discover',
      dimensions: ['query'],
    })
    expect(rule.isError).toBe(true)
    expect(text(rule)).toMatch(
      /rejected the arguments as invalid\. The provider says: The discover report has no queries/,
    )
    await client.close()
  })

  it('a token with only webmasters.readonly reads', async () => {
    const { client, call, tokens } = await newPerson(era, 'webmasters.readonly')
    expect(tokens.scope).toBe('webmasters.readonly')
    structured('list_sites', await call('list_sites', {}))
    await client.close()
  })
})
