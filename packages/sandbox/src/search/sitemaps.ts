import type { SandboxDb } from '../db/open.js'
import { notFound } from '../http/errors.js'
import { recentInstant, Sfc32 } from '../synthetic/random.js'
import type { Page } from './analytics/catalog.js'
import { siteCatalog } from './analytics/store.js'
import { urlOnSite, type Site } from './sites.js'

/**
 * Sitemaps of a site: a few seeded ones (a sitemap index with its children, and a feed or a
 * news sitemap), derived from the site like its pages, plus those the user submitted, which
 * are stored. The shape is the real API's WmxSitemap: counts are int64, so strings.
 */

interface SitemapContent {
  type: 'web' | 'image' | 'video' | 'news'
  submitted: string
  /** Deprecated by the real API, which always answers "0". */
  indexed: '0'
}

interface Sitemap {
  path: string
  lastSubmitted: string
  isPending: boolean
  isSitemapsIndex: boolean
  type?: 'sitemap' | 'rssFeed' | 'atomFeed' | 'urlList' | 'patternSitemap' | 'notSitemap'
  lastDownloaded?: string
  warnings: string
  errors: string
  contents?: SitemapContent[]
}

/** A submitted sitemap is being fetched for this long; then it has been downloaded. */
export const PENDING_MS = 60_000

interface Seed {
  path: string
  type: NonNullable<Sitemap['type']>
  contents: [SitemapContent['type'], number][]
  warnings?: number
  children?: Seed[]
}

/** The seeded sitemaps' addresses: an index of pages and products, and news or a feed. */
function seededPaths(site: Site) {
  const www = site.kind === 'prefix' ? site.siteUrl : `https://www.${site.domain}/`
  return {
    index: `${www}sitemap.xml`,
    pages: `${www}sitemap-pages.xml`,
    products:
      site.kind === 'prefix'
        ? `${www}sitemap-products.xml`
        : `https://shop.${site.domain}/sitemap-products.xml`,
    posts:
      site.kind === 'prefix' ? `${www}sitemap-news.xml` : `https://blog.${site.domain}/feed.xml`,
  }
}

/** The seeded sitemap that lists a page, if any (URL inspection names it). */
export function sitemapOfPage(site: Site, page: Page): string | undefined {
  const paths = seededPaths(site)
  if (page.kind === 'shop') return paths.products
  if (page.kind === 'blog') return paths.posts
  return paths.pages
}

/** The seeded sitemaps of a site, with counts that match its pages. */
function seedsOf(user: string, site: Site): Seed[] {
  const { pages } = siteCatalog(user, site.siteUrl)
  const count = (kinds: string[]) => pages.filter((p) => kinds.includes(p.kind)).length
  const paths = seededPaths(site)
  const pagesMap: Seed = {
    path: paths.pages,
    type: 'sitemap',
    contents: [['web', count(['home', 'about', 'guide', 'review', 'compare'])]],
  }
  const shop: Seed = {
    path: paths.products,
    type: 'sitemap',
    contents: [
      ['web', count(['shop'])],
      ['image', count(['shop']) * 3],
    ],
    warnings: 1,
  }
  const index: Seed = {
    path: paths.index,
    type: 'sitemap',
    contents: [],
    children: [pagesMap, shop],
  }
  const posts: Seed =
    site.kind === 'prefix'
      ? { path: paths.posts, type: 'sitemap', contents: [['news', count(['blog']) / 3]] }
      : { path: paths.posts, type: 'rssFeed', contents: [['web', count(['blog'])]] }
  return [index, posts]
}

/** An index's contents are the sums of its children's. */
function contentsOf(seed: Seed): SitemapContent[] {
  const totals = new Map<SitemapContent['type'], number>()
  for (const s of seed.children ?? [seed])
    for (const [type, n] of s.contents) totals.set(type, (totals.get(type) ?? 0) + Math.round(n))
  return [...totals].map(([type, n]) => ({ type, submitted: String(n), indexed: '0' }))
}

/** Days and times of a seeded sitemap: the same all day long, recent whatever the day. */
function seededTimes(user: string, site: Site, path: string, now: number) {
  const random = new Sfc32('search-sitemap', user, site.siteUrl, path)
  const submitted = recentInstant(random, now, 20, 200)
  const downloaded = recentInstant(random, now, 1, 3)
  return {
    submitted: new Date(submitted).toISOString(),
    downloaded: new Date(downloaded).toISOString(),
  }
}

function seededSitemap(user: string, site: Site, seed: Seed, now: number): Sitemap {
  const times = seededTimes(user, site, seed.path, now)
  return {
    path: seed.path,
    lastSubmitted: times.submitted,
    isPending: false,
    isSitemapsIndex: seed.children !== undefined,
    type: seed.type,
    lastDownloaded: times.downloaded,
    warnings: String(seed.warnings ?? 0),
    errors: '0',
    contents: contentsOf(seed),
  }
}

/** A submission as the API shows it: pending at first, then downloaded, with what it holds. */
function submitted(seeded: Sitemap | undefined, path: string, at: string, now: number): Sitemap {
  const pending = now - Date.parse(at) < PENDING_MS
  const downloaded = new Date(Date.parse(at) + PENDING_MS).toISOString()
  if (seeded)
    return {
      ...seeded,
      lastSubmitted: at,
      isPending: pending,
      lastDownloaded: pending ? seeded.lastDownloaded : downloaded,
    }
  if (pending)
    return {
      path,
      lastSubmitted: at,
      isPending: true,
      isSitemapsIndex: false,
      warnings: '0',
      errors: '0',
    }
  const type = /\.txt$/i.test(path)
    ? 'urlList'
    : /atom/i.test(path)
      ? 'atomFeed'
      : /(rss|feed)/i.test(path)
        ? 'rssFeed'
        : 'sitemap'
  const urls = 10 + new Sfc32('search-submitted', path).int(400)
  return {
    path,
    lastSubmitted: at,
    isPending: false,
    isSitemapsIndex: false,
    type,
    lastDownloaded: downloaded,
    warnings: '0',
    errors: '0',
    contents: [{ type: 'web', submitted: String(urls), indexed: '0' }],
  }
}

async function storedOf(db: SandboxDb, user: string, site: Site) {
  const rows = await db
    .selectFrom('search_sitemaps')
    .select(['path', 'submitted'])
    .where('user_id', '=', user)
    .where('site_url', '=', site.siteUrl)
    .execute()
  return new Map(rows.map((r) => [r.path, r.submitted]))
}

/**
 * Every sitemap of the site: the top-level ones by path, and the seeded children of each seeded
 * index, as seeded (an index lists them so, even once one is submitted on its own).
 */
async function allOf(db: SandboxDb, user: string, site: Site, now: number) {
  const stored = await storedOf(db, user, site)
  const top = new Map<string, Sitemap>()
  const children = new Map<string, Sitemap[]>()
  for (const seed of seedsOf(user, site)) {
    top.set(seed.path, seededSitemap(user, site, seed, now))
    children.set(
      seed.path,
      (seed.children ?? []).map((c) => seededSitemap(user, site, c, now)),
    )
  }
  const childAt = (path: string) => [...children.values()].flat().find((kid) => kid.path === path)
  for (const [path, at] of stored) {
    // A child submitted on its own is listed at the top level too, as the real API does.
    top.set(path, submitted(top.get(path) ?? childAt(path), path, at, now))
  }
  /** A sitemap by path: top-level (submitted), or a seeded index's child. */
  const find = (path: string) => top.get(path) ?? childAt(path)
  return { top, children, find }
}

const byPath = (a: Sitemap, b: Sitemap) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)

/** sitemaps.list: the submitted sitemaps, or those an index holds; `{}` when there are none. */
export async function listSitemaps(
  db: SandboxDb,
  user: string,
  site: Site,
  sitemapIndex: string | undefined,
  now = Date.now(),
): Promise<{ sitemap?: Sitemap[] }> {
  const { top, children, find } = await allOf(db, user, site, now)
  let list: Sitemap[]
  if (sitemapIndex === undefined) list = [...top.values()]
  else {
    urlOnSite(site, 'sitemapIndex', sitemapIndex)
    if (!find(sitemapIndex))
      throw notFound(
        `Sitemap index "${sitemapIndex.slice(0, 200)}" not found for site ${site.siteUrl}.`,
      )
    list = children.get(sitemapIndex) ?? []
  }
  return list.length ? { sitemap: list.sort(byPath) } : {}
}

/** sitemaps.get: one sitemap, submitted or held by a submitted index. */
export async function getSitemap(
  db: SandboxDb,
  user: string,
  site: Site,
  feedpath: string,
  now = Date.now(),
): Promise<Sitemap> {
  urlOnSite(site, 'feedpath', feedpath)
  const found = (await allOf(db, user, site, now)).find(feedpath)
  if (!found)
    throw notFound(`Sitemap "${feedpath.slice(0, 200)}" not found for site ${site.siteUrl}.`)
  return found
}

/** sitemaps.submit: records the submission (again is fine: it is submitted anew). */
export async function submitSitemap(
  db: SandboxDb,
  user: string,
  site: Site,
  feedpath: string,
  now = Date.now(),
): Promise<void> {
  urlOnSite(site, 'feedpath', feedpath)
  const at = new Date(now).toISOString()
  await db
    .insertInto('search_sitemaps')
    .values({ user_id: user, site_url: site.siteUrl, path: feedpath, submitted: at })
    .onConflict((oc) => oc.columns(['user_id', 'site_url', 'path']).doUpdateSet({ submitted: at }))
    .execute()
}
