import { Hono } from 'hono'
import { requireAccess } from '../auth/bearer.js'
import type { SandboxEnv } from '../core/state.js'
import { readQuery } from '../http/validate.js'
import { accountsOf } from './accounts.js'
import { listAccountSummaries, summariesQuery } from './summaries.js'

const ADMIN_QUOTAS = [
  'analyticsAdminRequestsPerMinutePerProject',
  'analyticsAdminRequestsPerMinutePerUser',
] as const

/**
 * The Analytics Admin API's accountSummaries.list, where a caller finds its properties, at
 * `S/analytics/v1/accountSummaries` beside the web-analytics API (Google's dialect serves it at
 * `/v1beta/accountSummaries`). Read-only: analytics.readonly, or the full analytics scope.
 */
export function adminRoutes() {
  const api = new Hono<SandboxEnv>()

  api.get('/accountSummaries', async (c) => {
    // The Admin API's own quotas, apart from the Data API's property tokens.
    const { user } = await requireAccess(c, 'analytics', 'read', ADMIN_QUOTAS)
    const query = readQuery(c, summariesQuery)
    return c.json(listAccountSummaries(await accountsOf(c.var.sandbox.db, user), user, query))
  })

  return api
}
