import type { MiddlewareHandler } from 'hono'
import { isCrossSitePost } from '../account/cross-site.js'
import type { SandboxEnv } from '../core/state.js'
import { forbidden } from '../http/errors.js'

/**
 * The control API has no authentication by design, so a web page must not reach it through the
 * developer's browser: a request marked as sent by another site (`Sec-Fetch-Site` other than
 * same-origin or none) or from another origin (`Origin` not the sandbox's, or `null`, as from a
 * sandboxed frame) is refused, whatever its method, before anything is done. Tests, scripts and
 * the connector send neither header; a person who opens a control URL in the browser sends `none`.
 */
export const sameOriginOnly: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  if (isCrossSitePost(c) || c.req.header('origin') === 'null') {
    throw forbidden(
      'The sandbox control API does not answer requests sent by a web page of another site or origin.',
    )
  }
  await next()
}
