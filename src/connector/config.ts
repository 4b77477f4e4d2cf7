import type { ServiceName } from '../services/catalog.js'

/** The provider the connector is a client of: the sandbox by default, or a real one. */
export interface UpstreamConfig {
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

/** The upstream settings that point at the built-in sandbox provider at `sandboxUrl`. */
/** The sandbox's default scope prefix: the two agree by configuration, not by shared code. */
export const SANDBOX_SCOPE_PREFIX = 'https://sandbox.countersign.test/auth/'

export function sandboxUpstream(
  sandboxUrl: string,
  scopePrefix = SANDBOX_SCOPE_PREFIX,
): UpstreamConfig {
  return {
    name: 'the sandbox provider',
    authorizationUrl: `${sandboxUrl}/oauth/authorize`,
    tokenUrl: `${sandboxUrl}/oauth/token`,
    revocationUrl: `${sandboxUrl}/oauth/revoke`,
    userinfoUrl: `${sandboxUrl}/oauth/userinfo`,
    clientId: 'countersign',
    clientSecret: 'sandbox-secret-not-checked',
    scopePrefix,
    apiBase: {
      tasks: `${sandboxUrl}/tasks/v1`,
      search: `${sandboxUrl}/search/v1`,
      analytics: `${sandboxUrl}/analytics/v1`,
    },
  }
}
