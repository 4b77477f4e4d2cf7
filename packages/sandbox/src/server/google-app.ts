import { Hono } from 'hono'
import type { Dialect } from '../core/dialect.js'
import type { SandboxEnv, SandboxState } from '../core/state.js'
import { googleApi } from '../google/api.js'
import type { GoogleDialect } from '../google/dialect.js'
import { googleErrorResponse } from '../google/errors.js'
import { googleOAuthRoutes } from '../google/oauth/routes.js'
import { notFound } from '../http/errors.js'
import { bind, serveOrigin } from './origin.js'
import { providerApis } from './provider-apis.js'

/**
 * The origin G in Google's dialect (docs/sandbox.md, "Google dialect"): Google's OAuth endpoints,
 * and Google's API paths translated onto the same core, over the same data, as the generic
 * dialect's origin S.
 */
export function createGoogleApp(state: SandboxState, dialect: GoogleDialect): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>()
  serveOrigin(app, state, dialect, googleErrorResponse)
  app.route('/', googleOAuthRoutes(dialect.oauth.idTokens))
  app.all('*', googleApi(translatedCore(state, dialect)))
  return app
}

/**
 * The core as the translation calls it: under Google's dialect (scope ids, selfLinks), its
 * errors thrown on to the origin, which words them for Google.
 */
function translatedCore(state: SandboxState, dialect: Dialect): Hono<SandboxEnv> {
  const core = new Hono<SandboxEnv>()
  core.use(bind(state, dialect))
  core.route('/', providerApis())
  core.notFound((c) => {
    throw notFound(`No such resource: ${c.req.method} ${new URL(c.req.url).pathname}`)
  })
  core.onError((error) => {
    throw error
  })
  return core
}
