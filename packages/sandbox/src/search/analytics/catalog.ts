import { Sfc32 } from '../../synthetic/random.js'
import { THEMES } from './themes.js'

/**
 * What a site is about, as search sees it: its pages, the queries people find it with, and
 * which page answers which query. Derived from the user and the site alone, so a site reads the
 * same on every run. The URL-prefix site keeps every page under its prefix; the domain property
 * spreads them over www., shop. and blog. hosts of its domain.
 */

export const COUNTRIES = [
  'usa',
  'gbr',
  'can',
  'aus',
  'ind',
  'deu',
  'fra',
  'nld',
  'esp',
  'bra',
  'mex',
  'jpn',
] as const
/** How often each country searches, relatively. */
export const COUNTRY_WEIGHTS = [40, 12, 8, 6, 9, 6, 5, 3, 4, 3, 2, 2]

export const DEVICES = ['DESKTOP', 'MOBILE', 'TABLET'] as const

/** Search appearances (rich result features) a result can have; most results have none. */
export const APPEARANCES = [
  'REVIEW_SNIPPET',
  'PRODUCT_SNIPPETS',
  'FAQ_RICH_RESULT',
  'VIDEO',
  'TRANSLATED_RESULT',
  'NEWS_SHOWCASE',
] as const
type Appearance = (typeof APPEARANCES)[number]
export const NO_APPEARANCE = 255
const appearance = (name: Appearance) => APPEARANCES.indexOf(name)

type Intent = 'brand' | 'plain' | 'best' | 'review' | 'howto' | 'buy' | 'compare' | 'beginner'
type PageKind = 'home' | 'guide' | 'review' | 'shop' | 'compare' | 'blog' | 'about'

export interface Query {
  text: string
  intent: Intent
  /** The product the query is about, or -1 for the site's name. */
  noun: number
  other: number
}

export interface Page {
  url: string
  kind: PageKind
  noun: number
  other: number
}

export interface SiteCatalog {
  site: string
  queries: Query[]
  pages: Page[]
  /** Where each query lands: its main page, and a second one search sometimes shows instead. */
  landing: { page: number; alt: number }[]
}

const slugOf = (text: string) => text.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

/** The registrable domain of a site: `x.example` for `https://www.x.example/` or `sc-domain:x.example`. */
function domainOf(site: string): string {
  if (site.startsWith('sc-domain:')) return site.slice('sc-domain:'.length)
  return new URL(site).hostname.replace(/^www\./, '')
}

export function buildCatalog(user: string, site: string): SiteCatalog {
  const random = new Sfc32('search-catalog', user, site)
  const nouns = THEMES[random.int(THEMES.length)]!
  const domain = domainOf(site)
  const brand = domain.replace(/\.example$/, '').replace(/[-.]+/g, ' ')
  const isDomain = site.startsWith('sc-domain:')
  const base = (host: 'www' | 'shop' | 'blog', path: string) =>
    isDomain && host !== 'www'
      ? `https://${host}.${domain}/${path}`
      : `${isDomain ? `https://www.${domain}/` : site}${host === 'www' ? '' : `${host}/`}${path}`

  const pages: Page[] = []
  const pageIndex = new Map<string, number>()
  const addPage = (url: string, kind: PageKind, noun = -1, other = -1) => {
    if (!pageIndex.has(url)) {
      pageIndex.set(url, pages.length)
      pages.push({ url, kind, noun, other })
    }
    return pageIndex.get(url)!
  }
  const home = addPage(base('www', ''), 'home')
  for (const path of ['about/', 'contact/', 'faq/', 'shipping/'])
    addPage(base('www', path), path === 'faq/' ? 'guide' : 'about')
  nouns.forEach((noun, n) => {
    const slug = slugOf(noun)
    addPage(base('www', `guides/${slug}/`), 'guide', n)
    addPage(base('www', `reviews/${slug}/`), 'review', n)
    addPage(base('shop', `products/${slug}`), 'shop', n)
    for (let post = 1; post <= 3; post++)
      addPage(base('blog', `${2025 + (post % 2)}/${slug}-tips-${post}`), 'blog', n)
  })

  const candidates: Query[] = []
  for (const text of [brand, `${brand} login`, `${brand} reviews`, `${brand} coupon`, domain])
    candidates.push({ text, intent: 'brand', noun: -1, other: -1 })
  nouns.forEach((noun, n) => {
    const forms: [string, Intent][] = [
      [noun, 'plain'],
      [`best ${noun}`, 'best'],
      [`best ${noun} 2026`, 'best'],
      [`${noun} review`, 'review'],
      [`${noun} reviews`, 'review'],
      [`how to clean a ${noun}`, 'howto'],
      [`how to use a ${noun}`, 'howto'],
      [`${noun} for beginners`, 'beginner'],
      [`cheap ${noun}`, 'buy'],
      [`buy ${noun} online`, 'buy'],
      [`${noun} price`, 'buy'],
      [`${brand} ${noun}`, 'review'],
      [`${noun} near me`, 'buy'],
      [`is a ${noun} worth it`, 'beginner'],
    ]
    for (const [text, intent] of forms) candidates.push({ text, intent, noun: n, other: -1 })
    nouns.forEach((other, o) => {
      if (o > n)
        candidates.push({ text: `${noun} vs ${other}`, intent: 'compare', noun: n, other: o })
    })
  })
  // Brand queries first, then a random few hundred of the rest: their rank is their popularity.
  const brandCount = 5
  const queries = [
    ...candidates.slice(0, brandCount),
    ...random.shuffled(candidates.slice(brandCount)).slice(0, 260),
  ]

  const landing = queries.map((query) => {
    const n = query.noun
    const slug = n >= 0 ? slugOf(nouns[n]!) : ''
    const blog = n >= 0 ? pageIndex.get(base('blog', `${2025 + 1}/${slug}-tips-1`))! : home
    switch (query.intent) {
      case 'brand':
        return { page: home, alt: pageIndex.get(base('www', 'about/'))! }
      case 'howto':
      case 'beginner':
        return { page: pageIndex.get(base('www', `guides/${slug}/`))!, alt: blog }
      case 'buy':
        return {
          page: pageIndex.get(base('shop', `products/${slug}`))!,
          alt: pageIndex.get(base('www', `reviews/${slug}/`))!,
        }
      case 'compare': {
        const pair = `${slug}-vs-${slugOf(nouns[query.other]!)}`
        return {
          page: addPage(base('www', `compare/${pair}/`), 'compare', n, query.other),
          alt: blog,
        }
      }
      default:
        return { page: pageIndex.get(base('www', `reviews/${slug}/`))!, alt: blog }
    }
  })
  return { site, queries, pages, landing }
}

/** The rich result a page can show as, if any. */
export function appearanceOf(page: Page, query: Query | undefined): number {
  if (page.kind === 'review') return appearance('REVIEW_SNIPPET')
  if (page.kind === 'shop') return appearance('PRODUCT_SNIPPETS')
  if (page.kind === 'guide')
    return query?.intent === 'howto' ? appearance('VIDEO') : appearance('FAQ_RICH_RESULT')
  return NO_APPEARANCE
}
