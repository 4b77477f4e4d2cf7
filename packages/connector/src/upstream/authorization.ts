import { randomBytes } from 'node:crypto'
import type { UpstreamConfig } from '../config/config.js'
import { isServiceName, scopeNamesOf, type ServiceName } from '../services/catalog.js'
import type { UpstreamCredentials } from '../vault/credentials.js'
import { receiveCallback, type CallbackDeps } from './callback.js'
import { UpstreamAuthorizationError } from './errors.js'
import { OAuthClient } from './oauth-client.js'
import { endUnkeptTokens } from './revocation.js'
import { serializeTokenSet, tokenSetFrom } from './token-set.js'

/**
 * The chained flow's middle step (docs/design.md, "The authorization server"): after the person
 * allowed an assistant on the connector's consent page, the browser goes to the provider's
 * authorization page; when it comes back, the connector keeps the upstream credential, sealed, and
 * the authorization server finishes the assistant's authorization.
 */

export interface AuthorizationDeps extends CallbackDeps {
  config: UpstreamConfig
  credentials: UpstreamCredentials
}

export interface AuthorizationRequest {
  interactionUid: string
  service: ServiceName
  /** Short scope names of the service. */
  scopes: string[]
}

export interface CompletedAuthorization {
  interactionUid: string
  service: ServiceName
  /** The short scope names asked for that the provider granted: the assistant's grant holds these. */
  scopes: string[]
  /** The person's identity at the provider. */
  subject: string
  credentialId: string
}

export async function beginAuthorization(
  deps: AuthorizationDeps,
  { interactionUid, service, scopes }: AuthorizationRequest,
): Promise<URL> {
  if (!isServiceName(service)) throw new TypeError(`unknown service ${JSON.stringify(service)}`)
  const known = scopeNamesOf(service)
  const unknown = scopes.filter((scope) => !known.includes(scope))
  if (!scopes.length || unknown.length) {
    throw new TypeError(`scopes for ${service} must be some of ${known.join(', ')}`)
  }
  const pkce = await OAuthClient.newPkce()
  const state = await deps.pending.create({
    kind: 'authorization',
    interactionUid,
    service,
    scopes: [...new Set(scopes)],
    codeVerifier: pkce.verifier,
  })
  // `openid` too: providers answer userinfo (who the person is) only with it.
  const scope = ['openid', ...scopes.map((name) => deps.config.scopePrefix + name)].join(' ')
  // Offline access with a fresh consent: the provider then issues a refresh token every time.
  return deps.client.authorizationUrl(
    { state, pkce, scope },
    { access_type: 'offline', prompt: 'consent' },
  )
}

export async function completeAuthorization(
  deps: AuthorizationDeps,
  callbackUrl: URL,
): Promise<CompletedAuthorization> {
  const { pending, tokens, subject } = await receiveCallback(deps, callbackUrl, 'authorization')
  const { interactionUid, service } = pending

  // A provider may let the person untick permissions: the grant holds only what was granted.
  const asked = pending.scopes.map((name) => deps.config.scopePrefix + name)
  const grantedScope = tokens.scope ?? asked.join(' ')
  const granted = new Set(grantedScope.split(' ').filter(Boolean))
  const scopes = pending.scopes.filter((name) => granted.has(deps.config.scopePrefix + name))
  if (!scopes.length) {
    await endUnkeptTokens(deps, tokens, subject, { kind: 'authorization', service })
    throw new UpstreamAuthorizationError(
      'denied',
      'You did not allow any of the permissions asked for, so nothing was connected; start again from your assistant.',
    )
  }
  if (tokens.refresh_token === undefined) {
    deps.log.warn(
      { service },
      'the provider gave no refresh token: the connection ends with its access token',
    )
  }

  const credentialId = randomBytes(18).toString('base64url')
  const set = tokenSetFrom(tokens, Date.now(), { scope: grantedScope })
  await deps.credentials.put({
    id: credentialId,
    subject,
    scope: set.scope,
    secret: serializeTokenSet(set),
  })
  deps.log.info({ credentialId, service }, 'upstream credential stored')
  return { interactionUid, service, scopes, subject, credentialId }
}
