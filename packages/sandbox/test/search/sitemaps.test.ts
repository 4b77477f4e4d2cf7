import { describe, expect, it } from 'vitest'
import { PENDING_MS } from '../../src/search/sitemaps.js'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  enc,
  expectError,
  expectInvalid,
  expectNotFound,
  searchUser,
  type SearchUser,
} from './client.js'

const sandbox = sandboxForSuite()

const sitemapsOf = (user: SearchUser, site: string, index?: string) =>
  user.call('GET', `/sites/${enc(site)}/sitemaps${index ? `?sitemapIndex=${enc(index)}` : ''}`)
const submit = (user: SearchUser, site: string, feed: string) =>
  user.call('PUT', `/sites/${enc(site)}/sitemaps/${enc(feed)}`)
const paths = (body: { sitemap?: { path: string }[] }) => (body.sitemap ?? []).map((s) => s.path)

describe('search API: sitemaps', () => {
  it('list_sitemaps: the seeded ones in the real WmxSitemap shape, counts as int64 strings', async () => {
    const user = await searchUser(sandbox)
    const res = await sitemapsOf(user, user.prefixSite)
    expect(res.status).toBe(200)
    expect(paths(res.body)).toEqual([
      `${user.prefixSite}sitemap-news.xml`,
      `${user.prefixSite}sitemap.xml`,
    ])
    const index = res.body.sitemap[1]
    expect(index).toEqual({
      path: `${user.prefixSite}sitemap.xml`,
      lastSubmitted: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      isPending: false,
      isSitemapsIndex: true,
      type: 'sitemap',
      lastDownloaded: expect.stringMatching(/Z$/),
      warnings: '0',
      errors: '0',
      contents: [
        { type: 'web', submitted: expect.stringMatching(/^[1-9]\d*$/), indexed: '0' },
        { type: 'image', submitted: expect.stringMatching(/^[1-9]\d*$/), indexed: '0' },
      ],
    })
    expect(Date.parse(index.lastDownloaded)).toBeGreaterThan(Date.parse(index.lastSubmitted))
    // The same answer again: seeded sitemaps are deterministic.
    expect((await sitemapsOf(user, user.prefixSite)).body).toEqual(res.body)
  })

  it('a domain property’s sitemaps may be on any host of its domain', async () => {
    const user = await searchUser(sandbox)
    const res = await sitemapsOf(user, user.domainSite)
    expect(paths(res.body)).toEqual([
      `https://blog.${user.name}.example/feed.xml`,
      `https://www.${user.name}.example/sitemap.xml`,
    ])
    expect(res.body.sitemap[0].type).toBe('rssFeed')
  })

  it('sitemapIndex lists the children of an index, whose counts add up to the index’s', async () => {
    const user = await searchUser(sandbox)
    const top = (await sitemapsOf(user, user.prefixSite)).body.sitemap
    const index = top.find((s: { isSitemapsIndex: boolean }) => s.isSitemapsIndex)
    const res = await sitemapsOf(user, user.prefixSite, index.path)
    expect(res.status).toBe(200)
    expect(paths(res.body)).toEqual([
      `${user.prefixSite}sitemap-pages.xml`,
      `${user.prefixSite}sitemap-products.xml`,
    ])
    const sum = (type: string) =>
      res.body.sitemap
        .flatMap((s: { contents: { type: string; submitted: string }[] }) => s.contents)
        .filter((c: { type: string }) => c.type === type)
        .reduce((n: number, c: { submitted: string }) => n + Number(c.submitted), 0)
    for (const content of index.contents) expect(sum(content.type)).toBe(Number(content.submitted))
    // A sitemap that is not an index holds none; an unknown index is 404.
    expect(
      (await sitemapsOf(user, user.prefixSite, `${user.prefixSite}sitemap-news.xml`)).body,
    ).toEqual({})
    expectNotFound(await sitemapsOf(user, user.prefixSite, `${user.prefixSite}nope.xml`))
  })

  it('get one sitemap: seeded, child of an index, or 404 for one never submitted', async () => {
    const user = await searchUser(sandbox)
    for (const name of ['sitemap.xml', 'sitemap-pages.xml']) {
      const res = await user.call(
        'GET',
        `/sites/${enc(user.prefixSite)}/sitemaps/${enc(user.prefixSite + name)}`,
      )
      expect(res.status).toBe(200)
      expect(res.body.path).toBe(user.prefixSite + name)
    }
    const missing = await user.call(
      'GET',
      `/sites/${enc(user.prefixSite)}/sitemaps/${enc(`${user.prefixSite}missing.xml`)}`,
    )
    expect(expectNotFound(missing).message).toContain('missing.xml')
  })

  it('submit_sitemap: 200 with no body (its dialect’s success); listed as pending, then as downloaded', async () => {
    const user = await searchUser(sandbox)
    const feed = `${user.prefixSite}blog/sitemap.xml`
    const before = Date.now()
    const res = await submit(user, user.prefixSite, feed)
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    const listed = (await sitemapsOf(user, user.prefixSite)).body.sitemap
    expect(listed.map((s: { path: string }) => s.path)).toContain(feed)
    const entry = listed.find((s: { path: string }) => s.path === feed)
    expect(entry).toEqual({
      path: feed,
      lastSubmitted: expect.any(String),
      isPending: true,
      isSitemapsIndex: false,
      warnings: '0',
      errors: '0',
    })
    expect(Date.parse(entry.lastSubmitted)).toBeGreaterThanOrEqual(before - 1000)

    // Once its fetch is over (the submission backdated past it), it was downloaded.
    const earlier = new Date(Date.now() - PENDING_MS - 5000).toISOString()
    await sandbox.db
      .updateTable('search_sitemaps')
      .set({ submitted: earlier })
      .where('path', '=', feed)
      .execute()
    const later = await user.call('GET', `/sites/${enc(user.prefixSite)}/sitemaps/${enc(feed)}`)
    expect(later.body).toMatchObject({
      path: feed,
      lastSubmitted: earlier,
      isPending: false,
      type: 'sitemap',
      contents: [{ type: 'web', submitted: expect.stringMatching(/^\d+$/), indexed: '0' }],
    })
    expect(Date.parse(later.body.lastDownloaded)).toBe(Date.parse(earlier) + PENDING_MS)
  })

  it('submitting again is fine: one entry, submitted anew; resubmitting a seeded one updates it', async () => {
    const user = await searchUser(sandbox)
    const feed = `${user.prefixSite}again.xml`
    expect((await submit(user, user.prefixSite, feed)).status).toBe(200)
    const first = (await user.call('GET', `/sites/${enc(user.prefixSite)}/sitemaps/${enc(feed)}`))
      .body
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await submit(user, user.prefixSite, feed)).status).toBe(200)
    const list = (await sitemapsOf(user, user.prefixSite)).body.sitemap
    expect(list.filter((s: { path: string }) => s.path === feed)).toHaveLength(1)
    expect(
      Date.parse(list.find((s: { path: string }) => s.path === feed).lastSubmitted),
    ).toBeGreaterThan(Date.parse(first.lastSubmitted))

    const seeded = `${user.prefixSite}sitemap.xml`
    const old = (await user.call('GET', `/sites/${enc(user.prefixSite)}/sitemaps/${enc(seeded)}`))
      .body
    expect((await submit(user, user.prefixSite, seeded)).status).toBe(200)
    const now = (await user.call('GET', `/sites/${enc(user.prefixSite)}/sitemaps/${enc(seeded)}`))
      .body
    expect(now).toMatchObject({ isSitemapsIndex: true, isPending: true, contents: old.contents })
    expect(Date.parse(now.lastSubmitted)).toBeGreaterThan(Date.parse(old.lastSubmitted))
  })

  it('the feedpath must be a URL of the site: prefix for URL-prefix sites, any host for domains', async () => {
    const user = await searchUser(sandbox)
    const domain = `${user.name}.example`
    for (const [site, feed] of [
      [user.prefixSite, `https://shop.${domain}/sitemap.xml`],
      [user.prefixSite, `http://www.${domain}/sitemap.xml`],
      [user.prefixSite, 'https://evil.example/sitemap.xml'],
      [user.domainSite, `https://${domain}.evil.example/sitemap.xml`],
      [user.domainSite, 'sitemap.xml'],
      [user.domainSite, `ftp://www.${domain}/sitemap.xml`],
    ]) {
      const error = expectInvalid(await submit(user, site!, feed!))
      expect(error.message).toMatch(
        /feedpath ".*" is (not part of the property|not an absolute http or https URL)/,
      )
    }
    const error = expectInvalid(await submit(user, user.prefixSite, 'https://evil.example/x.xml'))
    expect(error.message).toContain(`it must be a URL starting with ${user.prefixSite}`)
    for (const feed of [
      `https://shop.${domain}/sitemap.xml`,
      `http://${domain}/s.xml`,
      `https://a.b.${domain}/s.xml`,
    ])
      expect((await submit(user, user.domainSite, feed)).status).toBe(200)
    expect(paths((await sitemapsOf(user, user.domainSite)).body)).toContain(
      `https://a.b.${domain}/s.xml`,
    )
  })

  it('a site the user does not own: 403, and nothing is stored', async () => {
    const user = await searchUser(sandbox)
    const other = await searchUser(sandbox)
    const res = await submit(user, other.prefixSite, `${other.prefixSite}x.xml`)
    expectError(res, 403, 'PERMISSION_DENIED', 'forbidden')
    expect(paths((await sitemapsOf(other, other.prefixSite)).body)).not.toContain(
      `${other.prefixSite}x.xml`,
    )
  })

  it('one user’s submissions are theirs alone; POST /_sandbox/reset empties them', async () => {
    const user = await searchUser(sandbox)
    const feed = `${user.prefixSite}mine.xml`
    await submit(user, user.prefixSite, feed)
    const count = async () =>
      (
        await sandbox.db
          .selectFrom('search_sitemaps')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
    expect(Number(await count())).toBeGreaterThan(0)
    expect((await sandbox.request('POST', '/_sandbox/reset')).status).toBe(200)
    expect(Number(await count())).toBe(0)
    // The same name signed in again sees only the seeded sitemaps.
    const token = await sandbox.token(user.name, ['webmasters'])
    const res = await sandbox.request('GET', `/search/v1/sites/${enc(user.prefixSite)}/sitemaps`, {
      token,
    })
    expect(paths(res.body)).not.toContain(feed)
  })
})
