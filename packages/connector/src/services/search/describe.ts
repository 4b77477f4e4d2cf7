import { readResource, type ChangeDescription, type ProviderReader } from '../definition.js'
import { moment, oneLine, shortened } from '../wording.js'
import { site as siteSchema, sitemapsList } from './resources.js'
import { siteCovers } from './sites.js'

/**
 * How a sitemap submission reads to the person who approves it (docs/design.md, "Approval of
 * changes"): the sitemap and the site by their addresses, what the site covers, and whether it was
 * submitted before. The site and its sitemaps are read from the provider just before asking, which
 * also confirms the site is the person's before they are asked anything.
 */

/** Addresses are shown whole up to this length: a person must see which URL they approve. */
const URL_SHOWN = 200

const quotedUrl = (url: string) => `"${shortened(oneLine(url), URL_SHOWN)}"`

export async function describeSubmitSitemap(
  args: { siteUrl: string; feedpath: string },
  provider: ProviderReader,
): Promise<ChangeDescription> {
  const params = { siteUrl: args.siteUrl }
  const [site, sitemaps] = await Promise.all([
    readResource(provider, siteSchema, 'a site', 'get_site', params),
    readResource(provider, sitemapsList, 'the sitemaps of a site', 'list_sitemaps', params),
  ])
  const before = sitemaps.sitemap?.find((s) => s.path === args.feedpath)
  const last = before?.lastSubmitted ? `, last on ${moment(before.lastSubmitted)}` : ''
  return {
    summary: `Submit sitemap ${quotedUrl(args.feedpath)} for site ${quotedUrl(site.siteUrl)}?`,
    details: [
      { label: 'Sitemap', value: quotedUrl(args.feedpath) },
      { label: 'Site', value: `${quotedUrl(site.siteUrl)} (${siteCovers(oneLine(site.siteUrl))})` },
      {
        label: 'Submitted before',
        value: before
          ? `yes${last}: Google is asked to read it again`
          : 'no: this is its first submission',
      },
      {
        label: 'What happens',
        value:
          'Google fetches the sitemap and crawls the pages it lists; nothing on the site changes',
      },
    ],
  }
}
