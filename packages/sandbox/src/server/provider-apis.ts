import { Hono } from 'hono'
import { adminRoutes } from '../admin/routes.js'
import { analyticsRoutes } from '../analytics/routes.js'
import type { SandboxEnv } from '../core/state.js'
import { searchRoutes } from '../search/routes.js'
import { taskRoutes } from '../tasks/routes.js'

/**
 * The provider's three APIs at the tool table's paths (docs/design.md, "The provider's API"), and
 * the Analytics Admin API's account summaries beside web analytics: served as they are at the
 * generic dialect's origin, and behind the Google dialect's translation at Google's
 * (docs/sandbox.md, "Google dialect"). One set of handlers over one store,
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
