import { Hono } from 'hono'
import { adminRoutes } from '../admin/routes.js'
import { analyticsRoutes } from '../analytics/routes.js'
import type { SandboxEnv } from '../core/state.js'
import { searchRoutes } from '../search/routes.js'
import { taskRoutes } from '../tasks/routes.js'

/**
 * The provider's three APIs at the seed's paths (DESIGN §4), and the Analytics Admin API's
 * account summaries beside web analytics: served as they are at the seed's origin, and behind
 * the Google dialect's translation at Google's (§9.1). One set of handlers over one store,
 * whichever origin a request came in at.
 */
export function providerApis(): Hono<SandboxEnv> {
  const api = new Hono<SandboxEnv>()
  api.route('/tasks/v1', taskRoutes())
  api.route('/analytics/v1', analyticsRoutes())
  api.route('/analytics/v1', adminRoutes())
  api.route('/search', searchRoutes())
  return api
}
