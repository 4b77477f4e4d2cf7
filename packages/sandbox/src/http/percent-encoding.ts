import type { MiddlewareHandler } from 'hono'
import { invalidArgument } from './errors.js'

/** Invalid percent-encoding in the path or query is the caller's error, never a 5xx. */
export const rejectBadPercentEncoding: MiddlewareHandler = async (c, next) => {
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
