import type { Context } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { ProviderError } from '../http/errors.js'
import { FormError, missing, readForm, repeated } from '../http/form.js'
import { authenticatedClient } from './client.js'
import { findToken, issueAccessToken, redeemCode } from './grants.js'
import { missingMessage, noStoreJson, oauthError } from './oauth-errors.js'
import { CODE_VERIFIER, verifierMatches } from './pkce.js'
import { fullScope, IDENTITY_SCOPE, parseScopes } from './scopes.js'

const PARAMS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'scope',
  'client_id',
  'client_secret',
] as const

/**
 * `POST /oauth/token` (RFC 6749 §3.2): the authorization code grant with PKCE, and the refresh
 * token grant. Every answer is JSON with `Cache-Control: no-store`.
 */
export async function tokenEndpoint(c: Context<SandboxEnv>) {
  let form: URLSearchParams
  try {
    form = await readForm(c)
  } catch (err) {
    if (!(err instanceof FormError)) throw err
    return oauthError(c, 'invalid_request', err.message)
  }
  const dup = repeated(form, PARAMS)
  if (dup.length)
    return oauthError(c, 'invalid_request', `Send each parameter once: ${dup.join(', ')}.`)
  const client = authenticatedClient(c, form)
  if (!client.ok) return oauthError(c, client.error, client.description)

  const grantType = form.get('grant_type')
  if (!grantType) return oauthError(c, 'invalid_request', missingMessage(['grant_type']))
  if (grantType === 'authorization_code') return codeGrant(c, form, client.clientId)
  if (grantType === 'refresh_token') return refreshGrant(c, form, client.clientId)
  return oauthError(
    c,
    'unsupported_grant_type',
    'grant_type must be authorization_code or refresh_token.',
  )
}

async function codeGrant(
  c: Context<SandboxEnv>,
  form: URLSearchParams,
  clientId: string | undefined,
) {
  const absent = missing(form, ['code', 'redirect_uri', 'code_verifier'])
  if (!clientId) absent.push('client_id')
  if (absent.length) return oauthError(c, 'invalid_request', missingMessage(absent))
  const verifier = form.get('code_verifier')!
  if (!CODE_VERIFIER.test(verifier)) {
    return oauthError(
      c,
      'invalid_request',
      'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).',
    )
  }
  const redirectUri = form.get('redirect_uri')!
  const { db, config } = c.var.sandbox
  const { scopePrefix } = c.var.dialect
  const result = await redeemCode(
    db,
    form.get('code')!,
    (grant) => {
      if (grant.client !== clientId) return 'The authorization code was issued to another client.'
      if (grant.redirectUri !== redirectUri) {
        return 'redirect_uri differs from the one in the authorization request.'
      }
      if (!verifierMatches(verifier, grant.codeChallenge)) {
        return 'code_verifier does not match the code_challenge of the authorization request.'
      }
      return undefined
    },
    config.accessTokenTtlSeconds,
  )
  if (!result.ok) return oauthError(c, 'invalid_grant', result.message)
  const { tokens, grant } = result
  // The generic provider always issues a refresh token: the connector asks for offline access
  // anyway, and a development provider gains nothing from making clients ask for it. Google's
  // dialect issues one only for access_type=offline, as the code recorded.
  const idToken = await idTokenFor(c, grant, tokens.scope, tokens.access_token, grant.nonce)
  return noStoreJson(c, {
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    expires_in: tokens.expires_in,
    ...(tokens.refresh_token !== undefined && { refresh_token: tokens.refresh_token }),
    scope: tokens.scope.map((s) => fullScope(s, scopePrefix)).join(' '),
    ...(idToken !== undefined && { id_token: idToken }),
  })
}

/** An ID token when the dialect issues them and the token holds `openid`; else undefined. */
async function idTokenFor(
  c: Context<SandboxEnv>,
  grant: { user: string; client: string },
  scopes: readonly string[],
  accessToken: string,
  nonce?: string,
): Promise<string | undefined> {
  const { idTokens } = c.var.dialect.oauth
  if (!idTokens || !scopes.includes(IDENTITY_SCOPE)) return undefined
  return idTokens.sign({
    issuer: c.var.dialect.origin,
    clientId: grant.client,
    user: grant.user,
    accessToken,
    nonce,
  })
}

async function refreshGrant(
  c: Context<SandboxEnv>,
  form: URLSearchParams,
  clientId: string | undefined,
) {
  const absent = missing(form, ['refresh_token'])
  if (!clientId) absent.push('client_id')
  if (absent.length) return oauthError(c, 'invalid_request', missingMessage(absent))
  const { db, config } = c.var.sandbox
  const { scopePrefix, oauth } = c.var.dialect
  const principal = await findToken(db, form.get('refresh_token')!, 'refresh')
  if (!principal || principal.client !== clientId) {
    return oauthError(c, 'invalid_grant', oauth.deadRefreshToken)
  }

  // An optional scope may narrow the new access token, never widen it.
  let scopes = [...principal.scopes]
  const requested = form.get('scope')
  if (requested !== null) {
    let asked: string[]
    try {
      asked = parseScopes(requested, scopePrefix)
    } catch (err) {
      if (err instanceof ProviderError) return oauthError(c, 'invalid_scope', err.message)
      throw err
    }
    if (!asked.length)
      return oauthError(
        c,
        'invalid_scope',
        'scope is empty: leave it out to keep the granted scopes.',
      )
    const wider = asked.filter((s) => !principal.scopes.has(s))
    if (wider.length) {
      return oauthError(
        c,
        'invalid_scope',
        `A refresh cannot add scopes that were not granted: ${wider.map((s) => fullScope(s, scopePrefix)).join(' ')}.`,
      )
    }
    scopes = asked
  }
  const narrowed = scopes.length < principal.scopes.size ? scopes : undefined
  const access = await issueAccessToken(
    db,
    principal.grantId,
    config.accessTokenTtlSeconds,
    narrowed,
  )
  const idToken = await idTokenFor(c, principal, scopes, access)
  // No new refresh token: the provider does not rotate them, and the client keeps the one it has.
  return noStoreJson(c, {
    access_token: access,
    token_type: 'Bearer',
    expires_in: config.accessTokenTtlSeconds,
    scope: scopes.map((s) => fullScope(s, scopePrefix)).join(' '),
    ...(idToken !== undefined && { id_token: idToken }),
  })
}
