import Provider, {
  errors,
  type Client,
  type Grant,
  type KoaContextWithOIDC,
  type ResourceServerInfo,
} from 'oidc-provider'
import type { Logger } from 'pino'
import type { ConnectorConfig } from '../config/config.js'
import { SERVICES } from '../services/catalog.js'
import type { Store } from '../store/open.js'
import type { Vault } from '../vault/vault.js'
import { RotationInDoubt, storeAdapter } from './adapter.js'
import { clientMetadataFetch } from './client-metadata-fetch.js'
import { refusalOf, rememberRefusedDocuments } from './client-metadata-refusals.js'
import { compareClientSecretsByDigest, isHashedClientSecret } from './client-secrets.js'
import {
  boundAssertionLifetime,
  CLIENT_ASSERTION_ALGS,
  keepClientKeys,
  useAssertionsOnce,
} from './client-assertions.js'
import { CHECKED_FIELDS, checkClientField } from './client-metadata.js'
import type { Grants } from './grants.js'
import { cookieKeys, signingJwks } from './keys.js'
import { PAGE_HEADERS } from '../pages/page.js'
import { storeAwayPageText } from '../pages/problem-page.js'
import { requestErrorPage } from '../pages/request-error-page.js'
import type { StoreAwayReport } from '../store/away-report.js'
import {
  isStoreUnreachable,
  storeAwayError,
  STORE_RETRY_AFTER_SECONDS,
} from '../store/unreachable.js'
import { matchLoopbackRedirectsAtAnyPort, withoutLoopbackPort } from './redirect-uris.js'
import { allScopeNames, serviceOfResource } from './resources.js'
import { tokenRequestsInOneTransaction } from './token-transactions.js'

/**
 * The connector's OAuth 2.1 authorization server: oidc-provider, configured. Everything the
 * security rules ask of it (docs/design.md, "The authorization server" and "Security") is a setting
 * or a hook here; the rest of the protocol is oidc-provider's own, tested upstream.
 */

/**
 * An hour, as Google's. Every MCP request reads the token's grant and credential afresh
 * (access-tokens.ts, nothing cached), so a revocation, an ended grant or a narrowed one holds from
 * the next request whatever the token's lifetime; an hour keeps a client that never refreshes by
 * itself working for a session.
 */
const ACCESS_TOKEN_TTL_SECONDS = 60 * 60
/** A refresh token that is not used for this long expires; each rotation starts it again. */
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60
/** A grant ends after a year whatever happens: the person connects again. */
const GRANT_TTL_SECONDS = 365 * 24 * 60 * 60

/** Every oidc-provider route lives under this path (plus its discovery document). */
export const OAUTH_PATH_PREFIX = '/oauth/'
export const DISCOVERY_PATH = '/.well-known/openid-configuration'
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server'

export const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/session/end',
  // Off, but oidc-provider wants every route named; all under /oauth/.
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  device_authorization: '/oauth/device/auth',
  code_verification: '/oauth/device',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const

const consentPath = (uid: string) => `/consent/${uid}`

export interface AuthorizationServerDeps {
  config: Pick<ConnectorConfig, 'publicUrl' | 'allowLoopbackClientMetadata' | 'extraCa'>
  store: Store
  vault: Vault
  grants: Grants
  log: Logger
  /** Where a request that met the database away is told and said (store/away-report.ts). */
  storeAway?: Pick<StoreAwayReport, 'request'>
}

export function createAuthorizationServer({
  config,
  store,
  vault,
  grants,
  log,
  storeAway,
}: AuthorizationServerDeps): Provider {
  const { publicUrl } = config
  const serviceScopes = (resource: string) => {
    const service = serviceOfResource(publicUrl, resource)
    return service ? SERVICES[service].scopes.map((s) => s.name) : undefined
  }

  const provider = new Provider(publicUrl, {
    adapter: storeAdapter(store, {
      grantDestroyed: (grantId, replay) =>
        grants.end(grantId, replay ? 'replay detected' : 'revoked by the client'),
      grantExpired: (grantId) => grants.end(grantId, 'expired'),
    }),

    // Clients register themselves (RFC 7591) or are named by a metadata document URL.
    clients: [],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'EdDSA',
    },
    // Secrets are stored as digests (client-secrets.ts): no method that needs the secret itself.
    // Signed assertions (client-assertions.ts) for the clients that ask for them, as ChatGPT does.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    assertJwtClientAuthClaimsAndHeader: boundAssertionLifetime,
    // Checked on every registration and metadata document, before oidc-provider's own checks.
    extraClientMetadata: {
      properties: CHECKED_FIELDS,
      validator: (_ctx: unknown, key: string, value: unknown, metadata: Record<string, unknown>) =>
        checkClientField(key, value, metadata),
    },
    // A document is small (oidc-provider's 5 KiB); a client's keys a few KiB.
    fetchResponseBodyLimits: {
      'client_id metadata document': 5 * 1024,
      jwks_uri: 16 * 1024,
      sector_identifier_uri: 16 * 1024,
    },
    // OAuth 2.1: the redirect_uri is always sent, and matched exactly.
    allowOmittingSingleRegisteredRedirectUri: false,

    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid'],
    claims: { openid: ['sub'] },

    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      registrationManagement: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      revocation: {
        enabled: true,
        // A client revokes its own tokens only (RFC 7009 §2.1); a public client asking for
        // another's gets the usual 200 and changes nothing.
        allowedPolicy: (_ctx: unknown, client: Client, token: { clientId: string }) => {
          if (token.clientId === client.clientId) return true
          if (client.clientAuthMethod === 'none') return false
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token')
        },
      },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      clientCredentials: { enabled: false },
      deviceFlow: { enabled: false },
      ciba: { enabled: false },
      // Tokens are bearer tokens: the MCP endpoints do not check DPoP proofs.
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Never a default: a request names its one service, else invalid_target.
        defaultResource(_ctx: unknown, _client: unknown, oneOf?: string[]) {
          if (oneOf?.length === 1) return oneOf[0]
          if (oneOf) throw new errors.InvalidTarget('name exactly one resource')
          throw new errors.InvalidTarget(
            `the resource parameter is required: the MCP endpoint to use, such as ${publicUrl}/tasks/mcp`,
          )
        },
        getResourceServerInfo(ctx: KoaContextWithOIDC, resource: string): ResourceServerInfo {
          const scopes = serviceScopes(resource)
          if (!scopes) {
            throw new errors.InvalidTarget(
              `unknown resource: use one of the MCP endpoints, such as ${publicUrl}/tasks/mcp`,
            )
          }
          const requested = ctx.oidc.params?.resource
          if (Array.isArray(requested) && requested.length > 1) {
            throw new errors.InvalidTarget('a grant is for one service: name exactly one resource')
          }
          if (ctx.oidc.route === 'authorization') checkRequestedScopes(ctx, resource, scopes)
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'opaque',
          }
        },
        useGrantedResource: () => true,
      },
    },

    // An earlier grant of the person, client and service spares them the consent page, except
    // for a code that goes back to a loopback port: any program on the person's machine can listen
    // there and name itself as an app they use (Claude Code's document names no port), so the
    // person decides each time, as oidc-provider does for native clients.
    loadExistingGrant: async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
      const { oidc } = ctx
      const fromInteraction = oidc.result?.consent?.grantId
      if (fromInteraction) return provider.Grant.find(fromInteraction)
      const redirectUri = oidc.params?.redirect_uri
      if (typeof redirectUri === 'string' && withoutLoopbackPort(redirectUri)) return undefined
      const account = oidc.session?.accountId
      const service = serviceOfResource(publicUrl, oidc.params?.resource)
      if (!account || !service || !oidc.client) return undefined
      for (const link of await grants.linksOf({
        account,
        clientId: oidc.client.clientId,
        service,
      })) {
        const grant = await provider.Grant.find(link.grantId)
        if (grant) return grant
      }
      return undefined
    },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub }),
    }),

    // A refresh token with every authorization code, rotated on every use; a reused one ends the
    // grant (oidc-provider's own detection, and the adapter's atomic consume across replicas).
    issueRefreshToken: (_ctx: unknown, client: Client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Revoking any token of a grant ends the whole grant, and with it the upstream credential.
    revokeGrantPolicy: () => true,
    // Tokens belong to the grant, not to the browser session that approved it.
    expiresWithSession: () => false,

    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      Interaction: 30 * 60,
      Session: 14 * 24 * 60 * 60,
    },

    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => consentPath(interaction.uid),
    },
    cookies: {
      keys: cookieKeys(vault),
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    jwks: signingJwks(vault),
    enabledJWA: {
      idTokenSigningAlgValues: ['EdDSA'],
      userinfoSigningAlgValues: ['EdDSA'],
      introspectionSigningAlgValues: ['EdDSA'],
      authorizationSigningAlgValues: ['EdDSA'],
      requestObjectSigningAlgValues: ['EdDSA', 'ES256', 'RS256', 'PS256'],
      clientAuthSigningAlgValues: CLIENT_ASSERTION_ALGS,
    },
    routes: ROUTES,
    // The connector answers CORS on discovery, registration, token and revocation itself, for
    // every origin and without credentials (http/cors.ts, server.ts), and oidc-provider's own
    // CORS steps aside. Were it to run, it would allow every origin as well: its default (a public
    // client's redirect origins only) is no defence when anyone may register a client.
    clientBasedCORS: () => true,
    fetch: clientMetadataFetch(config),
    renderError: async (
      ctx: KoaContextWithOIDC,
      out: { error: string; error_description?: string },
      error: unknown,
    ) => {
      for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value)
      ctx.set('Content-Type', 'text/html; charset=utf-8')
      const refusal = refusalOf(error)
      ctx.body = await requestErrorPage(out, refusal?.unreachable ? refusal : undefined)
    },
  })

  // The connector runs behind whatever origin PUBLIC_URL names; see server.ts.
  provider.proxy = true
  compareClientSecretsByDigest(provider)
  matchLoopbackRedirectsAtAnyPort(provider)
  useAssertionsOnce(provider, store)
  rememberRefusedDocuments(provider, log)
  keepClientKeys(provider)

  // The metadata lists the services' scopes (oidc-provider lists only its own static ones).
  const scopesSupported = allScopeNames()
  provider.use(async (ctx, next) => {
    await next()
    if (ctx.state.storeAway) await answerStoreAway(ctx, storeAway)
    if (ctx.oidc?.route === 'discovery' && isRecord(ctx.body)) {
      ctx.body = { ...ctx.body, scopes_supported: scopesSupported }
    }
    // Reading a registration (RFC 7592 §2.1) would show the stored digest as if it were the
    // secret: it is left out, the client keeps the one it was given at registration.
    if (ctx.oidc?.route === 'client' && isRecord(ctx.body)) {
      const secret = ctx.body.client_secret
      if (typeof secret === 'string' && isHashedClientSecret(secret)) {
        const { client_secret: _digest, ...rest } = ctx.body
        ctx.body = rest
      }
    }
  })

  tokenRequestsInOneTransaction(provider, store, ROUTES.token)

  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    const away = isStoreUnreachable(error) || error instanceof RotationInDoubt
    if (!away) return void log.error({ err: error }, 'authorization server error')
    // Answered below, once oidc-provider has drawn its own answer: 503, to be tried again.
    ctx.state.storeAway = error
  })
  return provider
}

/**
 * The database was away while oidc-provider served a request: 503 with Retry-After, and nothing
 * done. A refresh token is not spent: the rotation is one transaction with its answer
 * (token-transactions.ts). A person's page says so as a page; a client reads an OAuth error.
 */
async function answerStoreAway(
  ctx: KoaContextWithOIDC,
  report: Pick<StoreAwayReport, 'request'> | undefined,
) {
  const error = ctx.state.storeAway
  const inDoubt = error instanceof RotationInDoubt
  if (!inDoubt) report?.request('oauth', error)
  ctx.status = 503
  ctx.set('Retry-After', String(inDoubt ? error.retryAfterSeconds : STORE_RETRY_AFTER_SECONDS))
  ctx.set('Cache-Control', 'no-store')
  if (inDoubt) ctx.body = storeAwayError(error.message)
  else if (typeof ctx.body === 'string') {
    for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value)
    ctx.body = await storeAwayPageText()
  } else ctx.body = storeAwayError()
}

/**
 * `offline_access` in a request asks for a refresh token, which every grant here has: a client may
 * add it (Claude Code does, as the MCP specification suggests) and it changes nothing.
 */
const OFFLINE_ACCESS = 'offline_access'

/**
 * The scopes of an authorization request must all be the named service's; none asked means all
 * of them (the consent page lists each one, and every change is still approved call by call).
 */
function checkRequestedScopes(ctx: KoaContextWithOIDC, resource: string, scopes: string[]) {
  const params = ctx.oidc.params ?? {}
  const named = typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : []
  const asked = named.filter((scope) => scope !== OFFLINE_ACCESS)
  if (asked.length !== named.length) params.scope = asked.join(' ')
  if (asked.length === 0) {
    params.scope = scopes.join(' ')
    return
  }
  const foreign = asked.find((scope) => !scopes.includes(scope))
  if (foreign !== undefined) {
    throw new errors.InvalidScope(
      `"${foreign}" is not a permission of ${resource}; it accepts ${scopes.join(', ')}`,
      foreign,
    )
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
