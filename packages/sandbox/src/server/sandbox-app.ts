import { Hono } from 'hono'
import { oauthRoutes } from '../auth/routes.js'
import { controlRoutes } from '../control/routes.js'
import type { Dialect } from '../core/dialect.js'
import type { SandboxEnv, SandboxState } from '../core/state.js'
import { notFound } from '../http/errors.js'
import { rawPath } from '../http/raw-path.js'
import { accountRoutes } from '../web/account-routes.js'
import { webRoutes } from '../web/routes.js'
import { serveOrigin } from './origin.js'
import { providerApis } from './provider-apis.js'

/**
 * The sandbox's own origin S in the generic dialect: its APIs, OAuth server, pages and the
 * control API, which covers both origins.
 */
export function createSandboxApp(state: SandboxState, dialect: Dialect): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>()
  serveOrigin(app, state, dialect, (error) => error.response())
  app.route('/_sandbox', controlRoutes())
  app.route('/', providerApis())
  app.route('/', oauthRoutes())
  app.route('/account', accountRoutes())
  app.route('/web', webRoutes())
  app.notFound((c) => {
    throw notFound(`No such resource: ${c.req.method} ${rawPath(c.req.url)}`)
  })
  return app
}
