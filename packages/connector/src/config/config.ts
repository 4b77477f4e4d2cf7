/**
 * The connector's configuration, at the bottom of its parts: every part may read it, and it
 * imports none of them. What the environment says is read into it by connector/env.ts.
 */

/** The three services the connector serves: one MCP endpoint and one OAuth protected resource each. */
export const SERVICE_NAMES = ['tasks', 'search', 'analytics'] as const
export type ServiceName = (typeof SERVICE_NAMES)[number]

/**
 * The provider's APIs the connector calls: one per service, and the analytics Admin API, where
 * the person's accounts and properties are listed (at Google, a host of its own).
 */
export const API_NAMES = [...SERVICE_NAMES, 'analyticsAdmin'] as const
export type ApiName = (typeof API_NAMES)[number]

/** The provider profiles (src/services/profiles): the generic provider, or Google. */
export const PROFILE_NAMES = ['generic', 'google'] as const
export type ProfileName = (typeof PROFILE_NAMES)[number]

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
  /** The full scope identifier is this prefix followed by the short name. */
  scopePrefix: string
  /** One API base URL per service, and the analytics Admin API's. */
  apiBase: Record<ApiName, string>
}

/** What the person knows the provider as ("Sign in with Google"): its name, else its host. */
export const providerNameOf = (upstream: Pick<UpstreamConfig, 'name' | 'authorizationUrl'>) =>
  upstream.name || new URL(upstream.authorizationUrl).host

/** The rate limits by name: the prefix of their keys in the store, and their metric's label. */
export const RATE_LIMIT_NAMES = ['registration', 'token', 'tool_call'] as const
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number]

/**
 * The rate limits (docs/operations.md, "Rate limits"): counted in the shared store on PostgreSQL,
 * so they hold across replicas, and in memory on SQLite.
 */
export interface RateLimitSettings {
  /**
   * Registrations a minute from one client address (docs/operations.md, "Rate limits": at least
   * 60).
   */
  registrationsPerMinute: number
  /** Token requests (code exchanges and refreshes) a minute from one address (at least 300). */
  tokenRequestsPerMinute: number
  /** Tool calls a minute on one grant, to keep within the person's quota at the provider. */
  toolCallsPerMinute: number
}

/** Far above normal use: they stop floods and runaway loops, never an assistant at work. */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimitSettings> = Object.freeze({
  registrationsPerMinute: 120,
  tokenRequestsPerMinute: 600,
  toolCallsPerMinute: 120,
})

/**
 * The Google project's daily quotas that the connector shares out among the people who use them
 * (docs/operations.md, "Fair shares of the provider's quotas"): what the operator states in
 * QUOTA_*, Google's published figure unless told. Each is counted in its own queries a Pacific day.
 */
export const SHARED_QUOTA_NAMES = [
  'tasksQueriesPerDay',
  'searchAnalyticsQueriesPerDay',
  'urlInspectionsPerDay',
  'searchConsoleQueriesPerDay',
] as const
export type SharedQuotaName = (typeof SHARED_QUOTA_NAMES)[number]
export type QuotaSettings = Record<SharedQuotaName, number>

/** Google's published quotas for a project (docs/operations.md, "Fair shares of the provider's quotas"). */
export const DEFAULT_QUOTAS: Readonly<QuotaSettings> = Object.freeze({
  tasksQueriesPerDay: 50_000,
  searchAnalyticsQueriesPerDay: 30_000_000,
  urlInspectionsPerDay: 10_000_000,
  searchConsoleQueriesPerDay: 100_000_000,
})

/** How long the audit trail of changes is kept, in days, unless told (AUDIT_RETENTION_DAYS). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90

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
  /** Each limit unset: DEFAULT_RATE_LIMITS. */
  rateLimits?: Partial<RateLimitSettings>
  /** The project's daily quotas that fair shares divide; each unset: DEFAULT_QUOTAS. */
  quotas?: Partial<QuotaSettings>
  /** How long the audit trail of changes is kept, in days; unset, DEFAULT_AUDIT_RETENTION_DAYS. */
  auditRetentionDays?: number
  /** Where `/metrics` is served, on a port of its own; unset, it is not served (METRICS_PORT=0). */
  metrics?: MetricsConfig
  /** Notifications on the person's devices (src/push); each unset, its default. */
  push?: PushConfig
  /**
   * How long a change's call from a client that cannot ask waits for the person's decision on
   * their device, in seconds; 0 never waits. Unset: DEFAULT_APPROVAL_WAIT_SECONDS.
   */
  approvalWaitSeconds?: number
}

/**
 * Under the 60 s that most hosts give a tool call (the MCP TypeScript SDK's request timeout, which
 * most clients keep; Codex's `tool_timeout_sec`) and that proxies give a silent response, with
 * time left for the change itself to be made and answered.
 */
export const DEFAULT_APPROVAL_WAIT_SECONDS = 50

/** Web Push (src/push): where the connector sends, and who it says it is. */
export interface PushConfig {
  /** The push services' hosts a device's subscription may name (`.example.com`: any under it). */
  services?: string[]
  /** RFC 8292's contact, an https URL or a mailto:; unset, the public URL. */
  contact?: string
  /** Development only: a push service on this machine (tests), trusting `extraCa`. */
  allowLoopback?: boolean
}

/** The metrics server (src/metrics): never the public port. */
export interface MetricsConfig {
  /** 0 picks a free port (tests). The environment's METRICS_PORT=0 instead leaves `metrics` unset. */
  port: number
  /** The address it binds to: loopback unless told otherwise. */
  host: string
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token?: string
  /**
   * The default port, not one the operator chose: when another process holds it (a second
   * connector on the machine), this one starts without metrics and says so, rather than not at
   * all. A port the operator set that cannot be had stops the start.
   */
  optional?: boolean
  /** Count each step of every tool call's CPU time and statements (METRICS_TOOL_STEPS=1). */
  toolSteps?: boolean
}
