import type { MiddlewareHandler } from 'hono'
import { googleApiOf } from '../core/enabled-apis.js'
import type { SandboxEnv } from '../core/state.js'
import { errorForStatus, rateLimited, usageLimit } from '../http/errors.js'
import { rawPath } from '../http/raw-path.js'

const isControl = (path: string) => path === '/healthz' || path.startsWith('/_sandbox/')

/**
 * The control API's hold on every provider request, at either origin: applies queued faults,
 * answers a call to an API the control API disabled, and records the request with the status it
 * got and the dialect that received it. An injected error is thrown, so each origin answers it in
 * its own error shape.
 */
export const faultsAndRequestLog: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  const path = rawPath(c.req.url)
  if (isControl(path)) return next()
  const { faults, requests } = c.var.sandbox
  const dialect = c.var.dialect.name
  const record = (status: number) =>
    requests.record({ method: c.req.method, path, status, dialect })
  const fault = faults.take(c.req.method, path, dialect)
  if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
  if (fault?.reset === true) {
    record(0)
    c.env.incoming?.socket.destroy()
    return new Response(null, { status: 500 })
  }
  if (fault?.status) {
    const error = fault.reason
      ? usageLimit(fault.reason, fault.status, googleApiOf(path) ?? 'analyticsdata.googleapis.com')
      : fault.status === 429
        ? rateLimited('Rate limit exceeded (injected fault).', fault.retryAfter ?? 1)
        : errorForStatus(fault.status, `Injected fault: ${fault.status}.`)
    if (fault.retryAfter !== undefined) error.headers['Retry-After'] = String(fault.retryAfter)
    record(fault.status)
    throw error
  }
  const api = googleApiOf(path)
  if (c.req.header('authorization') && c.var.sandbox.apis.isDisabled(api)) {
    record(403)
    throw usageLimit('accessNotConfigured', 403, api)
  }
  await next()
  if (fault?.reset === 'after') {
    record(0)
    c.env.incoming?.socket.destroy()
    return
  }
  record(c.res.status)
}
