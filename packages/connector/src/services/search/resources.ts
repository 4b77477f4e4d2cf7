import { z } from 'zod'

/**
 * What the provider returns, after the real Search Console API. Loose: every object keeps the
 * fields not named here, and most fields are optional, so a provider that adds or leaves out a
 * field does not break a tool. Counts of sitemaps are int64, which the API writes as strings.
 */

const count = (what: string) => z.string().describe(`${what}, as a string (int64).`)

export const site = z
  .looseObject({
    siteUrl: z
      .string()
      .describe(
        'The site as Search Console names it: https://www.example.com/ or sc-domain:example.com.',
      ),
    permissionLevel: z
      .string()
      .describe(
        'The person’s access: siteOwner, siteFullUser, siteRestrictedUser or siteUnverifiedUser.',
      ),
  })
  .describe('A site (property) in Search Console.')

export const sitesList = z
  .looseObject({
    siteEntry: z.array(site).optional().describe('The sites; absent when the person has none.'),
  })
  .describe('The person’s sites.')

const sitemap = z
  .looseObject({
    path: z.string().describe('The sitemap’s URL.'),
    lastSubmitted: z.string().optional().describe('When it was last submitted (RFC 3339).'),
    isPending: z.boolean().optional().describe('true while Google has not processed it yet.'),
    isSitemapsIndex: z
      .boolean()
      .optional()
      .describe('true for a sitemap index (a list of sitemaps).'),
    type: z
      .string()
      .optional()
      .describe('sitemap, rssFeed, atomFeed, urlList, patternSitemap or notSitemap.'),
    lastDownloaded: z.string().optional().describe('When Google last downloaded it (RFC 3339).'),
    warnings: count('Warnings found in it').optional(),
    errors: count('Errors found in it').optional(),
    contents: z
      .array(
        z.looseObject({
          type: z
            .string()
            .describe('web, image, video, news, mobile, androidApp, iosApp or pattern.'),
          submitted: count('URLs of this type it lists').optional(),
          indexed: count('Deprecated: always "0"').optional(),
        }),
      )
      .optional()
      .describe('What it lists, by type.'),
  })
  .describe('A sitemap of the site.')

export const sitemapsList = z
  .looseObject({
    sitemap: z.array(sitemap).optional().describe('The sitemaps; absent when there are none.'),
  })
  .describe('The sitemaps of a site, or of a sitemap index.')

const verdict = z
  .string()
  .describe('PASS (valid, indexed), NEUTRAL (excluded), FAIL (error) or VERDICT_UNSPECIFIED.')

export const inspection = z
  .looseObject({
    inspectionResult: z.looseObject({
      inspectionResultLink: z
        .string()
        .optional()
        .describe('The inspection in the Search Console interface.'),
      indexStatusResult: z
        .looseObject({
          verdict: verdict.optional(),
          coverageState: z
            .string()
            .optional()
            .describe('The index state in words, such as "Submitted and indexed".'),
          robotsTxtState: z.string().optional().describe('ALLOWED or DISALLOWED by robots.txt.'),
          indexingState: z
            .string()
            .optional()
            .describe('INDEXING_ALLOWED, or blocked by a noindex rule.'),
          lastCrawlTime: z
            .string()
            .optional()
            .describe('When Google last crawled it; absent if never.'),
          pageFetchState: z
            .string()
            .optional()
            .describe('SUCCESSFUL, NOT_FOUND, SOFT_404, BLOCKED_ROBOTS_TXT, ...'),
          googleCanonical: z.string().optional().describe('The canonical URL Google chose.'),
          userCanonical: z.string().optional().describe('The canonical URL the page declares.'),
          sitemap: z.array(z.string()).optional().describe('Sitemaps that list the URL.'),
          referringUrls: z.array(z.string()).optional().describe('Pages that link to it.'),
          crawledAs: z.string().optional().describe('DESKTOP or MOBILE: the crawler used.'),
        })
        .optional(),
      mobileUsabilityResult: z.looseObject({ verdict: verdict.optional() }).optional(),
      richResultsResult: z
        .looseObject({
          verdict: verdict.optional(),
          detectedItems: z.array(z.looseObject({})).optional(),
        })
        .optional()
        .describe('Rich results found on the page, where it has any.'),
      ampResult: z.looseObject({}).optional(),
    }),
  })
  .describe('What Google’s index knows of the URL.')

const analyticsRow = z.looseObject({
  keys: z.array(z.string()).optional(),
  clicks: z.number(),
  impressions: z.number(),
  ctr: z.number(),
  position: z.number(),
})

/**
 * searchanalytics.query's answer, which the tool gives the model as a table
 * (performance-table.ts): rows sorted by clicks, none when there is no data.
 */
export const searchAnalyticsAnswer = z.looseObject({
  rows: z.array(analyticsRow).optional(),
  responseAggregationType: z.string().optional(),
  metadata: z
    .looseObject({
      firstIncompleteDate: z.string().optional(),
      firstIncompleteHour: z.string().optional(),
    })
    .optional(),
})

/**
 * submit_sitemap: the provider answers without a body (200; Google's API 204). The result is
 * what was submitted, from the call's own arguments: nothing the provider did not say.
 */
export const submittedSitemap = z
  .strictObject({
    siteUrl: z.string().describe('The site.'),
    feedpath: z.string().describe('The sitemap’s URL.'),
    submitted: z.literal(true),
  })
  .describe('The sitemap is submitted: Google will fetch it.')
