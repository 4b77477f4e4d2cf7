import { Hono, type Context } from 'hono'
import { requireAccess } from '../auth/bearer.js'
import type { SandboxEnv } from '../core/state.js'
import { readJsonObject } from '../http/body.js'
import { invalidArgument, ProviderError } from '../http/errors.js'
import { catalogOf } from './catalog.js'
import { runReport } from './core-report.js'
import { metadataJson } from './metadata.js'
import { ownedProperty } from './property.js'
import { runRealtimeReport } from './realtime.js'
import { batchRequest, parseMessage, realtimeRequest, reportRequest } from './request.js'
import { checkProperty } from './rules.js'

type Ctx = Context<SandboxEnv>

const MAX_BATCH = 5

/** The property of the path, once the token (analytics.readonly) and ownership are checked. */
async function property(c: Ctx) {
  const { user } = await requireAccess(c, 'analytics', 'read')
  return ownedProperty(c.var.sandbox.db, user, c.req.param('propertiesId')!)
}

/**
 * The web-analytics API under `S/analytics/v1` (docs/design.md, "Search and analytics"), modeled on
 * the Google Analytics Data API v1beta at the tool table's paths. Read-only: every call needs
 * analytics.readonly (or the full scope) and a property the user owns.
 */
export function analyticsRoutes() {
  const api = new Hono<SandboxEnv>()

  api.get('/properties/:propertiesId/metadata', async (c) =>
    c.json(metadataJson(catalogOf(await property(c)))),
  )

  api.post('/properties/:propertiesId/report', async (c) => {
    const profile = await property(c)
    const request = parseMessage(reportRequest, await readJsonObject(c))
    const { quotas } = c.var.sandbox
    const now = Date.now()
    quotas.admit(profile.id, 1, now)
    return c.json(runReport(profile, request, quotas, now))
  })

  api.post('/properties/:propertiesId/reports', async (c) => {
    const profile = await property(c)
    const { property: named, requests = [] } = parseMessage(batchRequest, await readJsonObject(c))
    checkProperty(named, profile.id)
    if (requests.length === 0 || requests.length > MAX_BATCH)
      throw invalidArgument(
        `A batch holds 1 to ${MAX_BATCH} report requests; this one has ${requests.length}.`,
      )
    const { quotas } = c.var.sandbox
    const now = Date.now()
    // Each report is charged; a batch the tokens left cannot pay for in full is refused whole.
    quotas.admit(profile.id, requests.length, now)
    const reports = requests.map((body, i) => {
      const request = parseMessage(reportRequest, body, `requests[${i}]`)
      try {
        return runReport(profile, request, quotas, now)
      } catch (error) {
        // Which report of the batch is wrong, in front of what is wrong with it.
        if (error instanceof ProviderError && error.code === 400)
          throw new ProviderError(
            400,
            error.status,
            error.reason,
            `requests[${i}]: ${error.message}`,
          )
        throw error
      }
    })
    return c.json({ kind: 'analyticsData#batchRunReports', reports })
  })

  api.post('/properties/:propertiesId/realtime-report', async (c) => {
    const profile = await property(c)
    const request = parseMessage(realtimeRequest, await readJsonObject(c))
    const { quotas } = c.var.sandbox
    const now = Date.now()
    quotas.admit(profile.id, 1, now)
    return c.json(runRealtimeReport(profile, request, quotas, now))
  })

  return api
}
