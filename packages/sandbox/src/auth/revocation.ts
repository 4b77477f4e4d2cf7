import type { Context } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { FormError, readForm } from '../http/form.js'
import { authenticatedClient } from './client.js'
import { revokeToken } from './grants.js'
import { missingMessage, noStoreJson, oauthError } from './oauth-errors.js'

/**
 * `POST /oauth/revoke` (RFC 7009), and Google's `POST /revoke`. An access or a refresh token
 * ends its whole grant (all its tokens stop working), or under Google's rules every grant its
 * person gave that client. An unknown token still answers 200. The token itself is the proof:
 * who holds it could use it, so revoking it is allowed whichever client_id comes with it.
 * `token_type_hint` is accepted and not needed, since one lookup finds either kind.
 */
export async function revocationEndpoint(c: Context<SandboxEnv>) {
  let form: URLSearchParams
  try {
    form = await readForm(c)
  } catch (err) {
    if (!(err instanceof FormError)) throw err
    return oauthError(c, 'invalid_request', err.message)
  }
  const client = authenticatedClient(c, form)
  if (!client.ok) return oauthError(c, client.error, client.description)
  const { oauth } = c.var.dialect
  // Google's own client sends `POST /revoke?token=...` with no body.
  const sent = [
    ...form.getAll('token'),
    ...(oauth.revokeTokenInQuery ? new URL(c.req.url).searchParams.getAll('token') : []),
  ]
  if (sent.length > 1) return oauthError(c, 'invalid_request', 'Send token once.')
  const token = sent[0]
  if (!token) return oauthError(c, 'invalid_request', missingMessage(['token']))
  await revokeToken(c.var.sandbox.db, token, oauth.revocationEnds)
  return noStoreJson(c, {})
}
