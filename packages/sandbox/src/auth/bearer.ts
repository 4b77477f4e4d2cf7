import type { Context } from 'hono'
import type { RequestQuotaName } from '../core/request-quotas.js'
import type { SandboxEnv } from '../core/state.js'
import { insufficientPermissions, unauthenticated } from '../http/errors.js'
import { findToken, type Principal } from './grants.js'
import { API_SCOPES, type Access, type Api } from './scopes.js'

/**
 * Authenticates the bearer token of an API call and checks its scope: reads accept the read-only
 * scope or the full one, writes need the full one. Then charges the call to `quotas` (Google's
 * per user and per project; docs/sandbox.md, "Quotas"), refusing it once one is spent.
 */
export async function requireAccess(
  c: Context<SandboxEnv>,
  api: Api,
  access: Access,
  quotas: readonly RequestQuotaName[] = [],
): Promise<Principal> {
  const principal = await authenticate(c)
  const accepted: readonly string[] = API_SCOPES[api][access]
  if (!accepted.some((s) => principal.scopes.has(s))) {
    const prefix = c.var.dialect.scopePrefix
    throw insufficientPermissions(
      `Request had insufficient authentication scopes: this call needs ${accepted.map((s) => prefix + s).join(' or ')}.`,
    )
  }
  if (quotas.length) c.var.sandbox.requestQuotas.spend(quotas, principal, Date.now())
  return principal
}

/** The principal behind the request's bearer token, or the provider's 401. */
export async function authenticate(c: Context<SandboxEnv>): Promise<Principal> {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match?.[1])
    throw unauthenticated(
      'Request is missing a valid bearer token (Authorization: Bearer <token>).',
    )
  const principal = await findToken(c.var.sandbox.db, match[1], 'access')
  if (!principal)
    throw unauthenticated(
      'Request had invalid authentication credentials: the access token is expired, revoked or unknown.',
    )
  return principal
}
