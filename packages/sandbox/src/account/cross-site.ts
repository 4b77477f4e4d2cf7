import type { Context } from 'hono'
import type { SandboxEnv } from '../core/state.js'

/**
 * Whether a form post that acts on the person's behalf (consent, sign-in, sign-out, revoke,
 * complete, unassign) was sent by a page of another site. The session cookie is SameSite=Lax,
 * so a cross-site post does not carry it; this check also stops a cross-site post that signs
 * the browser in as someone else (login CSRF). Browsers mark every request with `Sec-Fetch-Site`; `Origin` is
 * checked as well for older ones (`null` is what a no-referrer page sends and cannot be told
 * apart, so only a foreign origin is refused). Clients that are not browsers send neither.
 */
export function isCrossSitePost(c: Context<SandboxEnv>): boolean {
  const site = c.req.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true
  const origin = c.req.header('origin')
  if (origin === undefined || origin === 'null') return false
  return origin !== new URL(c.req.url).origin && origin !== originOf(c.var.dialect.origin)
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

export const CROSS_SITE_MESSAGE =
  'This form was sent from another site. Open the page on the sandbox provider itself and send it from there.'
