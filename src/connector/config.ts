import type { ServiceName } from '../services/catalog.js'
import { GOOGLE_PROFILE } from '../services/profiles/google.js'
import type { ProfileName } from '../services/profiles/index.js'

/** The provider the connector is a client of: the sandbox by default, or a real one. */
export interface UpstreamConfig {
  /** Where each tool's call goes there, and what it does differently (src/services/profiles). */
  profile: ProfileName
  /** What the person knows the provider as ("Sign in with ..."); else its authorization host. */
  name?: string
  authorizationUrl: string
  tokenUrl: string
  revocationUrl: string
  userinfoUrl: string
  clientId: string
  clientSecret: string
  /** The full scope identifier is this prefix followed by the seed's short name. */
  scopePrefix: string
  /** One API base URL per service. */
  apiBase: Record<ServiceName, string>
}

export interface ConnectorConfig {
  /** 0 picks a free port (tests). */
  port: number
  host: string
  /** The connector's external origin (no trailing slash): issuer, resources, redirect URIs. */
  publicUrl: string
  dataDir: string
  /** A postgres:// URL selects PostgreSQL; unset, SQLite in dataDir. */
  databaseUrl?: string
  /** Base64 or hex keys, comma-separated: the first seals, all open. Unset: a key file. */
  vaultKey?: string
  upstream: UpstreamConfig
  /**
   * Development only: fetch client metadata documents from loopback addresses (and trust
   * `extraCa` for them), so a local MCP client can use one. Never on in production.
   */
  allowLoopbackClientMetadata: boolean
  /** PEM certificates trusted in addition to the system's, for loopback metadata documents. */
  extraCa?: string
}

/** The sandbox's default scope prefix: the two agree by configuration, not by shared code. */
export const SANDBOX_SCOPE_PREFIX = 'https://sandbox.countersign.test/auth/'

const SANDBOX_NAME = 'the sandbox provider'
const SANDBOX_CLIENT = { clientId: 'countersign', clientSecret: 'sandbox-secret-not-checked' }

/** The upstream settings that point at the built-in sandbox provider at `sandboxUrl`. */
export function sandboxUpstream(
  sandboxUrl: string,
  scopePrefix = SANDBOX_SCOPE_PREFIX,
): UpstreamConfig {
  return {
    profile: 'seed',
    name: SANDBOX_NAME,
    authorizationUrl: `${sandboxUrl}/oauth/authorize`,
    tokenUrl: `${sandboxUrl}/oauth/token`,
    revocationUrl: `${sandboxUrl}/oauth/revoke`,
    userinfoUrl: `${sandboxUrl}/oauth/userinfo`,
    ...SANDBOX_CLIENT,
    scopePrefix,
    apiBase: {
      tasks: `${sandboxUrl}/tasks/v1`,
      search: `${sandboxUrl}/search/v1`,
      analytics: `${sandboxUrl}/analytics/v1`,
    },
  }
}

/**
 * The Google profile pointed at the sandbox's Google dialect at `googleUrl` (DESIGN §9.1): every
 * Google default with its origin swapped for the sandbox's, since that one origin serves each
 * Google host's paths at its root (`/o/oauth2/v2/auth`, `/token`, `/tasks/v1`, `/v1beta`, ...).
 */
export function googleSandboxUpstream(googleUrl: string): UpstreamConfig {
  const at = (setting: keyof typeof GOOGLE_PROFILE.defaults) => {
    const google = new URL(GOOGLE_PROFILE.defaults[setting]!)
    return `${googleUrl}${google.pathname.replace(/\/+$/, '')}`
  }
  return {
    profile: 'google',
    name: SANDBOX_NAME,
    authorizationUrl: at('UPSTREAM_AUTHORIZATION_URL'),
    tokenUrl: at('UPSTREAM_TOKEN_URL'),
    revocationUrl: at('UPSTREAM_REVOCATION_URL'),
    userinfoUrl: at('UPSTREAM_USERINFO_URL'),
    ...SANDBOX_CLIENT,
    scopePrefix: GOOGLE_PROFILE.defaults.UPSTREAM_SCOPE_PREFIX!,
    apiBase: {
      tasks: at('UPSTREAM_TASKS_URL'),
      search: at('UPSTREAM_SEARCH_URL'),
      analytics: at('UPSTREAM_ANALYTICS_URL'),
    },
  }
}
