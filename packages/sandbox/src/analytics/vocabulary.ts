import type { Random } from '../synthetic/random.js'

/**
 * The words the synthetic analytics data is made of: places, devices, traffic sources, and three
 * kinds of site (a shop, a software product, a news publisher), each with its pages, products,
 * key events and custom event parameters. Every list is label-unique, so an index is a value.
 */

export const NOT_SET = '(not set)'

interface Country {
  name: string
  id: string
  continent: string
  cities: string[]
  weight: number
}

// prettier-ignore
export const COUNTRIES: readonly Country[] = [
  { name: 'United States', id: 'US', continent: 'Americas', weight: 34, cities: ['New York', 'Los Angeles', 'Chicago', 'San Francisco', 'Seattle', 'Austin', NOT_SET] },
  { name: 'United Kingdom', id: 'GB', continent: 'Europe', weight: 9, cities: ['London', 'Manchester', 'Edinburgh'] },
  { name: 'Germany', id: 'DE', continent: 'Europe', weight: 9, cities: ['Berlin', 'Munich', 'Hamburg'] },
  { name: 'France', id: 'FR', continent: 'Europe', weight: 5, cities: ['Paris', 'Lyon'] },
  { name: 'Japan', id: 'JP', continent: 'Asia', weight: 6, cities: ['Tokyo', 'Osaka'] },
  { name: 'India', id: 'IN', continent: 'Asia', weight: 8, cities: ['Bengaluru', 'Mumbai', 'Delhi'] },
  { name: 'Canada', id: 'CA', continent: 'Americas', weight: 5, cities: ['Toronto', 'Vancouver', 'Montreal'] },
  { name: 'Brazil', id: 'BR', continent: 'Americas', weight: 4, cities: ['São Paulo', 'Rio de Janeiro'] },
  { name: 'Australia', id: 'AU', continent: 'Oceania', weight: 3, cities: ['Sydney', 'Melbourne'] },
  { name: 'Netherlands', id: 'NL', continent: 'Europe', weight: 3, cities: ['Amsterdam', 'Rotterdam'] },
  { name: 'Spain', id: 'ES', continent: 'Europe', weight: 3, cities: ['Madrid', 'Barcelona'] },
  { name: 'Mexico', id: 'MX', continent: 'Americas', weight: 2, cities: ['Mexico City'] },
  { name: 'Nigeria', id: 'NG', continent: 'Africa', weight: 1, cities: ['Lagos'] },
  { name: NOT_SET, id: NOT_SET, continent: NOT_SET, weight: 0.5, cities: [NOT_SET] },
]

/** One place a session comes from: a city of a country. */
interface Place {
  country: number
  city: string
}

export const PLACES: readonly Place[] = COUNTRIES.flatMap((country, index) =>
  country.cities.map((city) => ({ country: index, city })),
)

interface Technology {
  device: string
  os: string
  browser: string
  weight: number
}

// prettier-ignore
export const TECHNOLOGIES: readonly Technology[] = [
  { device: 'desktop', os: 'Windows', browser: 'Chrome', weight: 22 },
  { device: 'desktop', os: 'Windows', browser: 'Edge', weight: 6 },
  { device: 'desktop', os: 'Windows', browser: 'Firefox', weight: 3 },
  { device: 'desktop', os: 'Macintosh', browser: 'Chrome', weight: 9 },
  { device: 'desktop', os: 'Macintosh', browser: 'Safari', weight: 6 },
  { device: 'desktop', os: 'Linux', browser: 'Chrome', weight: 2 },
  { device: 'desktop', os: 'Linux', browser: 'Firefox', weight: 1 },
  { device: 'desktop', os: 'Chrome OS', browser: 'Chrome', weight: 1 },
  { device: 'mobile', os: 'iOS', browser: 'Safari', weight: 17 },
  { device: 'mobile', os: 'iOS', browser: 'Chrome', weight: 3 },
  { device: 'mobile', os: 'Android', browser: 'Chrome', weight: 20 },
  { device: 'mobile', os: 'Android', browser: 'Samsung Internet', weight: 4 },
  { device: 'tablet', os: 'iOS', browser: 'Safari', weight: 4 },
  { device: 'tablet', os: 'Android', browser: 'Chrome', weight: 2 },
]

interface TrafficSource {
  source: string
  medium: string
  channel: string
  campaign: string
  weight: number
  /** Share of sessions by people new to the site. */
  newShare: number
  /** Share of sessions that are engaged. */
  engagement: number
}

// prettier-ignore
export const TRAFFIC: readonly TrafficSource[] = [
  { source: 'google', medium: 'organic', channel: 'Organic Search', campaign: '(organic)', weight: 38, newShare: 0.55, engagement: 0.62 },
  { source: 'bing', medium: 'organic', channel: 'Organic Search', campaign: '(organic)', weight: 4, newShare: 0.5, engagement: 0.6 },
  { source: 'duckduckgo', medium: 'organic', channel: 'Organic Search', campaign: '(organic)', weight: 2, newShare: 0.5, engagement: 0.64 },
  { source: '(direct)', medium: '(none)', channel: 'Direct', campaign: '(direct)', weight: 24, newShare: 0.3, engagement: 0.58 },
  { source: 'google', medium: 'cpc', channel: 'Paid Search', campaign: 'brand_search', weight: 7, newShare: 0.6, engagement: 0.55 },
  { source: 'facebook.com', medium: 'referral', channel: 'Organic Social', campaign: '(referral)', weight: 5, newShare: 0.7, engagement: 0.42 },
  { source: 't.co', medium: 'referral', channel: 'Organic Social', campaign: '(referral)', weight: 2, newShare: 0.7, engagement: 0.4 },
  { source: 'linkedin.com', medium: 'referral', channel: 'Organic Social', campaign: '(referral)', weight: 2, newShare: 0.65, engagement: 0.5 },
  { source: 'newsletter', medium: 'email', channel: 'Email', campaign: 'weekly_digest', weight: 6, newShare: 0.08, engagement: 0.75 },
  { source: 'news.ycombinator.com', medium: 'referral', channel: 'Referral', campaign: '(referral)', weight: 2, newShare: 0.8, engagement: 0.5 },
  { source: 'github.com', medium: 'referral', channel: 'Referral', campaign: '(referral)', weight: 2, newShare: 0.6, engagement: 0.66 },
  { source: 'chatgpt.com', medium: 'referral', channel: 'Referral', campaign: '(referral)', weight: 2, newShare: 0.75, engagement: 0.7 },
]

/** Hour-of-day shape of traffic in the property's time zone (relative weights, 0 to 23). */
export const DIURNAL: readonly number[] = [
  2, 1.4, 1, 0.8, 0.8, 1.1, 2, 3.4, 4.8, 5.6, 6, 6.1, 6, 5.9, 5.8, 5.7, 5.6, 5.5, 5.4, 5.6, 5.7, 5,
  3.9, 2.8,
]

export const VISITOR_TYPES = ['new', 'returning'] as const

export const EVENT_NAMES = [
  'page_view',
  'session_start',
  'first_visit',
  'user_engagement',
  'scroll',
  'click',
  'view_search_results',
  'form_start',
  'form_submit',
  'generate_lead',
  'sign_up',
  'view_item',
  'add_to_cart',
  'begin_checkout',
  'purchase',
  'file_download',
] as const
export type EventName = (typeof EVENT_NAMES)[number]
export const eventIndex = (name: EventName) => EVENT_NAMES.indexOf(name)

export interface Page {
  path: string
  title: string
  /** Weight among pages viewed after landing. */
  weight: number
  /** Weight among landing pages. */
  landing: number
  /** The content group, for custom parameters. */
  group: string
  author?: string
}

interface Product {
  name: string
  category: string
  priceCents: number
  /** Where it is viewed. */
  page: string
}

/** An event-scoped custom parameter registered as a custom dimension of the property. */
interface CustomEventParameter {
  parameter: string
  uiName: string
  description: string
  /** Label-unique; NOT_SET first, for events that do not carry the parameter. */
  values: readonly string[]
  /** The value's index for one event on one page. */
  valueFor(event: EventName, page: Page, random: Random): number
}

export interface SiteKind {
  name: 'shop' | 'software' | 'publisher'
  hostName: string
  pages: readonly Page[]
  products: readonly Product[]
  keyEvents: readonly EventName[]
  customEvents: readonly [CustomEventParameter, CustomEventParameter]
  signUpPage: string
  contactPage: string
  searchPage: string
  checkoutPage: string
  thankYouPage: string
  /** Traffic on Saturday and Sunday relative to a weekday. */
  weekend: number
  /** Traffic by month (January first) relative to an average month. */
  season: readonly number[]
}

const byGroup =
  (groups: readonly string[]): CustomEventParameter['valueFor'] =>
  (event, page) =>
    event === 'page_view' ? groups.indexOf(page.group) : 0

const contentGroup = (groups: readonly string[]): CustomEventParameter => ({
  parameter: 'content_group',
  uiName: 'Content group',
  description: 'The section of the site a page belongs to (the content_group event parameter).',
  values: [NOT_SET, ...groups],
  valueFor: byGroup([NOT_SET, ...groups]),
})

const SHOP_GROUPS = ['home', 'product', 'checkout', 'blog', 'info']

const SHOP: SiteKind = {
  name: 'shop',
  hostName: 'shop.example.test',
  // prettier-ignore
  pages: [
    { path: '/', title: 'Trailhead Outfitters', weight: 8, landing: 30, group: 'home' },
    { path: '/products', title: 'All products | Trailhead Outfitters', weight: 10, landing: 6, group: 'product' },
    { path: '/products/trail-runner', title: 'Trail Runner shoe | Trailhead Outfitters', weight: 9, landing: 12, group: 'product' },
    { path: '/products/city-sneaker', title: 'City Sneaker | Trailhead Outfitters', weight: 6, landing: 7, group: 'product' },
    { path: '/products/wool-socks', title: 'Merino wool socks | Trailhead Outfitters', weight: 4, landing: 4, group: 'product' },
    { path: '/products/rain-jacket', title: 'Rain jacket | Trailhead Outfitters', weight: 5, landing: 6, group: 'product' },
    { path: '/cart', title: 'Your cart | Trailhead Outfitters', weight: 5, landing: 0.5, group: 'checkout' },
    { path: '/checkout', title: 'Checkout | Trailhead Outfitters', weight: 3, landing: 0, group: 'checkout' },
    { path: '/checkout/thank-you', title: 'Thank you for your order', weight: 1, landing: 0, group: 'checkout' },
    { path: '/blog', title: 'Journal | Trailhead Outfitters', weight: 2, landing: 2, group: 'blog' },
    { path: '/blog/how-to-choose-running-shoes', title: 'How to choose running shoes', weight: 3, landing: 9, group: 'blog' },
    { path: '/blog/winter-layering-guide', title: 'A winter layering guide', weight: 2, landing: 6, group: 'blog' },
    { path: '/search', title: 'Search results | Trailhead Outfitters', weight: 3, landing: 0.5, group: 'info' },
    { path: '/contact', title: 'Contact us | Trailhead Outfitters', weight: 1, landing: 1, group: 'info' },
    { path: '/account', title: 'Your account | Trailhead Outfitters', weight: 2, landing: 1, group: 'info' },
    { path: '/returns', title: 'Returns and exchanges', weight: 1, landing: 1, group: 'info' },
    { path: '/healthz', title: '', weight: 0.2, landing: 0.2, group: 'info' },
  ],
  // prettier-ignore
  products: [
    { name: 'Trail Runner', category: 'Shoes', priceCents: 12900, page: '/products/trail-runner' },
    { name: 'City Sneaker', category: 'Shoes', priceCents: 8900, page: '/products/city-sneaker' },
    { name: 'Merino Wool Socks', category: 'Accessories', priceCents: 1900, page: '/products/wool-socks' },
    { name: 'Rain Jacket', category: 'Outerwear', priceCents: 15900, page: '/products/rain-jacket' },
  ],
  keyEvents: ['purchase', 'sign_up'],
  customEvents: [
    {
      parameter: 'payment_type',
      uiName: 'Payment type',
      description: 'How an order was paid (the payment_type parameter of purchase events).',
      values: [NOT_SET, 'credit_card', 'paypal', 'apple_pay'],
      valueFor: (event, _page, random) =>
        event === 'purchase' ? 1 + Math.floor(random.next() * 3) : 0,
    },
    contentGroup(SHOP_GROUPS),
  ],
  signUpPage: '/account',
  contactPage: '/contact',
  searchPage: '/search',
  checkoutPage: '/checkout',
  thankYouPage: '/checkout/thank-you',
  weekend: 1.25,
  season: [0.85, 0.8, 0.9, 0.95, 1, 0.95, 0.9, 0.9, 1, 1.05, 1.3, 1.4],
}

const PLANS = ['free', 'pro', 'business']

const SOFTWARE: SiteKind = {
  name: 'software',
  hostName: 'app.example.test',
  // prettier-ignore
  pages: [
    { path: '/', title: 'Ledgerly: accounting for small teams', weight: 6, landing: 28, group: 'marketing' },
    { path: '/pricing', title: 'Pricing | Ledgerly', weight: 9, landing: 8, group: 'marketing' },
    { path: '/features', title: 'Features | Ledgerly', weight: 6, landing: 5, group: 'marketing' },
    { path: '/features/reports', title: 'Reports | Ledgerly', weight: 3, landing: 3, group: 'marketing' },
    { path: '/features/integrations', title: 'Integrations | Ledgerly', weight: 3, landing: 3, group: 'marketing' },
    { path: '/signup', title: 'Create your account | Ledgerly', weight: 4, landing: 2, group: 'product' },
    { path: '/login', title: 'Sign in | Ledgerly', weight: 6, landing: 10, group: 'product' },
    { path: '/dashboard', title: 'Dashboard | Ledgerly', weight: 12, landing: 6, group: 'product' },
    { path: '/docs', title: 'Documentation | Ledgerly', weight: 4, landing: 4, group: 'docs' },
    { path: '/docs/getting-started', title: 'Getting started | Ledgerly Docs', weight: 4, landing: 7, group: 'docs' },
    { path: '/docs/api', title: 'API reference | Ledgerly Docs', weight: 3, landing: 5, group: 'docs' },
    { path: '/blog', title: 'Blog | Ledgerly', weight: 1, landing: 1, group: 'blog' },
    { path: '/blog/announcing-v2', title: 'Announcing Ledgerly 2.0', weight: 2, landing: 6, group: 'blog' },
    { path: '/blog/customer-story-acme', title: 'How Acme closes its books in a day', weight: 1, landing: 4, group: 'blog' },
    { path: '/contact', title: 'Talk to sales | Ledgerly', weight: 1, landing: 1, group: 'marketing' },
    { path: '/checkout', title: 'Upgrade your plan | Ledgerly', weight: 1, landing: 0, group: 'product' },
    { path: '/checkout/complete', title: 'Welcome to your new plan', weight: 0.5, landing: 0, group: 'product' },
    { path: '/search', title: 'Search | Ledgerly Docs', weight: 1, landing: 0.3, group: 'docs' },
    { path: '/status', title: '', weight: 0.2, landing: 0.3, group: 'docs' },
  ],
  // prettier-ignore
  products: [
    { name: 'Pro plan (monthly)', category: 'Plans', priceCents: 2900, page: '/pricing' },
    { name: 'Pro plan (annual)', category: 'Plans', priceCents: 29000, page: '/pricing' },
    { name: 'Business plan (monthly)', category: 'Plans', priceCents: 7900, page: '/pricing' },
    { name: 'Extra seat', category: 'Add-ons', priceCents: 900, page: '/pricing' },
  ],
  keyEvents: ['sign_up', 'generate_lead', 'purchase'],
  customEvents: [
    {
      parameter: 'plan_name',
      uiName: 'Plan name',
      description: 'The plan chosen at sign-up or purchase (the plan_name event parameter).',
      values: [NOT_SET, ...PLANS],
      valueFor: (event, _page, random) =>
        event === 'sign_up'
          ? 1 + (random.next() < 0.8 ? 0 : 1)
          : event === 'purchase' || event === 'begin_checkout'
            ? 2 + (random.next() < 0.7 ? 0 : 1)
            : 0,
    },
    {
      parameter: 'form_id',
      uiName: 'Form ID',
      description: 'Which form was used (the form_id parameter of form and lead events).',
      values: [NOT_SET, 'contact_sales', 'demo_request', 'newsletter'],
      valueFor: (event, _page, random) =>
        event === 'form_start' || event === 'form_submit' || event === 'generate_lead'
          ? 1 + Math.floor(random.next() * 3)
          : 0,
    },
  ],
  signUpPage: '/signup',
  contactPage: '/contact',
  searchPage: '/search',
  checkoutPage: '/checkout',
  thankYouPage: '/checkout/complete',
  weekend: 0.45,
  season: [1.05, 1.05, 1.1, 1, 1, 0.95, 0.85, 0.85, 1.05, 1.05, 1.05, 0.9],
}

const AUTHORS = ['Ada Osei', 'Ben Müller', 'Chloé Martin', 'Dev Patel']

const PUBLISHER: SiteKind = {
  name: 'publisher',
  hostName: 'news.example.test',
  // prettier-ignore
  pages: [
    { path: '/', title: 'The Riverside Courier', weight: 10, landing: 22, group: 'home' },
    { path: '/news', title: 'News | The Riverside Courier', weight: 6, landing: 3, group: 'news' },
    { path: '/news/city-council-budget', title: 'Council passes a leaner budget', weight: 8, landing: 14, group: 'news', author: AUTHORS[0] },
    { path: '/news/new-rail-line', title: 'A new rail line, ten years on', weight: 7, landing: 12, group: 'news', author: AUTHORS[1] },
    { path: '/sports', title: 'Sports | The Riverside Courier', weight: 4, landing: 2, group: 'sports' },
    { path: '/sports/derby-recap', title: 'Derby recap: late drama at the river end', weight: 6, landing: 10, group: 'sports', author: AUTHORS[2] },
    { path: '/culture', title: 'Culture | The Riverside Courier', weight: 3, landing: 1, group: 'culture' },
    { path: '/culture/film-festival-guide', title: 'Our film festival guide', weight: 4, landing: 7, group: 'culture', author: AUTHORS[3] },
    { path: '/opinion/why-buses-matter', title: 'Opinion: why buses matter', weight: 3, landing: 5, group: 'opinion', author: AUTHORS[0] },
    { path: '/newsletter', title: 'Get the morning briefing', weight: 2, landing: 1, group: 'subscriptions' },
    { path: '/subscribe', title: 'Subscribe | The Riverside Courier', weight: 2, landing: 1, group: 'subscriptions' },
    { path: '/subscribe/thank-you', title: 'Thank you for subscribing', weight: 0.5, landing: 0, group: 'subscriptions' },
    { path: '/about', title: 'About us | The Riverside Courier', weight: 1, landing: 1, group: 'info' },
    { path: '/contact', title: 'Contact the newsroom', weight: 1, landing: 0.5, group: 'info' },
    { path: '/search', title: 'Search | The Riverside Courier', weight: 2, landing: 0.5, group: 'info' },
    { path: '/amp/news/new-rail-line', title: '', weight: 0.5, landing: 2, group: 'news', author: AUTHORS[1] },
  ],
  // prettier-ignore
  products: [
    { name: 'Digital subscription (monthly)', category: 'Subscriptions', priceCents: 999, page: '/subscribe' },
    { name: 'Digital subscription (annual)', category: 'Subscriptions', priceCents: 9900, page: '/subscribe' },
    { name: 'Gift subscription', category: 'Gifts', priceCents: 4900, page: '/subscribe' },
  ],
  keyEvents: ['sign_up', 'purchase'],
  customEvents: [
    {
      parameter: 'article_author',
      uiName: 'Article author',
      description:
        'The byline of an article (the article_author parameter of page views and scrolls).',
      values: [NOT_SET, ...AUTHORS],
      valueFor: (event, page) =>
        (event === 'page_view' || event === 'scroll') && page.author
          ? 1 + AUTHORS.indexOf(page.author)
          : 0,
    },
    contentGroup(['home', 'news', 'sports', 'culture', 'opinion', 'subscriptions', 'info']),
  ],
  signUpPage: '/newsletter',
  contactPage: '/contact',
  searchPage: '/search',
  checkoutPage: '/subscribe',
  thankYouPage: '/subscribe/thank-you',
  weekend: 1.1,
  season: [1, 0.95, 1, 1, 1, 0.95, 0.9, 0.9, 1.05, 1.05, 1.05, 1.1],
}

export const SITE_KINDS: readonly SiteKind[] = [SHOP, SOFTWARE, PUBLISHER]

/** The user-scoped custom dimension every property has. */
export const MEMBERSHIP_TIERS = [NOT_SET, 'free', 'member', 'premium'] as const

/** Reporting time zones and their currencies, for properties to pick from. */
export const LOCALES: readonly { timeZone: string; currency: string; home: string }[] = [
  { timeZone: 'America/Los_Angeles', currency: 'USD', home: 'US' },
  { timeZone: 'America/New_York', currency: 'USD', home: 'US' },
  { timeZone: 'Europe/Berlin', currency: 'EUR', home: 'DE' },
  { timeZone: 'Europe/London', currency: 'GBP', home: 'GB' },
  { timeZone: 'Asia/Tokyo', currency: 'JPY', home: 'JP' },
]

/** Units of each currency per unit of USD: fixed, so that reports are reproducible. */
export const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 151,
  CAD: 1.36,
  AUD: 1.52,
  CHF: 0.88,
  INR: 83.3,
  BRL: 5.05,
  MXN: 17.1,
}
