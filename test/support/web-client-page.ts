import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client'

/**
 * An MCP client that runs in a web page (bundled by test/security/cors.test.ts): the SDK's own
 * client and its OAuth, with the page's own fetch, so every request to the connector is a
 * cross-origin one that the browser lets through only as CORS allows. The person's part of the
 * authorization (consent, the provider's page) happens outside the page; the page gets back the
 * redirect URI's query, as a web client's callback would.
 */

export interface WebClient {
  /** Starts at the MCP URL with no token: what follows the 401 ends at the authorization URL. */
  authorize(serverUrl: string, redirectUri: string): Promise<string>
  /** The callback's query: the code exchanged for tokens. */
  finish(callbackQuery: string): Promise<void>
  /** Connects under a protocol revision and calls a read tool. */
  use(era: '2026-07-28' | '2025-11-25', tool: string): Promise<UsedTools>
  /** Every request the SDK made, as "METHOD path status", in order. */
  seen: string[]
}

export interface UsedTools {
  tools: string[]
  isError: boolean
  text: string
}

declare global {
  interface Window {
    webClient: WebClient
  }
}

class PageOAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined
  #client: StoredOAuthClientInformation | undefined
  #tokens: StoredOAuthTokens | undefined
  #verifier: string | undefined
  #discovery: OAuthDiscoveryState | undefined

  constructor(readonly redirectUrl: string) {}

  get clientMetadata() {
    return {
      client_name: 'Web Page Assistant',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }
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
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
}

const seen: string[] = []
const pageFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init)
  const url = new URL(input instanceof Request ? input.url : String(input))
  seen.push(`${init?.method ?? 'GET'} ${url.pathname} ${res.status}`)
  return res
}

let oauth: PageOAuth | undefined
let server: URL | undefined
let started: StreamableHTTPClientTransport | undefined

const transport = () =>
  new StreamableHTTPClientTransport(server!, { authProvider: oauth!, fetch: pageFetch })

window.webClient = {
  seen,
  async authorize(serverUrl, redirectUri) {
    server = new URL(serverUrl)
    oauth = new PageOAuth(redirectUri)
    started = transport()
    const refused = await new Client({ name: 'web-page', version: '1' })
      .connect(started)
      .catch((error: unknown) => error)
    if (!(refused instanceof UnauthorizedError) || !oauth.authorizationUrl)
      throw new Error(`expected to be sent to the authorization page: ${String(refused)}`)
    return oauth.authorizationUrl.toString()
  },
  async finish(callbackQuery) {
    await started!.finishAuth(new URLSearchParams(callbackQuery))
  },
  async use(era, tool) {
    const client = new Client(
      { name: 'web-page', version: '1' },
      era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    )
    await client.connect(transport())
    const { tools } = await client.listTools()
    const result = await client.callTool({ name: tool, arguments: {} })
    await client.close()
    const [first] = result.content
    return {
      tools: tools.map((t) => t.name),
      isError: result.isError ?? false,
      text: first?.type === 'text' ? first.text : '',
    }
  },
}
