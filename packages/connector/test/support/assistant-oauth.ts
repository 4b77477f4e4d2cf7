import { randomBytes } from 'node:crypto'
import type {
  FetchLike,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client'
import type { Person } from './connector.js'

/**
 * The assistant's side of OAuth, in memory. `redirectToAuthorization` is where an assistant opens
 * the browser: here the person authorizes, and their browser lands on the loopback redirect URI.
 * With `interactive` off it only records that it was asked to.
 */
export class AssistantOAuth implements OAuthClientProvider {
  interactive = true
  readonly authorizationUrls: URL[] = []
  readonly savedTokens: StoredOAuthTokens[] = []
  readonly states: string[] = []
  #client: StoredOAuthClientInformation | undefined
  #tokens: StoredOAuthTokens | undefined
  #verifier: string | undefined
  #discovery: OAuthDiscoveryState | undefined

  constructor(
    private readonly person: Person,
    private readonly redirectUri: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl() {
    return this.redirectUri
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Assistant',
      redirect_uris: [this.redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }
  }

  state() {
    const state = randomBytes(16).toString('base64url')
    this.states.push(state)
    return state
  }

  clientInformation() {
    return this.#client
  }
  saveClientInformation(client: StoredOAuthClientInformation) {
    this.#client = client
  }
  tokens() {
    return this.#tokens
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.savedTokens.push(tokens)
    this.#tokens = tokens
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier
  }
  codeVerifier() {
    if (!this.#verifier) throw new Error('no code verifier saved')
    return this.#verifier
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.#discovery = state
  }
  discoveryState() {
    return this.#discovery
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined
    if (scope === 'all' || scope === 'client') this.#client = undefined
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined
  }

  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url)
    if (!this.interactive) return
    const back = await this.person.authorize(url)
    // The browser lands on the redirect URI, where the assistant picks the answer up.
    await fetch(back)
  }
}

/**
 * Every request the SDK makes, as "METHOD path status". The answer is re-wrapped in the global
 * Response: the connector and sandbox running in this process (@hono/node-server) replace it, and
 * the SDK reads OAuth error answers only from an `instanceof Response`, as it would in an
 * assistant's own process.
 */
export function recordingFetch(): { fetch: FetchLike; seen: string[] } {
  const seen: string[] = []
  return {
    seen,
    fetch: async (input, init) => {
      const res = await fetch(input, init)
      seen.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${res.status}`)
      return new Response(res.body, res)
    },
  }
}
