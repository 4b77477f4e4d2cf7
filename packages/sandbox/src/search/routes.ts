import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { requireAccess } from '../auth/bearer.js'
import type { Caller, RequestQuotaName } from '../core/request-quotas.js'
import type { SandboxEnv } from '../core/state.js'
import { noQuery, readBody, readQuery } from '../http/validate.js'
import { pacificNow } from './analytics/calendar.js'
import { runQuery } from './analytics/engine.js'
import { analyticsQuery, queryBody } from './analytics/request.js'
import { siteFacts } from './analytics/store.js'
import { showInspection } from './inspection-page.js'
import { inspectBody, inspectUrl } from './inspection.js'
import { getSitemap, listSitemaps, submitSitemap } from './sitemaps.js'
import { ownedSite, ownedSites, PERMISSION_LEVEL } from './sites.js'

type Ctx = Context<SandboxEnv>

const sitemapsQuery = z.object({ sitemapIndex: z.string().min(1).max(2048).optional() })

/** The site of the path, if the caller owns it (`{siteUrl}` arrives as one encoded segment). */
const siteOf = (c: Ctx, user: string) => ownedSite(c.var.sandbox.db, user, c.req.param('siteUrl')!)

/** Charges a request to its quotas per minute and per day (docs/sandbox.md, "Quotas"). */
const spend = (c: Ctx, quotas: readonly RequestQuotaName[], caller: Caller) =>
  c.var.sandbox.requestQuotas.spend(quotas, caller, Date.now())

const OTHER_QUOTAS = [
  'searchConsoleOtherQueriesPerMinutePerUser',
  'searchConsoleOtherQueriesPerDayPerProject',
] as const
const INSPECTION_QUOTAS = [
  'urlInspectionsPerMinutePerSite',
  'urlInspectionsPerDayPerSite',
  'urlInspectionsPerMinutePerProject',
  'urlInspectionsPerDayPerProject',
] as const
const SEARCH_ANALYTICS_QUOTAS = [
  'searchAnalyticsQueriesPerMinutePerSite',
  'searchAnalyticsQueriesPerMinutePerUser',
  'searchAnalyticsQueriesPerMinutePerProject',
  'searchAnalyticsQueriesPerDayPerProject',
] as const

/**
 * The search-performance API (docs/design.md, "Search and analytics"), modeled on the real Search
 * Console API at the tool table's paths, mounted at `/search`: the API under `/v1`, and the page an
 * inspection's `inspectionResultLink` opens. Reads accept webmasters.readonly or webmasters;
 * submitting a sitemap needs webmasters.
 */
export function searchRoutes() {
  const search = new Hono<SandboxEnv>()
  const api = new Hono<SandboxEnv>()

  api.get('/sites', async (c) => {
    const { user } = await requireAccess(c, 'webmasters', 'read', OTHER_QUOTAS)
    readQuery(c, noQuery)
    return c.json({
      siteEntry: (await ownedSites(c.var.sandbox.db, user)).map((siteUrl) => ({
        siteUrl,
        permissionLevel: PERMISSION_LEVEL,
      })),
    })
  })

  api.get('/sites/:siteUrl', async (c) => {
    const { user } = await requireAccess(c, 'webmasters', 'read', OTHER_QUOTAS)
    readQuery(c, noQuery)
    const site = await siteOf(c, user)
    return c.json({ siteUrl: site.siteUrl, permissionLevel: PERMISSION_LEVEL })
  })

  api.get('/sites/:siteUrl/sitemaps', async (c) => {
    const { user } = await requireAccess(c, 'webmasters', 'read', OTHER_QUOTAS)
    const { sitemapIndex } = readQuery(c, sitemapsQuery)
    return c.json(await listSitemaps(c.var.sandbox.db, user, await siteOf(c, user), sitemapIndex))
  })

  api.get('/sites/:siteUrl/sitemaps/:feedpath', async (c) => {
    const { user } = await requireAccess(c, 'webmasters', 'read', OTHER_QUOTAS)
    readQuery(c, noQuery)
    return c.json(
      await getSitemap(c.var.sandbox.db, user, await siteOf(c, user), c.req.param('feedpath')),
    )
  })

  // Success is 200 in this dialect, with nothing to return; Google's answers 204 (google/api.ts).
  api.put('/sites/:siteUrl/sitemaps/:feedpath', async (c) => {
    const { user } = await requireAccess(c, 'webmasters', 'write', OTHER_QUOTAS)
    readQuery(c, noQuery)
    await submitSitemap(c.var.sandbox.db, user, await siteOf(c, user), c.req.param('feedpath'))
    return c.body(null, 200)
  })

  api.post('/inspect-url', async (c) => {
    const caller = await requireAccess(c, 'webmasters', 'read')
    const { user } = caller
    readQuery(c, noQuery)
    const body = await readBody(c, inspectBody, 'inspection request')
    const site = await ownedSite(c.var.sandbox.db, user, body.siteUrl)
    spend(c, INSPECTION_QUOTAS, { ...caller, site: site.siteUrl })
    return c.json(inspectUrl(user, site, body.inspectionUrl, c.var.sandbox.config.publicUrl))
  })

  api.post('/sites/:siteUrl/search-analytics', async (c) => {
    const caller = await requireAccess(c, 'webmasters', 'read')
    const { user } = caller
    readQuery(c, noQuery)
    const site = await siteOf(c, user)
    // Charged before the query is read: a refused one is not even looked at.
    spend(c, SEARCH_ANALYTICS_QUOTAS, { ...caller, site: site.siteUrl })
    const body = await readBody(c, queryBody, 'search analytics query')
    const now = Date.now()
    const query = analyticsQuery(body, pacificNow(now).day)
    return c.json(runQuery(siteFacts(user, site.siteUrl, query.type, now), query))
  })

  search.route('/v1', api)
  search.get('/inspect', showInspection)
  return search
}
