import { errors } from 'oidc-provider'
import { isLoopbackHostname } from '../config/loopback.js'

/**
 * Redirect URIs must be https, or http on a loopback address (RFC 8252 §7.3, OAuth 2.1 §2.3.1):
 * anything else (plain http to a network host, custom schemes, javascript:...) is refused when
 * the client registers, so a code can only ever travel over TLS or stay on the person's machine.
 * oidc-provider then matches them exactly (native clients: any port on loopback, RFC 8252 §7.3).
 */

export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'each redirect URI must be a string'
  const url = URL.parse(value)
  if (!url) return `"${value}" is not an absolute URI`
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) return undefined
  return `redirect URI "${value}" must use https, or http on a loopback address (127.0.0.1, [::1], localhost)`
}

/**
 * For oidc-provider's `extraClientMetadata.validator` (see provider.ts): it runs on every
 * registration and every client metadata document, before the provider's own checks.
 */
export function validateRedirectUris(value: unknown) {
  if (value === undefined) return
  // A description starting with "redirect_uris" makes oidc-provider answer invalid_redirect_uri.
  if (!Array.isArray(value))
    throw new errors.InvalidClientMetadata('redirect_uris must be an array')
  for (const uri of value) {
    const problem = redirectUriProblem(uri)
    if (problem) throw new errors.InvalidClientMetadata(`redirect_uris: ${problem}`)
  }
}
