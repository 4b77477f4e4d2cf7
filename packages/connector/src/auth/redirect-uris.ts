import { errors, type Client, type Provider } from 'oidc-provider'
import { isLoopbackHostname } from '../config/loopback.js'

/**
 * Redirect URIs must be https, or http on a loopback address (RFC 8252 §7.3, OAuth 2.1 §2.3.1):
 * anything else (plain http to a network host, custom schemes, javascript:...) is refused when
 * the client registers, so a code can only ever travel over TLS or stay on the person's machine.
 * oidc-provider then matches them exactly; a loopback one matches at any port (below).
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

/**
 * A loopback redirect URI as written, without its port: `http://`, one of the three loopback
 * names exactly as RFC 8252 §7.3 and the hosts write them, an optional port, then a path or
 * query (no user info, no fragment). Anything else is not a loopback redirect (undefined).
 */
const LOOPBACK_REDIRECT = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?][^#]*)?$/

export function withoutLoopbackPort(uri: string): string | undefined {
  const match = LOOPBACK_REDIRECT.exec(uri)
  if (!match) return undefined
  const [, host, port, rest = ''] = match
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined
  return `http://${host}${rest}`
}

/** Whether `asked` is one of `registered`, or a loopback one of them on another port. */
export function redirectMatches(asked: string, registered: readonly string[]): boolean {
  if (registered.includes(asked)) return true
  const portless = withoutLoopbackPort(asked)
  return portless !== undefined && registered.some((uri) => withoutLoopbackPort(uri) === portless)
}

/**
 * A client on the person's machine listens for its code on whatever port it got, and names its
 * redirect without one (Claude Code, Codex, Zed publish `http://localhost/callback` or
 * `http://127.0.0.1/callback`): RFC 8252 §7.3 asks that such a URI match at any port. oidc-provider
 * does so only for `application_type: native`, which these documents do not say; the connector does
 * for every client, since a loopback redirect never leaves the machine the browser runs on.
 * Scheme, host name and path still match exactly: `localhost` never matches `127.0.0.1`.
 */
export function matchLoopbackRedirectsAtAnyPort(provider: Provider): void {
  const { prototype } = provider.Client
  prototype.redirectUriAllowed = function (this: Client, value: string) {
    return redirectMatches(value, this.redirectUris)
  }
}
