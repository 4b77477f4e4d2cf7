import type { Context } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { insufficientPermissions } from '../http/errors.js'
import { authenticate } from './bearer.js'
import { IDENTITY_SCOPE } from './scopes.js'

/**
 * `GET /oauth/userinfo` (and Google's `/v1/userinfo`): who the bearer access token belongs to.
 * The generic provider answers a token of any scope; Google's only one granted `openid`.
 */
export async function userinfo(c: Context<SandboxEnv>) {
  const principal = await authenticate(c)
  if (c.var.dialect.oauth.userinfoNeedsOpenid && !principal.scopes.has(IDENTITY_SCOPE))
    throw insufficientPermissions(
      'Request had insufficient authentication scopes: userinfo needs openid; ask for it in the authorization request.',
    )
  c.header('Cache-Control', 'no-store')
  return c.json({ sub: principal.user })
}
