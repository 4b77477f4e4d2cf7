import type { Hono, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { faultsAndRequestLog } from '../control/traffic.js'
import type { Dialect } from '../core/dialect.js'
import type { SandboxEnv, SandboxState } from '../core/state.js'
import { MAX_BODY_BYTES } from '../http/body.js'
import { errorForStatus, payloadTooLarge, ProviderError } from '../http/errors.js'
import { rejectBadPercentEncoding } from '../http/percent-encoding.js'
import { answerOwnHostsOnly } from './own-hosts.js'

/** Answers a provider error in the origin's own error shape. */
type ErrorRenderer = (error: ProviderError, path: string) => Response

/** Gives the handlers the shared state and the dialect of the origin they answer for. */
export const bind =
  (state: SandboxState, dialect: Dialect): MiddlewareHandler<SandboxEnv> =>
  async (c, next) => {
    c.set('sandbox', state)
    c.set('dialect', dialect)
    await next()
  }

/**
 * What each of the sandbox's origins does around its routes, whatever its dialect: binds the
 * shared state and the dialect, lets the control API inject faults and log the request,
 * refuses bad percent-encoding and bodies over 1 MiB, answers /healthz, and renders every
 * error, expected or not, in the dialect's shape (never a stack trace).
 */
export function serveOrigin(
  app: Hono<SandboxEnv>,
  state: SandboxState,
  dialect: Dialect,
  render: ErrorRenderer,
): void {
  app.use(bind(state, dialect))
  // First: a request to a name that is not the sandbox's (DNS rebinding) does nothing at all.
  app.use(answerOwnHostsOnly)
  app.use(faultsAndRequestLog)
  app.use(rejectBadPercentEncoding)
  // A chunked body is read here as it arrives, and refused past 1 MiB unread; each reader then
  // holds the body to its own bound (http/body.ts).
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw payloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes.`)
      },
    }),
  )
  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.onError((err, c) => {
    const path = new URL(c.req.url).pathname
    if (err instanceof ProviderError) return render(err, path)
    console.error('sandbox: unexpected error', err)
    return render(errorForStatus(500, 'The sandbox failed to handle this request.'), path)
  })
}
