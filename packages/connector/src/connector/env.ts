import { resolve } from 'node:path'
import { localOrigin } from '../config/loopback.js'
import { PROFILES, type ProfileName, type UpstreamSetting } from '../services/profiles/index.js'
import type {
  ConnectorConfig,
  MetricsConfig,
  QuotaSettings,
  RateLimitSettings,
  UpstreamConfig,
} from '../config/config.js'
import { isSet, read, type Environment } from '@countersign/environment'
import {
  CONNECTOR_VARIABLES as V,
  REQUIRED_BY_PROFILE,
  SANDBOX_LOCATION_VARIABLES as SANDBOX,
  UPSTREAM_VARIABLES as UPSTREAM,
  type UpstreamVariableName,
} from '../config/variables.js'

/**
 * The connector's configuration from the environment (docs/operations.md, "Configuration"), read
 * through the declarations of config/variables.ts: each one's default, and an error that names
 * the variable and says what it should hold, never echoing a secret.
 */

export type { Environment }

export interface ConnectorEnvironment {
  config: Omit<ConnectorConfig, 'upstream'>
  /** UPSTREAM_PROFILE: `generic` (the default) or `google`. */
  profile: ProfileName
  /** The real provider's settings, or undefined to use the built-in sandbox (in the profile's dialect). */
  upstream: UpstreamConfig | undefined
  /** Whether to start the sandbox here (false with SANDBOX=0 or a real provider). */
  startSandbox: boolean
}

export function connectorEnvironment(env: Environment = process.env): ConnectorEnvironment {
  const port = read(env, V.PORT)
  const host = read(env, V.HOST)
  const profile = read(env, V.UPSTREAM_PROFILE)
  const upstream = upstreamOf(env, profile)
  return {
    config: {
      port,
      host,
      publicUrl: read(env, V.PUBLIC_URL) ?? defaultPublicUrl(host, port),
      dataDir: resolve(read(env, V.DATA_DIR)),
      databaseUrl: read(env, V.DATABASE_URL),
      vaultKey: read(env, V.VAULT_KEY),
      allowLoopbackClientMetadata: read(env, V.DEV_ALLOW_LOOPBACK_CLIENT_METADATA),
      rateLimits: rateLimitsOf(env),
      quotas: quotasOf(env),
      auditRetentionDays: read(env, V.AUDIT_RETENTION_DAYS),
      metrics: metricsOf(env, port),
      push: {
        services: read(env, V.PUSH_SERVICES),
        contact: read(env, V.PUSH_CONTACT),
        allowLoopback: read(env, V.DEV_ALLOW_LOOPBACK_PUSH),
      },
      approvalWaitSeconds: read(env, V.APPROVAL_WAIT_SECONDS),
    },
    profile,
    upstream,
    startSandbox: upstream === undefined && read(env, V.SANDBOX),
  }
}

/** Where the sandbox is when this process does not start it (SANDBOX=0): run it yourself there. */
export function sandboxUrlOf(env: Environment = process.env): string {
  return read(env, SANDBOX.SANDBOX_PUBLIC_URL) ?? loopback(read(env, SANDBOX.SANDBOX_PORT))
}

/** Where the sandbox's Google dialect is when this process does not start it (SANDBOX=0). */
export function sandboxGoogleUrlOf(env: Environment = process.env): string {
  return (
    read(env, SANDBOX.SANDBOX_GOOGLE_PUBLIC_URL) ?? loopback(read(env, SANDBOX.SANDBOX_GOOGLE_PORT))
  )
}

/** The sandbox's scope prefix, which the connector must use with it. */
export function sandboxScopePrefixOf(env: Environment = process.env): string {
  return read(env, SANDBOX.SANDBOX_SCOPE_PREFIX)
}

const loopback = (port: number) => `http://127.0.0.1:${port}`

const REQUIRED = Object.values(UPSTREAM)
  .filter((variable) => variable.required)
  .map((variable) => variable.name)

/**
 * The real provider's settings; undefined, with no UPSTREAM_* set, for the built-in sandbox. A
 * setting the profile has a default for (every URL of Google's) may be left out.
 */
function upstreamOf(env: Environment, profile: ProfileName): UpstreamConfig | undefined {
  const set = Object.values(UPSTREAM)
    .filter((variable) => isSet(env, variable))
    .map((variable) => variable.name)
  if (set.length === 0) return undefined
  const { defaults } = PROFILES[profile]
  const profileDefault = (name: UpstreamVariableName) =>
    name in defaults ? defaults[name as UpstreamSetting] : undefined
  const missing = [...REQUIRED, ...REQUIRED_BY_PROFILE[profile]].filter(
    (name) => !isSet(env, UPSTREAM[name]) && !profileDefault(name),
  )
  if (missing.length) {
    throw new Error(
      `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set, so a real provider is configured, ` +
        `but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not: set every one, or ` +
        `unset all UPSTREAM_* variables${profile === 'generic' ? '' : ' but UPSTREAM_PROFILE'} to use the built-in sandbox.`,
    )
  }
  const value = (name: UpstreamVariableName) => read(env, UPSTREAM[name]) ?? profileDefault(name)
  const base = (name: UpstreamVariableName) => value(name)?.replace(/\/+$/, '')
  return {
    profile,
    name: value('UPSTREAM_NAME'),
    authorizationUrl: value('UPSTREAM_AUTHORIZATION_URL')!,
    tokenUrl: value('UPSTREAM_TOKEN_URL')!,
    revocationUrl: value('UPSTREAM_REVOCATION_URL')!,
    userinfoUrl: value('UPSTREAM_USERINFO_URL')!,
    clientId: value('UPSTREAM_CLIENT_ID')!,
    clientSecret: value('UPSTREAM_CLIENT_SECRET') ?? '',
    scopePrefix: value('UPSTREAM_SCOPE_PREFIX') ?? '',
    apiBase: {
      tasks: base('UPSTREAM_TASKS_URL')!,
      search: base('UPSTREAM_SEARCH_URL')!,
      analytics: base('UPSTREAM_ANALYTICS_URL')!,
      analyticsAdmin: (base('UPSTREAM_ANALYTICS_ADMIN_URL') ?? base('UPSTREAM_ANALYTICS_URL'))!,
    },
  }
}

/**
 * `/metrics` on a port of its own (docs/operations.md, "Metrics"). METRICS_PORT=0 turns it off,
 * so here 0 does not mean "a free port" as it does for PORT.
 */
function metricsOf(env: Environment, publicPort: number): MetricsConfig | undefined {
  const port = read(env, V.METRICS_PORT)
  if (port === 0) return undefined
  if (port === publicPort) {
    throw new Error(
      `METRICS_PORT must differ from PORT (both are ${port}): metrics are never served on the public port. ` +
        'Set METRICS_PORT to another port, or to 0 to turn metrics off.',
    )
  }
  const host = read(env, V.METRICS_HOST)
  const token = read(env, V.METRICS_TOKEN)
  const metrics: MetricsConfig = token === undefined ? { port, host } : { port, host, token }
  if (!isSet(env, V.METRICS_PORT)) metrics.optional = true
  if (read(env, V.METRICS_TOOL_STEPS)) metrics.toolSteps = true
  return metrics
}

function defaultPublicUrl(host: string, port: number): string {
  // Port 0 (a free port) is filled in once the server listens.
  return port === 0 ? '' : localOrigin(host, port)
}

function quotasOf(env: Environment): QuotaSettings {
  return {
    tasksQueriesPerDay: read(env, V.QUOTA_TASKS_QUERIES_PER_DAY),
    searchAnalyticsQueriesPerDay: read(env, V.QUOTA_SEARCH_ANALYTICS_QUERIES_PER_DAY),
    urlInspectionsPerDay: read(env, V.QUOTA_URL_INSPECTIONS_PER_DAY),
    searchConsoleQueriesPerDay: read(env, V.QUOTA_SEARCH_CONSOLE_QUERIES_PER_DAY),
  }
}

function rateLimitsOf(env: Environment): RateLimitSettings {
  return {
    registrationsPerMinute: read(env, V.RATE_LIMIT_REGISTRATIONS_PER_MINUTE),
    tokenRequestsPerMinute: read(env, V.RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE),
    toolCallsPerMinute: read(env, V.RATE_LIMIT_TOOL_CALLS_PER_MINUTE),
  }
}
