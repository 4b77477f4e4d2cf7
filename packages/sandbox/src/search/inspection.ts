import { z } from 'zod'
import { recentInstant, Sfc32 } from '../synthetic/random.js'
import type { Page } from './analytics/catalog.js'
import { siteCatalog } from './analytics/store.js'
import { urlOnSite, type Site } from './sites.js'
import { sitemapOfPage } from './sitemaps.js'

/**
 * URL inspection (the real `urlInspection.index.inspect`): what the index knows of one URL.
 * Deterministic per user, site and URL. A page the site has is mostly indexed, with a few in
 * the other states a real site shows; an address the site does not have is unknown, or known
 * and not indexed. Messages are in English whatever `languageCode` asks for.
 */

export const inspectBody = z.object({
  inspectionUrl: z.string({ error: 'is required: the URL to inspect' }).max(2048),
  siteUrl: z.string({ error: 'is required: the property the URL belongs to' }).max(2048),
  languageCode: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
      error: 'must be a BCP-47 language code, such as "en-US" or "de-CH"',
    })
    .default('en-US'),
})

type Verdict = 'PASS' | 'FAIL' | 'NEUTRAL' | 'VERDICT_UNSPECIFIED'

interface IndexState {
  verdict: Verdict
  coverageState: string
  robotsTxtState: 'ALLOWED' | 'DISALLOWED' | 'ROBOTS_TXT_STATE_UNSPECIFIED'
  indexingState: 'INDEXING_ALLOWED' | 'BLOCKED_BY_META_TAG' | 'INDEXING_STATE_UNSPECIFIED'
  pageFetchState: 'SUCCESSFUL' | 'NOT_FOUND' | 'BLOCKED_ROBOTS_TXT' | 'PAGE_FETCH_STATE_UNSPECIFIED'
  crawled: boolean
  canonical: 'self' | 'other' | 'none'
}

const STATES: Record<string, IndexState> = {
  indexed: {
    verdict: 'PASS',
    coverageState: 'Submitted and indexed',
    robotsTxtState: 'ALLOWED',
    indexingState: 'INDEXING_ALLOWED',
    pageFetchState: 'SUCCESSFUL',
    crawled: true,
    canonical: 'self',
  },
  crawledNotIndexed: {
    verdict: 'NEUTRAL',
    coverageState: 'Crawled - currently not indexed',
    robotsTxtState: 'ALLOWED',
    indexingState: 'INDEXING_ALLOWED',
    pageFetchState: 'SUCCESSFUL',
    crawled: true,
    canonical: 'none',
  },
  noindex: {
    verdict: 'NEUTRAL',
    coverageState: "Excluded by 'noindex' tag",
    robotsTxtState: 'ALLOWED',
    indexingState: 'BLOCKED_BY_META_TAG',
    pageFetchState: 'SUCCESSFUL',
    crawled: true,
    canonical: 'none',
  },
  duplicate: {
    verdict: 'NEUTRAL',
    coverageState: 'Duplicate, Google chose different canonical than user',
    robotsTxtState: 'ALLOWED',
    indexingState: 'INDEXING_ALLOWED',
    pageFetchState: 'SUCCESSFUL',
    crawled: true,
    canonical: 'other',
  },
  robots: {
    verdict: 'NEUTRAL',
    coverageState: 'Blocked by robots.txt',
    robotsTxtState: 'DISALLOWED',
    indexingState: 'INDEXING_STATE_UNSPECIFIED',
    pageFetchState: 'BLOCKED_ROBOTS_TXT',
    crawled: false,
    canonical: 'none',
  },
  notFound: {
    verdict: 'FAIL',
    coverageState: 'Not found (404)',
    robotsTxtState: 'ALLOWED',
    indexingState: 'INDEXING_ALLOWED',
    pageFetchState: 'NOT_FOUND',
    crawled: true,
    canonical: 'none',
  },
  discovered: {
    verdict: 'NEUTRAL',
    coverageState: 'Discovered - currently not indexed',
    robotsTxtState: 'ROBOTS_TXT_STATE_UNSPECIFIED',
    indexingState: 'INDEXING_STATE_UNSPECIFIED',
    pageFetchState: 'PAGE_FETCH_STATE_UNSPECIFIED',
    crawled: false,
    canonical: 'none',
  },
  unknown: {
    verdict: 'NEUTRAL',
    coverageState: 'URL is unknown to Google',
    robotsTxtState: 'ROBOTS_TXT_STATE_UNSPECIFIED',
    indexingState: 'INDEXING_STATE_UNSPECIFIED',
    pageFetchState: 'PAGE_FETCH_STATE_UNSPECIFIED',
    crawled: false,
    canonical: 'none',
  },
}

/** Rich results a page kind carries, by the names the real report uses. */
const RICH_RESULTS: Partial<Record<Page['kind'], string[]>> = {
  review: ['Review snippets', 'Breadcrumbs'],
  shop: ['Product snippets', 'Merchant listings'],
  guide: ['FAQ', 'Breadcrumbs'],
  blog: ['Breadcrumbs'],
}

/** How a quarter of a site's pages are not indexed, 5% each. */
const EXCLUDED = ['crawledNotIndexed', 'noindex', 'duplicate', 'robots', 'notFound'] as const

export function inspectUrl(
  user: string,
  site: Site,
  inspectionUrl: string,
  publicUrl: string,
  now = Date.now(),
) {
  urlOnSite(site, 'inspectionUrl', inspectionUrl)
  const { pages } = siteCatalog(user, site.siteUrl)
  const index = pages.findIndex((p) => p.url === inspectionUrl)
  const page = pages[index]
  const random = new Sfc32('search-inspection', user, site.siteUrl, inspectionUrl)
  const roll = random.next()
  const name = page
    ? index === 0 || roll < 0.75
      ? 'indexed'
      : EXCLUDED[Math.min(EXCLUDED.length - 1, Math.floor((roll - 0.75) / 0.05))]!
    : roll < 0.6
      ? 'unknown'
      : 'discovered'
  const state = STATES[name]!
  const related = page
    ? pages.filter((p, i) => i !== index && (p.noun === page.noun || i === 0))
    : []
  const crawledAt = new Date(recentInstant(random, now, 1, 30))

  const indexStatusResult = {
    ...(page && state.crawled && { sitemap: [sitemapOfPage(site, page)] }),
    ...(related.length &&
      state.crawled && { referringUrls: related.slice(0, 3).map((p) => p.url) }),
    verdict: state.verdict,
    coverageState: state.coverageState,
    robotsTxtState: state.robotsTxtState,
    indexingState: state.indexingState,
    ...(state.crawled && { lastCrawlTime: crawledAt.toISOString().replace(/\.\d+Z$/, 'Z') }),
    pageFetchState: state.pageFetchState,
    ...(state.canonical !== 'none' && {
      googleCanonical:
        state.canonical === 'self' ? inspectionUrl : (related[0]?.url ?? pages[0]!.url),
      userCanonical: inspectionUrl,
    }),
    ...(state.crawled && { crawledAs: random.next() < 0.9 ? 'MOBILE' : 'DESKTOP' }),
  }
  const indexed = name === 'indexed'
  const mobileUsabilityResult = !indexed
    ? { verdict: 'VERDICT_UNSPECIFIED' }
    : random.next() < 0.9
      ? { verdict: 'PASS' }
      : {
          verdict: 'FAIL',
          issues: [
            {
              issueType: 'USE_LEGIBLE_FONT_SIZES',
              severity: 'ERROR',
              message: 'Text too small to read',
            },
          ],
        }
  const richTypes = indexed && page ? RICH_RESULTS[page.kind] : undefined
  const richResultsResult = richTypes && {
    verdict: random.next() < 0.85 ? 'PASS' : 'FAIL',
    detectedItems: richTypes.map((richResultType) => ({
      richResultType,
      items: [
        { name: `${richResultType} of ${page!.url.split('/').filter(Boolean).pop() ?? 'page'}` },
      ],
    })),
  }
  if (richResultsResult?.verdict === 'FAIL')
    (richResultsResult.detectedItems[0]!.items[0] as Record<string, unknown>).issues = [
      { issueMessage: 'Missing field "name"', severity: 'ERROR' },
    ]

  const link = new URL('/search/inspect', publicUrl)
  link.searchParams.set('resource_id', site.siteUrl)
  link.searchParams.set('id', inspectionUrl)
  return {
    inspectionResult: {
      inspectionResultLink: link.toString(),
      indexStatusResult,
      mobileUsabilityResult,
      ...(richResultsResult && { richResultsResult }),
    },
  }
}
