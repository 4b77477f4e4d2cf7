import { z } from 'zod'
import { defineTool, narrowList } from '../definition.js'
import { emptyIsNone } from '../inputs.js'
import { describeSubmitSitemap } from './describe.js'
import {
  AGGREGATIONS,
  DATA_STATES,
  date,
  DIMENSIONS,
  filterGroup,
  oneOf,
  onSiteCheck,
  pageUrl,
  ROW_LIMIT,
  rowLimit,
  SEARCH_TYPES,
  siteUrl,
  startRow,
} from './inputs.js'
import { performanceTable, performanceTableOf } from './performance-table.js'
import {
  inspection,
  site,
  sitemapsList,
  sitesList,
  searchAnalyticsAnswer,
  submittedSitemap,
} from './resources.js'
import { SEARCH_TABLE } from './table.js'

/**
 * The search-performance service's six tools, each from its row of the tool table
 * (SEARCH_TABLE), modeled on the real Search Console API.
 */

const SITES =
  'siteUrl is a site exactly as list_sites gives it: a URL-prefix site ends with "/" (https://www.example.com/; http and https, www and no www, are different sites), a domain property is sc-domain:example.com (every host of the domain, http and https).'

const siteField = siteUrl().describe(
  'The site, exactly as list_sites gives it: https://www.example.com/ (with the trailing slash) or sc-domain:example.com.',
)

export const getSite = defineTool(SEARCH_TABLE.get_site, {
  title: 'Read a site',
  description: [
    'Read one of the person’s sites in Search Console: its siteUrl and the person’s permissionLevel (siteOwner, siteFullUser, siteRestrictedUser, siteUnverifiedUser).',
    SITES,
    'A site that is not the person’s, or is spelled differently from list_sites, is refused as a permission error.',
  ].join(' '),
  input: { siteUrl: siteField },
  query: [],
  output: site,
})

export const inspectUrl = defineTool(SEARCH_TABLE.inspect_url, {
  title: 'Check how a page is indexed',
  description: [
    'Check what Google’s index knows of one URL of a site: indexStatusResult.verdict PASS means indexed, NEUTRAL excluded, FAIL an error;',
    'coverageState says it in words ("Submitted and indexed", "Crawled - currently not indexed", ...), with the last crawl time, the robots.txt and fetch states, the canonical Google chose and the one the page declares, and the sitemaps and pages that refer to it;',
    'mobileUsabilityResult and, where the page has any, richResultsResult.',
    'inspectionUrl must be a full URL within siteUrl: under the prefix of a URL-prefix site, or on the domain (any subdomain) of an sc-domain: property.',
    'This reads the index; it does not ask Google to crawl or index anything.',
  ].join(' '),
  input: {
    inspectionUrl: pageUrl('inspectionUrl', 'the full URL to inspect').describe(
      'The full URL to inspect, within siteUrl, such as https://www.example.com/blog/post.',
    ),
    siteUrl: siteField,
    languageCode: z
      .string({ error: 'languageCode must be a string' })
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
        error: 'languageCode must be a BCP-47 language code, such as "en-US" or "de-CH"',
      })
      .optional()
      .describe('Language of the issue messages, as BCP-47 (default "en-US").'),
  },
  check: onSiteCheck('inspectionUrl'),
  query: [],
  output: inspection,
})

export const listSitemaps = defineTool(SEARCH_TABLE.list_sitemaps, {
  title: 'List sitemaps',
  description: [
    'List the sitemaps submitted for a site: for each, its URL (path), when it was last submitted and downloaded, whether Google has still to process it (isPending), its type, its errors and warnings, and how many URLs it lists by content type (counts are strings).',
    'With sitemapIndex (the URL of one of the site’s sitemap indexes, isSitemapsIndex true), list the sitemaps that index holds instead.',
    'An answer without "sitemap" means none.',
    SITES,
  ].join(' '),
  input: {
    siteUrl: siteField,
    sitemapIndex: pageUrl('sitemapIndex', 'the URL of a sitemap index')
      .optional()
      .describe(
        'The URL of a sitemap index of the site: list the sitemaps it holds. Omit for the submitted sitemaps.',
      ),
  },
  check: onSiteCheck('sitemapIndex'),
  query: ['sitemapIndex'],
  output: sitemapsList,
})

export const listSites = defineTool(SEARCH_TABLE.list_sites, {
  title: 'List sites',
  description: [
    'List the person’s sites (properties) in Search Console, with their permission level.',
    'Use a siteUrl from here unchanged in the other tools. A URL-prefix site ends with "/" (https://www.example.com/) and holds the addresses that start with it; a domain property is sc-domain:example.com and holds every host of the domain, http and https.',
    'An answer without "siteEntry" means the person has no sites.',
  ].join(' '),
  input: {},
  query: [],
  output: sitesList,
  narrow: narrowList('siteEntry', 'siteUrl'),
})

export const querySearchAnalytics = defineTool(SEARCH_TABLE.query_search_analytics, {
  title: 'Query search performance',
  description: [
    'Clicks, impressions, click-through rate and average position of a site in Google Search over a date range, grouped by dimensions and filtered.',
    'startDate and endDate are YYYY-MM-DD in Pacific Time, both included; data goes back 16 months and is final up to about 3 days ago (dataState).',
    'The answer is a table: each row holds the values of dimensions (as asked), then of metrics: clicks, impressions, ctr (a fraction: 0.05 is 5%) and position (average, impression-weighted; 1 is the top).',
    'Rows come by clicks, highest first; without dimensions the one row is the totals; no rows means no data.',
    'Pages starting with "/" are paths on pageOrigin: filters and inspect_url take the full URL.',
    `${ROW_LIMIT.default} rows by default (rowLimit, up to ${ROW_LIMIT.max.toLocaleString('en')}): when the answer has nextStartRow, call again with it as startRow for the next page.`,
    'Filtering by a dimension does not need grouping by it. searchAppearance is grouped alone: to break one appearance down, filter by it and group by the others.',
    SITES,
  ].join(' '),
  input: {
    siteUrl: siteField,
    startDate: date('startDate').describe('First day, YYYY-MM-DD (Pacific Time), included.'),
    endDate: date('endDate').describe(
      'Last day, YYYY-MM-DD (Pacific Time), included; on or after startDate.',
    ),
    dimensions: emptyIsNone(
      z
        .array(oneOf('dimensions', DIMENSIONS), {
          error: 'dimensions must be a list of dimension names',
        })
        .max(DIMENSIONS.length, { error: 'dimensions can name each dimension once' }),
    ).describe(
      'Group by these, each once, in this order (each row’s first values follow it); hour needs dataState hourly_all. Omit for totals.',
    ),
    type: oneOf('type', SEARCH_TYPES)
      .optional()
      .describe(
        'Search surface: web (default), image, video, news, discover or googleNews (these two have no queries).',
      ),
    dimensionFilterGroups: emptyIsNone(
      z
        .array(filterGroup, { error: 'dimensionFilterGroups must be a list of filter groups' })
        .max(20, { error: 'dimensionFilterGroups holds at most 20 groups' }),
    ).describe(
      'Filters, as [{"filters":[{"dimension":"query","operator":"contains","expression":"shoes"}]}]; every filter of every group must match.',
    ),
    aggregationType: oneOf('aggregationType', AGGREGATIONS)
      .optional()
      .describe(
        'auto (default: by page when grouping or filtering by page, else by property), byPage, byProperty (not with page) or byNewsShowcasePanel (with type discover or googleNews and a filter searchAppearance equals NEWS_SHOWCASE).',
      ),
    rowLimit: rowLimit().default(ROW_LIMIT.default).describe('Rows per answer, 1 to 25,000.'),
    startRow: startRow()
      .optional()
      .describe('Index of the first row, from 0 (default 0): nextStartRow for the next page.'),
    dataState: oneOf('dataState', DATA_STATES)
      .optional()
      .describe(
        'final (default: settled data, ending about 3 days ago), all (with fresh data, still changing from firstIncompleteDate) or hourly_all (for hour: the last 10 days).',
      ),
  },
  check: (args, ctx) => {
    const fail = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message })
    if (args.startDate > args.endDate)
      fail(
        'startDate',
        `startDate ${args.startDate} is after endDate ${args.endDate}: give a startDate on or before endDate`,
      )
    const dims = args.dimensions ?? []
    const repeated = dims.find((d, i) => dims.indexOf(d) !== i)
    if (repeated)
      fail('dimensions', `dimensions names "${repeated}" twice: give each dimension once`)
    if (dims.includes('searchAppearance') && dims.length > 1)
      fail(
        'dimensions',
        'searchAppearance cannot be grouped with other dimensions: group by it alone, then filter by one appearance and group by the others',
      )
    if (dims.includes('hour') && args.dataState !== 'hourly_all')
      fail('dataState', 'grouping by hour needs dataState "hourly_all"')
    const filters = (args.dimensionFilterGroups ?? []).flatMap((g) => g.filters)
    const byPage = dims.includes('page') || filters.some((f) => f.dimension === 'page')
    if (args.aggregationType === 'byProperty' && byPage)
      fail(
        'aggregationType',
        '"byProperty" cannot be used when grouping or filtering by page: use "auto" or "byPage"',
      )
    if (args.aggregationType === 'byNewsShowcasePanel') {
      if (args.type !== 'discover' && args.type !== 'googleNews')
        fail('aggregationType', '"byNewsShowcasePanel" needs type "discover" or "googleNews"')
      const showcase = filters.some(
        (f) =>
          f.dimension === 'searchAppearance' &&
          (f.operator ?? 'equals') === 'equals' &&
          f.expression === 'NEWS_SHOWCASE',
      )
      if (!showcase)
        fail(
          'aggregationType',
          '"byNewsShowcasePanel" needs a filter: searchAppearance equals "NEWS_SHOWCASE"',
        )
    }
  },
  query: [],
  output: performanceTable,
  answer: { schema: searchAnalyticsAnswer, present: performanceTableOf },
  view: 'search-performance',
})

export const submitSitemap = defineTool(SEARCH_TABLE.submit_sitemap, {
  title: 'Submit a sitemap',
  description: [
    'Submit a sitemap for a site, so that Google fetches it and crawls the pages it lists. Nothing on the site itself changes.',
    'feedpath is the sitemap’s full URL, within siteUrl: under the prefix of a URL-prefix site, or on any host of an sc-domain: property.',
    'Submitting a sitemap again is fine: Google is asked to fetch it again. list_sitemaps then shows it, pending until Google has read it.',
    SITES,
    'The person is shown the sitemap and the site, and it is submitted only after they approve; if they decline, nothing is submitted.',
  ].join(' '),
  input: {
    siteUrl: siteField,
    feedpath: pageUrl('feedpath', 'the sitemap’s full URL').describe(
      'The sitemap’s full URL, such as https://www.example.com/sitemap.xml.',
    ),
  },
  check: onSiteCheck('feedpath'),
  query: [],
  output: submittedSitemap,
  // The provider answers without a body (200; Google 204): the result names what was submitted.
  answerWithoutBody: ({ siteUrl, feedpath }) => ({ siteUrl, feedpath, submitted: true }),
  approval: {
    describe: describeSubmitSitemap,
    reads: [
      { operation: 'get_site', what: 'the site, which also confirms it is the person’s' },
      {
        operation: 'list_sitemaps',
        what: 'its sitemaps, to say whether this one was submitted before',
      },
    ],
  },
})
