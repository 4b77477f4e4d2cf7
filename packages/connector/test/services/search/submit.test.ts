import { describe, expect, it } from 'vitest'
import { approvalPages } from '../../approval/flow.js'
import { approvalLink, assistantV1, assistantV2, textOf } from '../../mcp/approval-clients.js'
import { connectorForSuite } from '../../support/connector.js'
import { providerRequests } from '../../support/provider-log.js'

/**
 * submit_sitemap through the real connector and sandbox: a change, approved each time (the tool
 * table's "each time", the `auth-token` access mode), in the assistant where it can ask and on the
 * approval page where it cannot; it needs the `webmasters` scope; declined, nothing is submitted.
 */

const suite = connectorForSuite()
const pages = approvalPages()
const searchMcp = () => suite.resource('search')

let people = 0
async function connected(scope?: string) {
  const person = suite.person(`submitter-${++people}`)
  const { tokens } = await suite.connect({ person, service: 'search', scope })
  const site = `https://www.${person.user}.example/`
  return { person, token: tokens.access_token as string, site, feedpath: `${site}sitemap-new.xml` }
}

async function sitemapPuts(from: number) {
  const { next, writes } = await providerRequests(suite, 'search', from)
  return { next, puts: writes.filter((e) => e.method === 'PUT') }
}

describe('submit_sitemap', () => {
  it('asked in the assistant (2026-07-28), approved, submitted once; list_sitemaps shows it', async () => {
    const p = await connected()
    const asked: string[] = []
    const assistant = await assistantV2(searchMcp(), p.token, (params) => {
      asked.push(params.message)
      return { action: 'accept', content: { approve: true } }
    })
    const { next } = await sitemapPuts(0)
    const result = await assistant.call('submit_sitemap', { siteUrl: p.site, feedpath: p.feedpath })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(result.structuredContent).toEqual({
      siteUrl: p.site,
      feedpath: p.feedpath,
      submitted: true,
    })
    expect(asked).toEqual([
      expect.stringMatching(`^Submit sitemap "${p.feedpath}" for site "${p.site}"\\?`),
    ])
    expect((await sitemapPuts(next)).puts).toHaveLength(1)
    const listed = await assistant.call('list_sitemaps', { siteUrl: p.site })
    expect(JSON.stringify(listed.structuredContent)).toContain(p.feedpath)
  })

  it('a 2025-11-25 client: the approval page, then the same call runs', async () => {
    const p = await connected()
    const assistant = await assistantV1(searchMcp(), p.token)
    const args = { siteUrl: p.site, feedpath: p.feedpath }
    const link = approvalLink(await assistant.call('submit_sitemap', args))
    await pages.signInFrom(p.person, link)
    expect((await pages.decide(p.person, link, 'Approve')).status).toBe(200)
    const done = await assistant.call('submit_sitemap', args)
    expect(done.structuredContent).toMatchObject({ submitted: true })
  })

  it('declined in the assistant: nothing is submitted', async () => {
    const p = await connected()
    const assistant = await assistantV2(searchMcp(), p.token, () => ({ action: 'decline' }))
    const { next } = await sitemapPuts(0)
    const result = await assistant.call('submit_sitemap', { siteUrl: p.site, feedpath: p.feedpath })
    expect(textOf(result)).toMatch(/declined this submit_sitemap call\. Nothing was changed/)
    expect((await sitemapPuts(next)).puts).toEqual([])
  })

  it('a webmasters.readonly token: 403 insufficient_scope naming "webmasters", nothing asked', async () => {
    const p = await connected('webmasters.readonly')
    const res = await suite.mcp('search', p.token, {
      method: 'tools/call',
      params: { name: 'submit_sitemap', arguments: { siteUrl: p.site, feedpath: p.feedpath } },
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('www-authenticate')).toMatch(/insufficient_scope", scope="webmasters"/)
  })
})
