import type { Context } from 'hono'
import type { SandboxEnv } from '../app.js'
import { clientIdentity } from './client.js'
import { FormError, readForm, repeated } from './form.js'
import { revokeToken } from './grants.js'
import { missingMessage, noStoreJson, oauthError } from './oauth-errors.js'

/**
 * `POST /oauth/revoke` (RFC 7009). An access or a refresh token ends its whole grant: all its
 * tokens stop working. An unknown token still answers 200. The token itself is the proof: who
 * holds it could use it, so revoking it is allowed whichever client_id comes with it.
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
  const client = clientIdentity(c, form)
  if (!client.ok) return oauthError(c, client.error, client.description)
  if (repeated(form, ['token']).length) return oauthError(c, 'invalid_request', 'Send token once.')
  const token = form.get('token')
  if (!token) return oauthError(c, 'invalid_request', missingMessage(['token']))
  await revokeToken(c.var.sandbox.db, token)
  return noStoreJson(c, {})
}
