/**
 * The MCP hosts people connect with, as they publish themselves and as they sign in
 * (docs/hosts.md): each host's client metadata document or registration exactly as it sends it,
 * the redirect it listens on, how it authenticates at the token endpoint and how it refreshes.
 * The end-to-end tests sign in as each of them (test/e2e/hosts.test.ts).
 *
 * A document is served here from a loopback https origin in place of the host's own: its
 * `client_id` becomes that URL (as the document's rules require) and a `jwks_uri` points at the
 * same origin; every other field is as published.
 */

/** Where the host's browser comes back: `port` is the one its loopback listener got. */
export type RedirectOf = (port: number) => string

export interface Host {
  readonly name: string
  /** Its client ID metadata document, as published (the `client_id` is replaced). */
  readonly document?: Readonly<Record<string, unknown>>
  /** Or its dynamic registration's body, as sent (the redirect from `redirect`). */
  readonly registration?: (redirect: string) => Record<string, unknown>
  /** The redirect URI it sends with the authorization request. */
  readonly redirect: RedirectOf
  /** How it authenticates at the token endpoint: a public client, or RFC 7523 with RS256. */
  readonly tokenAuth: 'none' | 'private_key_jwt'
  /** It appends `offline_access` to the scope it asks for (Claude Code). */
  readonly addsOfflineAccess?: boolean
  /** It sends `resource` when refreshing (Codex does not). */
  readonly refreshesWithResource: boolean
}

const loopback =
  (host: string, path = '/callback'): RedirectOf =>
  (port) =>
    `http://${host}:${port}${path}`

const CODE_AND_REFRESH = {
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
}

export const HOSTS: readonly Host[] = [
  {
    name: 'Claude Code',
    document: {
      client_name: 'Claude Code',
      client_uri: 'https://claude.com/claude-code',
      redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/callback'],
      ...CODE_AND_REFRESH,
      token_endpoint_auth_method: 'none',
    },
    redirect: loopback('localhost'),
    tokenAuth: 'none',
    addsOfflineAccess: true,
    refreshesWithResource: true,
  },
  {
    name: 'Codex CLI',
    document: {
      client_name: 'Codex',
      redirect_uris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
      token_endpoint_auth_method: 'none',
    },
    redirect: loopback('127.0.0.1'),
    tokenAuth: 'none',
    refreshesWithResource: false,
  },
  {
    name: 'Zed',
    document: {
      client_name: 'Zed',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
    },
    redirect: loopback('127.0.0.1'),
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
  {
    name: 'OpenCode',
    document: {
      client_name: 'OpenCode',
      redirect_uris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
      token_endpoint_auth_method: 'none',
    },
    redirect: loopback('localhost'),
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
  {
    name: 'VS Code',
    document: {
      client_name: 'Visual Studio Code',
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'],
      grant_types: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    redirect: loopback('127.0.0.1', '/'),
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
  {
    name: 'claude.ai',
    document: {
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      ...CODE_AND_REFRESH,
      token_endpoint_auth_method: 'none',
    },
    redirect: () => 'https://claude.ai/api/mcp/auth_callback',
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
  {
    name: 'ChatGPT',
    document: {
      client_name: 'ChatGPT',
      redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
      ...CODE_AND_REFRESH,
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'RS256',
      // Not a client's field, but in the published document; the connector ignores it.
      token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
      logo_uri: 'https://cdn.openai.com/assets/chatgpt-logo.png',
    },
    redirect: () => 'https://chatgpt.com/connector_platform_oauth_redirect',
    tokenAuth: 'private_key_jwt',
    refreshesWithResource: true,
  },
  {
    name: 'Cursor',
    registration: (redirect) => ({
      client_name: 'Cursor',
      redirect_uris: [redirect],
      ...CODE_AND_REFRESH,
      token_endpoint_auth_method: 'none',
    }),
    redirect: () => 'http://localhost:8787/callback',
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
  {
    name: 'Gemini CLI',
    registration: (redirect) => ({
      client_name: 'Gemini CLI MCP Client',
      redirect_uris: [redirect],
      ...CODE_AND_REFRESH,
      token_endpoint_auth_method: 'none',
    }),
    redirect: loopback('localhost', '/oauth/callback'),
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
  {
    name: 'mcp-use',
    registration: (redirect) => ({
      client_name: 'mcp-use',
      client_uri: '',
      logo_uri: '',
      redirect_uris: [redirect],
      ...CODE_AND_REFRESH,
      token_endpoint_auth_method: 'none',
    }),
    redirect: loopback('localhost'),
    tokenAuth: 'none',
    refreshesWithResource: true,
  },
]

/** The path of a host's document on the test's origin, from its name. */
export const documentPath = (host: Host) =>
  `/${host.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/client.json`

/** The path of a host's signing keys (its `jwks_uri`) on the test's origin. */
export const jwksPath = (host: Host) => documentPath(host).replace(/client\.json$/, 'jwks.json')
