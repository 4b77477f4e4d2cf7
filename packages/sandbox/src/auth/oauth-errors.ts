import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/** The error codes of RFC 6749 §5.2 that this server answers with. */
type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unsupported_grant_type'

/** Token and revocation endpoint answers are never cached (RFC 6749 §5.1). */
export function noStoreJson(c: Context, body: object, status: ContentfulStatusCode = 200) {
  c.header('Cache-Control', 'no-store')
  c.header('Pragma', 'no-cache')
  return c.json(body, status)
}

/** An RFC 6749 §5.2 error: 400, or 401 with a Basic challenge for `invalid_client`. */
export function oauthError(c: Context, error: OAuthErrorCode, description: string) {
  if (error === 'invalid_client') {
    c.header('WWW-Authenticate', 'Basic realm="sandbox", charset="UTF-8"')
    return noStoreJson(c, { error, error_description: description }, 401)
  }
  return noStoreJson(c, { error, error_description: description }, 400)
}

/** Names missing parameters the way the error descriptions do. */
export const missingMessage = (names: string[]) =>
  `Missing required parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`
