import { randomBytes } from 'node:crypto'
import * as oauth from 'oauth4webapi'
import type { ServiceName } from '../../src/services/catalog.js'
import type { Person } from './authorization-flow.js'
import { documentPath, jwksPath, type Host } from './hosts.js'

/**
 * One host's sign-in, as the host does it, with oauth4webapi as its OAuth client: the 401 from
 * the MCP endpoint, the protected resource's metadata, the authorization server's (compared
 * exactly to the issuer it names), the host's document or registration, the authorization with
 * its own redirect and `iss` checked (RFC 9207), the code exchanged with its token endpoint
 * authentication, and a refresh as it refreshes. What each step answered is returned for the test
 * to judge; nothing here asserts.
 */

export interface HostSigningKey {
  readonly privateKey: CryptoKey
  /** The public half as the host publishes it at its `jwks_uri`. */
  readonly jwk: JsonWebKey & { kid: string; alg: string; use: string }
}

/** An RS256 key pair, as ChatGPT signs its client assertions with. */
export async function hostSigningKey(): Promise<HostSigningKey> {
  const pair = await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )
  const { kty, n, e } = await crypto.subtle.exportKey('jwk', pair.publicKey)
  const kid = randomBytes(8).toString('hex')
  return { privateKey: pair.privateKey, jwk: { kty, n, e, kid, alg: 'RS256', use: 'sig' } }
}

export interface HostWorld {
  /** The connector's MCP URL of a service. */
  resource(service: ServiceName): string
  /** Where the hosts' documents are served (a loopback https origin): a path's URL. */
  documentUrl(path: string): string
  /** The signing key of a host that authenticates with private_key_jwt. */
  signingKey?: HostSigningKey
}

/** The document a host publishes, as served on the test's origin from `documentUrl`. */
export function publishedDocument(host: Host, world: Pick<HostWorld, 'documentUrl'>) {
  if (!host.document) return undefined
  return {
    ...host.document,
    client_id: world.documentUrl(documentPath(host)),
    ...(host.tokenAuth === 'private_key_jwt' && { jwks_uri: world.documentUrl(jwksPath(host)) }),
  }
}

const insecure = {
  [oauth.allowInsecureRequests]: true,
  // The servers of this process (@hono/node-server) replace the global Response; oauth4webapi
  // reads only an `instanceof Response`, as it would in a host's own process.
  [oauth.customFetch]: async (url: string, init: RequestInit) => {
    const res = await fetch(url, init)
    return new Response(res.body, res)
  },
} as const

export class HostSignIn {
  as!: oauth.AuthorizationServer
  client!: oauth.Client
  issuer!: URL
  /** The redirect URI the host sent, on the port its listener got. */
  redirectUri!: string
  scope!: string
  /** The URL the person's browser was sent back to. */
  landed!: URL
  tokens!: oauth.TokenEndpointResponse

  constructor(
    readonly host: Host,
    readonly world: HostWorld,
    readonly service: ServiceName = 'tasks',
  ) {}

  get resource() {
    return this.world.resource(this.service)
  }

  get clientAuth(): oauth.ClientAuth {
    if (this.host.tokenAuth === 'none') return oauth.None()
    const key = this.world.signingKey
    if (!key) throw new Error(`${this.host.name} signs its assertions: give it a key`)
    return oauth.PrivateKeyJwt({ key: key.privateKey, kid: key.jwk.kid })
  }

  /** From the MCP endpoint's 401 to the authorization server's metadata. */
  async discover(): Promise<{ challenge: string; resourceMetadata: Record<string, any> }> {
    const first = await fetch(this.resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    const challenge = first.headers.get('www-authenticate') ?? ''
    await first.body?.cancel()
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
    if (first.status !== 401 || !metadataUrl) {
      throw new Error(
        `${this.host.name}: expected a 401 with resource_metadata, got ${first.status}`,
      )
    }
    const resourceMetadata = (await (await fetch(metadataUrl)).json()) as Record<string, any>
    // Only the first authorization server is used, and compared exactly (as Claude and ChatGPT do).
    this.issuer = new URL(resourceMetadata.authorization_servers[0])
    this.as = await oauth.processDiscoveryResponse(
      this.issuer,
      await oauth.discoveryRequest(this.issuer, { algorithm: 'oauth2', ...insecure }),
    )
    this.scope = [
      ...(resourceMetadata.scopes_supported as string[]),
      ...(this.host.addsOfflineAccess ? ['offline_access'] : []),
    ].join(' ')
    return { challenge, resourceMetadata }
  }

  /** The host's client: its document's URL, or a dynamic registration as it sends it. */
  async identify(port = 49152 + Math.floor(Math.random() * 16000)): Promise<void> {
    this.redirectUri = this.host.redirect(port)
    const document = publishedDocument(this.host, this.world)
    if (document) {
      this.client = {
        client_id: document.client_id,
        token_endpoint_auth_method: this.host.tokenAuth,
      }
      return
    }
    const res = await oauth.dynamicClientRegistrationRequest(
      this.as,
      this.host.registration!(this.redirectUri) as Partial<oauth.Client>,
      insecure,
    )
    this.client = await oauth.processDynamicClientRegistrationResponse(res)
  }

  /** The authorization request the host opens in the person's browser, with its verifier. */
  async authorizationRequest() {
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(this.as.authorization_endpoint!)
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: this.client.client_id,
      redirect_uri: this.redirectUri,
      scope: this.scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource: this.resource,
    })) {
      url.searchParams.set(name, value)
    }
    return { url, verifier, state }
  }

  /**
   * The person authorizes in their browser; the host takes the answer at its redirect URI
   * (`iss` checked) and exchanges the code. Returns the token endpoint's answer.
   */
  async authorize(person: Person): Promise<oauth.TokenEndpointResponse> {
    const { url, verifier, state } = await this.authorizationRequest()
    this.landed = await person.authorize(url)
    const callback = oauth.validateAuthResponse(this.as, this.client, this.landed, state)
    const res = await oauth.authorizationCodeGrantRequest(
      this.as,
      this.client,
      this.clientAuth,
      callback,
      this.redirectUri,
      verifier,
      { additionalParameters: { resource: this.resource }, ...insecure },
    )
    this.tokens = await oauth.processAuthorizationCodeResponse(this.as, this.client, res)
    return this.tokens
  }

  /** A refresh, as the host sends it (with or without `resource`). */
  async refresh(): Promise<oauth.TokenEndpointResponse> {
    const res = await oauth.refreshTokenGrantRequest(
      this.as,
      this.client,
      this.clientAuth,
      this.tokens.refresh_token!,
      {
        ...(this.host.refreshesWithResource && {
          additionalParameters: { resource: this.resource },
        }),
        ...insecure,
      },
    )
    this.tokens = await oauth.processRefreshTokenResponse(this.as, this.client, res)
    return this.tokens
  }

  /** The whole sign-in: discovery, the client, the authorization and the code's exchange. */
  async signIn(person: Person): Promise<oauth.TokenEndpointResponse> {
    await this.discover()
    await this.identify()
    return this.authorize(person)
  }
}

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/**
 * A client assertion (RFC 7523) for `clientId` at the authorization server `issuer`, signed RS256
 * with `key`; `claims` and `header` over those of a valid one (undefined removes a claim), so a
 * test can forge what a host would never send.
 */
export async function signedAssertion(
  key: HostSigningKey,
  { clientId, issuer }: { clientId: string; issuer: string },
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const signed = `${base64url({ alg: 'RS256', kid: key.jwk.kid, ...header })}.${base64url({
    iss: clientId,
    sub: clientId,
    aud: issuer,
    iat: now,
    exp: now + 60,
    jti: randomBytes(12).toString('base64url'),
    ...claims,
  })}`
  const signature = await crypto.subtle.sign(
    'RSASSA-PKCS1-v1_5',
    key.privateKey,
    Buffer.from(signed),
  )
  return `${signed}.${Buffer.from(signature).toString('base64url')}`
}
