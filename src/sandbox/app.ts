import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { accountRoutes } from './account/routes.js'
import { oauthRoutes } from './auth/routes.js'
import type { SandboxConfig } from './config.js'
import { controlRoutes } from './control/routes.js'
import type { FaultBook } from './control/faults.js'
import type { RequestLog } from './control/request-log.js'
import { providerApis } from './core.js'
import type { SandboxDb } from './db/open.js'
import type { Dialect } from './dialect.js'
import { notFound } from './http/errors.js'
import { rawPath } from './http/raw-path.js'
import { serveOrigin } from './origin.js'
import { webRoutes } from './web/routes.js'

/** Everything a request handler of the sandbox can reach, at either origin. */
export interface SandboxState {
  db: SandboxDb
  config: SandboxConfig
  faults: FaultBook
  requests: RequestLog
}

export type SandboxEnv = {
  Bindings: Partial<HttpBindings>
  Variables: { sandbox: SandboxState; dialect: Dialect }
}

/**
 * The sandbox's own origin S in the seed's dialect: its APIs, OAuth server, pages and the
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
