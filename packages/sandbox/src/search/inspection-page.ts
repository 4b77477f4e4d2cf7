import type { Context } from 'hono'
import { html } from 'hono/html'
import { currentUser } from '../account/session.js'
import { signedInAs, signInPage } from '../account/signed-in.js'
import type { SandboxEnv } from '../core/state.js'
import { ProviderError } from '../http/errors.js'
import { page } from '../http/page.js'
import { inspectUrl } from './inspection.js'
import { ownedSite } from './sites.js'

/**
 * `GET /search/inspect?resource_id={site}&id={url}`: the target of an inspection's
 * inspectionResultLink, a read-only page of what the index knows of the URL. Like the real
 * one, it is the signed-in owner's: anyone else sees that there is nothing for them here.
 */
export async function showInspection(c: Context<SandboxEnv>) {
  const siteUrl = c.req.query('resource_id') ?? ''
  const url = c.req.query('id') ?? ''
  const here = `/search/inspect${new URL(c.req.url).search}`
  const user = await currentUser(c)
  if (!user) return signInPage(c, here, 'Sign in to see this URL inspection.')
  let result
  try {
    const site = await ownedSite(c.var.sandbox.db, user, siteUrl)
    result = inspectUrl(user, site, url, c.var.sandbox.config.publicUrl)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    return page(
      c,
      'No such inspection',
      html`${signedInAs(user)}
        <h1>No such inspection</h1>
        <p>${error.message}</p>`,
      404,
    )
  }
  const status = result.inspectionResult.indexStatusResult
  const rows: [string, string | undefined][] = [
    ['Verdict', status.verdict],
    ['Coverage', status.coverageState],
    ['Last crawl', status.lastCrawlTime],
    ['Crawled as', status.crawledAs],
    ['Page fetch', status.pageFetchState],
    ['robots.txt', status.robotsTxtState],
    ['Indexing', status.indexingState],
    ['Google-selected canonical', status.googleCanonical],
    ['User-declared canonical', status.userCanonical],
    ['Sitemaps', status.sitemap?.join(', ')],
  ]
  return page(
    c,
    'URL inspection',
    html`${signedInAs(user)}
      <h1>URL inspection</h1>
      <p><code>${url}</code> in <code>${siteUrl}</code></p>
      <dl>
        ${rows
          .filter(([, value]) => value !== undefined)
          .map(
            ([label, value]) =>
              html`<dt>${label}</dt>
                <dd>${value}</dd>`,
          )}
      </dl>`,
  )
}
