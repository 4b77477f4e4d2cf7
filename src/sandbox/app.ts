import type { HttpBindings } from '@hono/node-server'
import { Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { accountRoutes } from './account/routes.js'
import { analyticsRoutes } from './analytics/routes.js'
import { oauthRoutes } from './auth/routes.js'
import { controlRoutes } from './control/routes.js'
import type { FaultBook } from './control/faults.js'
import type { RequestLog } from './control/request-log.js'
import type { SandboxConfig } from './config.js'
import type { SandboxDb } from './db/open.js'
import { searchRoutes } from './search/routes.js'
import { taskRoutes } from './tasks/routes.js'
import { webRoutes } from './web/routes.js'
import {
  errorForStatus,
  invalidArgument,
  notFound,
  payloadTooLarge,
  ProviderError,
  rateLimited,
} from './http/errors.js'

/** Everything a request handler of the sandbox can reach. */
export interface SandboxState {
  db: SandboxDb
  config: SandboxConfig
  faults: FaultBook
  requests: RequestLog
}

export type SandboxEnv = {
  Bindings: Partial<HttpBindings>
  Variables: { sandbox: SandboxState }
}

export const MAX_BODY_BYTES = 1024 * 1024

/** The sandbox provider as one Hono app: its APIs, OAuth server, pages and control API. */
export function createSandboxApp(state: SandboxState): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>()

  app.use(async (c, next) => {
    c.set('sandbox', state)
    await next()
  })
  app.use(faultsAndRequestLog)
  app.use(rejectBadPercentEncoding)
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () =>
        payloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`).response(),
    }),
  )

  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.route('/_sandbox', controlRoutes())
  app.route('/tasks/v1', taskRoutes())
  app.route('/analytics/v1', analyticsRoutes())
  app.route('/search', searchRoutes())
  app.route('/', oauthRoutes())
  app.route('/account', accountRoutes())
  app.route('/web', webRoutes())

  app.notFound((c) =>
    notFound(`No such resource: ${c.req.method} ${rawPath(c.req.url)}`).response(),
  )
  app.onError((err) => {
    if (err instanceof ProviderError) return err.response()
    console.error('sandbox: unexpected error', err)
    return errorForStatus(500, 'The sandbox failed to handle this request.').response()
  })
  return app
}

/** The path as the client sent it: still percent-encoded, without the query string. */
export function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3)
  if (start < 0) return '/'
  const end = url.indexOf('?', start)
  return end < 0 ? url.slice(start) : url.slice(start, end)
}

const isControl = (path: string) => path === '/healthz' || path.startsWith('/_sandbox/')

/** Applies queued faults, and records every provider request with the status it got. */
const faultsAndRequestLog: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const path = rawPath(c.req.url)
  if (isControl(path)) return next()
  const { faults, requests } = c.var.sandbox
  const fault = faults.take(c.req.method, path)
  if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
  if (fault?.reset === true) {
    requests.record({ method: c.req.method, path, status: 0 })
    c.env.incoming?.socket.destroy()
    return new Response(null, { status: 500 })
  }
  if (fault?.status) {
    const message = `Injected fault: ${fault.status}.`
    const error =
      fault.status === 429
        ? rateLimited('Rate limit exceeded (injected fault).', fault.retryAfter ?? 1)
        : errorForStatus(fault.status, message)
    if (fault.retryAfter !== undefined) error.headers['Retry-After'] = String(fault.retryAfter)
    requests.record({ method: c.req.method, path, status: fault.status })
    return error.response()
  }
  await next()
  if (fault?.reset === 'after') {
    requests.record({ method: c.req.method, path, status: 0 })
    c.env.incoming?.socket.destroy()
    return
  }
  requests.record({ method: c.req.method, path, status: c.res.status })
}

/** Invalid percent-encoding in the path or query is the caller's error, never a 5xx. */
const rejectBadPercentEncoding: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const url = c.req.url
  const start = url.indexOf('/', url.indexOf('://') + 3)
  const target = start < 0 ? '' : url.slice(start)
  const queryAt = target.indexOf('?')
  const path = queryAt < 0 ? target : target.slice(0, queryAt)
  const query = queryAt < 0 ? '' : target.slice(queryAt + 1)
  try {
    if (path.includes('%')) decodeURIComponent(path)
    if (query.includes('%'))
      for (const part of query.split('&')) decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    throw invalidArgument(
      'The URL has invalid percent-encoding: encode "%" as %25 and use only valid UTF-8 escapes.',
    )
  }
  await next()
}
