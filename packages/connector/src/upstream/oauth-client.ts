import * as oauth from 'oauth4webapi'
import type { UpstreamConfig } from '../config/config.js'
import { UpstreamUnavailableError } from './errors.js'
import { isLoopbackHostname } from '../config/loopback.js'

/**
 * The connector as an OAuth 2.0 client of the provider, through oauth4webapi: it builds the
 * authorization request, checks the answer that comes back to the callback, and talks to the
 * token, revocation and userinfo endpoints, each call under a deadline.
 *
 * The endpoints are the configured ones, never discovered: a real provider's are configured, and
 * a discovery document is one more thing that could point the connector elsewhere. The issuer that
 * an `iss` in the authorization answer must match (RFC 9207) is the origin of the authorization
 * endpoint; an answer without `iss` is accepted, since not every provider sends it.
 */

/** How long any one call to the provider may take, unless told otherwise. */
export const DEFAULT_DEADLINE_MS = 10_000

/**
 * The provider answered a request with an OAuth error (RFC 6749 §5.2, e.g. `invalid_grant`), a
 * challenge, or something out of protocol (`invalid_response`). Internal: callers translate it.
 */
export class ProviderRefusal extends Error {
  override name = 'ProviderRefusal'
  constructor(
    readonly error: string,
    readonly status: number,
    options?: ErrorOptions & { description?: string },
  ) {
    super(`the provider answered ${status} ${error}`, options)
    this.description = options?.description
  }

  /** The provider's `error_description`, for the operator (never shown to a person). */
  readonly description: string | undefined
}

export interface OAuthClientOptions {
  config: UpstreamConfig
  redirectUri: string
  deadlineMs: number
  fetch?: typeof fetch
}

/** What every call passes to oauth4webapi. */
interface RequestOptions {
  signal: () => AbortSignal
  [oauth.allowInsecureRequests]: boolean
  [oauth.customFetch]?: typeof fetch
}

export interface Pkce {
  verifier: string
  challenge: string
}

export class OAuthClient {
  readonly #as: oauth.AuthorizationServer
  readonly #client: oauth.Client
  readonly #auth: oauth.ClientAuth
  readonly #redirectUri: string
  readonly #deadlineMs: number
  readonly #fetch: typeof fetch | undefined

  constructor({ config, redirectUri, deadlineMs, fetch }: OAuthClientOptions) {
    const authorization = endpoint(config.authorizationUrl, 'authorization')
    this.#as = {
      issuer: authorization.origin,
      authorization_endpoint: authorization.href,
      token_endpoint: endpoint(config.tokenUrl, 'token').href,
      revocation_endpoint: endpoint(config.revocationUrl, 'revocation').href,
      userinfo_endpoint: endpoint(config.userinfoUrl, 'userinfo').href,
    }
    this.#client = { client_id: config.clientId }
    // A confidential client proves itself with HTTP Basic; without a secret it is a public client.
    this.#auth = config.clientSecret ? oauth.ClientSecretBasic(config.clientSecret) : oauth.None()
    this.#redirectUri = redirectUri
    this.#deadlineMs = deadlineMs
    this.#fetch = fetch
  }

  static async newPkce(): Promise<Pkce> {
    const verifier = oauth.generateRandomCodeVerifier()
    return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) }
  }

  static newState(): string {
    return oauth.generateRandomState()
  }

  /** The provider's authorization URL: code flow with PKCE S256, plus the caller's parameters. */
  authorizationUrl(
    { state, pkce, scope }: { state: string; pkce: Pkce; scope: string },
    extra: Record<string, string> = {},
  ): URL {
    const url = new URL(this.#as.authorization_endpoint!)
    const params = {
      response_type: 'code',
      client_id: this.#client.client_id,
      redirect_uri: this.#redirectUri,
      scope,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...extra,
    }
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    return url
  }

  /**
   * Checks the answer that came back to the callback against the state sent: throws
   * oauth4webapi's AuthorizationResponseError for an error answer (`access_denied`, ...) and its
   * OperationProcessingError for a wrong `iss` or state.
   */
  validateCallback(callbackUrl: URL, state: string): URLSearchParams {
    return oauth.validateAuthResponse(this.#as, this.#client, callbackUrl, state)
  }

  exchangeCode(callbackParams: URLSearchParams, verifier: string) {
    return this.#call(
      'the code exchange',
      this.#as.token_endpoint!,
      (options) =>
        oauth.authorizationCodeGrantRequest(
          this.#as,
          this.#client,
          this.#auth,
          callbackParams,
          this.#redirectUri,
          verifier,
          options,
        ),
      (response) => oauth.processAuthorizationCodeResponse(this.#as, this.#client, response),
    )
  }

  /**
   * Presents a code that cannot exist, as a setup check does with no person at hand: a provider
   * that knows the client and its secret answers `invalid_grant`, one that does not
   * `invalid_client`. Resolves to the refusal (a provider that accepted the code is a fault).
   */
  async presentImpossibleCode(): Promise<ProviderRefusal> {
    const state = OAuthClient.newState()
    const callback = new URL(this.#redirectUri)
    callback.search = new URLSearchParams({ code: `no-such-code-${state}`, state }).toString()
    const pkce = await OAuthClient.newPkce()
    try {
      await this.exchangeCode(this.validateCallback(callback, state), pkce.verifier)
    } catch (error) {
      if (error instanceof ProviderRefusal) return error
      throw error
    }
    return new ProviderRefusal('code_accepted', 200)
  }

  refresh(refreshToken: string) {
    return this.#call(
      'the refresh',
      this.#as.token_endpoint!,
      (options) =>
        oauth.refreshTokenGrantRequest(this.#as, this.#client, this.#auth, refreshToken, options),
      (response) => oauth.processRefreshTokenResponse(this.#as, this.#client, response),
    )
  }

  /** RFC 7009: ends the token (and, at most providers, its whole grant). */
  revoke(token: string, hint: 'refresh_token' | 'access_token') {
    return this.#call(
      'the revocation',
      this.#as.revocation_endpoint!,
      (options) =>
        oauth.revocationRequest(this.#as, this.#client, this.#auth, token, {
          ...options,
          additionalParameters: { token_type_hint: hint },
        }),
      (response) => oauth.processRevocationResponse(response),
    )
  }

  /**
   * The person's identity at the provider: the `sub` of the ID token that came with `tokens`
   * (checked by oauth4webapi: issuer, audience, expiry), else of userinfo.
   */
  async subject(tokens: oauth.TokenEndpointResponse): Promise<string> {
    const claims = oauth.getValidatedIdTokenClaims(tokens)
    if (claims) return claims.sub
    const info = await this.#call(
      'the userinfo request',
      this.#as.userinfo_endpoint!,
      (options) => oauth.userInfoRequest(this.#as, this.#client, tokens.access_token, options),
      (response) =>
        oauth.processUserInfoResponse(this.#as, this.#client, oauth.skipSubjectCheck, response),
    )
    return info.sub
  }

  /**
   * One call under the deadline. A provider that cannot answer now (network, timeout, 429, 5xx)
   * is UpstreamUnavailableError; one that answers no is a ProviderRefusal.
   */
  async #call<T>(
    what: string,
    url: string,
    send: (options: RequestOptions) => Promise<Response>,
    process: (response: Response) => Promise<T>,
  ): Promise<T> {
    const options: RequestOptions = {
      signal: () => AbortSignal.timeout(this.#deadlineMs),
      // Plain http only to this machine (the sandbox); anywhere else it would expose the tokens.
      [oauth.allowInsecureRequests]: isLoopbackHttp(new URL(url)),
    }
    if (this.#fetch) options[oauth.customFetch] = this.#fetch
    let response: Response
    try {
      response = await send(options)
    } catch (error) {
      throw unreachable(what, error)
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel().catch(() => {})
      throw new UpstreamUnavailableError(
        `The provider answered ${response.status} to ${what}; try again later.`,
        retryAfterSeconds(response.headers.get('retry-after')),
      )
    }
    try {
      return await process(response)
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) {
        throw new ProviderRefusal(error.error, error.status, {
          cause: error,
          description: error.error_description,
        })
      }
      if (error instanceof oauth.WWWAuthenticateChallengeError) {
        const body = await errorInBody(error.response)
        const code = body?.error ?? error.cause[0]?.parameters.error
        throw new ProviderRefusal(code ?? 'unauthorized', error.status, {
          cause: error,
          description: body?.description,
        })
      }
      if (interrupted(error)) throw unreachable(what, error)
      throw new ProviderRefusal('invalid_response', response.status, { cause: error })
    }
  }
}

/** The configured endpoint, refused at startup if it is not https (or http to this machine). */
function endpoint(value: string, name: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`The provider's ${name} URL is not a valid absolute URL.`)
  }
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw new Error(
      `The provider's ${name} URL must be https (plain http is allowed to a loopback address only).`,
    )
  }
  return url
}

const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && isLoopbackHostname(url.hostname)

function unreachable(what: string, error: unknown) {
  const timedOut = chain(error).some((e) => e instanceof Error && e.name === 'TimeoutError')
  return new UpstreamUnavailableError(
    timedOut
      ? `The provider did not answer ${what} in time; try again later.`
      : `The provider could not be reached for ${what}; try again later.`,
    undefined,
    { cause: error },
  )
}

/** A timeout, an abort or a network failure while the answer was being read. */
function interrupted(error: unknown): boolean {
  return chain(error).some(
    (e) =>
      e instanceof Error &&
      (e.name === 'TimeoutError' ||
        e.name === 'AbortError' ||
        (e instanceof TypeError && /fetch failed|terminated/i.test(e.message))),
  )
}

function chain(error: unknown): unknown[] {
  const seen: unknown[] = []
  for (let e = error; e !== undefined && seen.length < 8; e = (e as { cause?: unknown }).cause) {
    seen.push(e)
    if (!(e instanceof Error)) break
  }
  return seen
}

async function errorInBody(
  response: Response,
): Promise<{ error: string; description?: string } | undefined> {
  try {
    const body = (await response.json()) as { error?: unknown; error_description?: unknown }
    if (typeof body?.error !== 'string') return undefined
    const description = body.error_description
    return {
      error: body.error,
      description: typeof description === 'string' ? description : undefined,
    }
  } catch {
    return undefined
  }
}

/** Retry-After as seconds, from either of its forms (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text)
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}
