import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { localOrigin } from '../config/loopback.js'
import {
  PROFILE_NAMES,
  PROFILES,
  type ProfileName,
  type UpstreamSetting,
} from '../services/profiles/index.js'
import {
  DEFAULT_RATE_LIMITS,
  type ConnectorConfig,
  type MetricsConfig,
  type RateLimitSettings,
  type UpstreamConfig,
} from '../config/config.js'

/**
 * The connector's configuration from the environment (docs/operations.md, "Configuration"). Every
 * variable is optional; an error names the variable and says what it should hold, never echoing a
 * secret.
 */

export type Environment = Record<string, string | undefined>

export interface ConnectorEnvironment {
  config: Omit<ConnectorConfig, 'upstream'>
  /** UPSTREAM_PROFILE: the generic provider (the default) or Google. */
  profile: ProfileName
  /** The real provider's settings, or undefined to use the built-in sandbox (in the profile's dialect). */
  upstream: UpstreamConfig | undefined
  /** Whether to start the sandbox here (false with SANDBOX=0 or a real provider). */
  startSandbox: boolean
}

type UpstreamVariable = UpstreamSetting | 'UPSTREAM_CLIENT_ID' | 'UPSTREAM_CLIENT_SECRET'

const REQUIRED_UPSTREAM = [
  'UPSTREAM_AUTHORIZATION_URL',
  'UPSTREAM_TOKEN_URL',
  'UPSTREAM_REVOCATION_URL',
  'UPSTREAM_USERINFO_URL',
  'UPSTREAM_CLIENT_ID',
  'UPSTREAM_TASKS_URL',
  'UPSTREAM_SEARCH_URL',
  'UPSTREAM_ANALYTICS_URL',
] as const satisfies readonly UpstreamVariable[]
const OPTIONAL_UPSTREAM = [
  // Unset, the Admin API is on the analytics API's base (the sandbox serves both there).
  'UPSTREAM_ANALYTICS_ADMIN_URL',
  'UPSTREAM_CLIENT_SECRET',
  'UPSTREAM_SCOPE_PREFIX',
  'UPSTREAM_NAME',
] as const satisfies readonly UpstreamVariable[]
/** What a profile needs beyond its defaults: Google's token endpoint wants the client's secret. */
const ALSO_REQUIRED: Record<ProfileName, readonly UpstreamVariable[]> = {
  seed: [],
  google: ['UPSTREAM_CLIENT_SECRET'],
}

export function connectorEnvironment(env: Environment = process.env): ConnectorEnvironment {
  const port = portOf(env, 'PORT', 8080)
  const host = env.HOST || '127.0.0.1'
  const publicUrl = env.PUBLIC_URL ? originOf(env.PUBLIC_URL) : defaultPublicUrl(host, port)
  const profile = profileOf(env)
  const upstream = upstreamOf(env, profile)
  return {
    config: {
      port,
      host,
      publicUrl,
      dataDir: resolve(env.DATA_DIR || './data'),
      databaseUrl: env.DATABASE_URL || undefined,
      vaultKey: env.VAULT_KEY || undefined,
      allowLoopbackClientMetadata: flag(env, 'DEV_ALLOW_LOOPBACK_CLIENT_METADATA'),
      rateLimits: rateLimitsOf(env),
      auditRetentionDays: retentionDaysOf(env),
      metrics: metricsOf(env, port),
    },
    profile,
    upstream,
    startSandbox: upstream === undefined && env.SANDBOX !== '0',
  }
}

/** Where the sandbox is when this process does not start it (SANDBOX=0): run it yourself there. */
export function sandboxUrlOf(env: Environment = process.env): string {
  if (env.SANDBOX_PUBLIC_URL) return originOf(env.SANDBOX_PUBLIC_URL, 'SANDBOX_PUBLIC_URL')
  return `http://127.0.0.1:${portOf(env, 'SANDBOX_PORT', 8081)}`
}

/** Where the sandbox's Google dialect is when this process does not start it (SANDBOX=0). */
export function sandboxGoogleUrlOf(env: Environment = process.env): string {
  if (env.SANDBOX_GOOGLE_PUBLIC_URL)
    return originOf(env.SANDBOX_GOOGLE_PUBLIC_URL, 'SANDBOX_GOOGLE_PUBLIC_URL')
  return `http://127.0.0.1:${portOf(env, 'SANDBOX_GOOGLE_PORT', 8082)}`
}

function profileOf(env: Environment): ProfileName {
  const value = env.UPSTREAM_PROFILE
  if (!value) return 'seed'
  if ((PROFILE_NAMES as readonly string[]).includes(value)) return value as ProfileName
  throw new Error(`UPSTREAM_PROFILE must be ${PROFILE_NAMES.join(' or ')}, not "${value}".`)
}

/**
 * The real provider's settings; undefined, with no UPSTREAM_* set, for the built-in sandbox. A
 * setting the profile has a default for (every URL of Google's) may be left out.
 */
function upstreamOf(env: Environment, profile: ProfileName): UpstreamConfig | undefined {
  const set = [...REQUIRED_UPSTREAM, ...OPTIONAL_UPSTREAM].filter((name) => env[name])
  if (set.length === 0) return undefined
  const { defaults } = PROFILES[profile]
  const value = (name: UpstreamVariable) =>
    env[name] || (name in defaults ? defaults[name as UpstreamSetting] : undefined)
  const missing = [...REQUIRED_UPSTREAM, ...ALSO_REQUIRED[profile]].filter((name) => !value(name))
  if (missing.length) {
    throw new Error(
      `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set, so a real provider is configured, ` +
        `but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not: set every one, or ` +
        `unset all UPSTREAM_* variables${profile === 'seed' ? '' : ' but UPSTREAM_PROFILE'} to use the built-in sandbox.`,
    )
  }
  const url = (name: (typeof REQUIRED_UPSTREAM)[number]) => httpUrl(name, value(name)!)
  return {
    profile,
    name: value('UPSTREAM_NAME') || undefined,
    authorizationUrl: url('UPSTREAM_AUTHORIZATION_URL'),
    tokenUrl: url('UPSTREAM_TOKEN_URL'),
    revocationUrl: url('UPSTREAM_REVOCATION_URL'),
    userinfoUrl: url('UPSTREAM_USERINFO_URL'),
    clientId: value('UPSTREAM_CLIENT_ID')!,
    clientSecret: value('UPSTREAM_CLIENT_SECRET') ?? '',
    scopePrefix: value('UPSTREAM_SCOPE_PREFIX') ?? '',
    apiBase: {
      tasks: url('UPSTREAM_TASKS_URL').replace(/\/+$/, ''),
      search: url('UPSTREAM_SEARCH_URL').replace(/\/+$/, ''),
      analytics: url('UPSTREAM_ANALYTICS_URL').replace(/\/+$/, ''),
      analyticsAdmin: httpUrl(
        'UPSTREAM_ANALYTICS_ADMIN_URL',
        value('UPSTREAM_ANALYTICS_ADMIN_URL') || value('UPSTREAM_ANALYTICS_URL')!,
      ).replace(/\/+$/, ''),
    },
  }
}

/**
 * The default of docs/operations.md, "Metrics": the port of OpenTelemetry's Prometheus exporter.
 */
export const DEFAULT_METRICS_PORT = 9464
/** A bearer token shorter than this is too easy to guess. */
const MIN_METRICS_TOKEN_LENGTH = 16

/**
 * `/metrics` on a port of its own (docs/operations.md, "Metrics"): METRICS_PORT (9464 unless told;
 * 0 turns it off, so here 0 does not mean "a free port" as it does for PORT), METRICS_HOST
 * (loopback unless told) and METRICS_TOKEN (a bearer token a scrape must send; none unless told).
 */
function metricsOf(env: Environment, publicPort: number): MetricsConfig | undefined {
  const port = portOf(env, 'METRICS_PORT', DEFAULT_METRICS_PORT)
  if (port === 0) return undefined
  if (port === publicPort) {
    throw new Error(
      `METRICS_PORT must differ from PORT (both are ${port}): metrics are never served on the public port. ` +
        'Set METRICS_PORT to another port, or to 0 to turn metrics off.',
    )
  }
  const host = env.METRICS_HOST || '127.0.0.1'
  if (isIP(host) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(host)) {
    throw new Error(
      `METRICS_HOST must be an IP address or a host name to bind to, such as 127.0.0.1 or 0.0.0.0, not "${host}".`,
    )
  }
  const token = env.METRICS_TOKEN || undefined
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new Error(
      'METRICS_TOKEN must be printable ASCII without spaces (it is sent as "Authorization: Bearer <token>"). ' +
        'Generate one with `openssl rand -hex 32`.',
    )
  }
  if (token !== undefined && token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters long. Generate one with \`openssl rand -hex 32\`.`,
    )
  }
  const metrics: MetricsConfig = token === undefined ? { port, host } : { port, host, token }
  if (!env.METRICS_PORT) metrics.optional = true
  return metrics
}

function httpUrl(name: string, value: string): string {
  const url = URL.parse(value)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error(`${name} must be an http(s) URL, not "${value}".`)
  }
  return value
}

function portOf(env: Environment, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${name} must be a port number from 0 to 65535, not "${raw}".`)
  }
  return port
}

/**
 * PUBLIC_URL is an origin: the issuer, the resources and the redirect URI are built on it, and
 * the connector serves every path at the root.
 */
function originOf(value: string, name = 'PUBLIC_URL'): string {
  const url = URL.parse(value)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error(
      `${name} must be an http(s) origin such as https://connector.example.com, not "${value}".`,
    )
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new Error(
      `${name} must be an origin only (scheme, host and port, no path), such as https://connector.example.com, not "${value}".`,
    )
  }
  return url.origin
}

function defaultPublicUrl(host: string, port: number): string {
  // Port 0 (a free port) is filled in once the server listens.
  return port === 0 ? '' : localOrigin(host, port)
}

/** RATE_LIMIT_*_PER_MINUTE: each limit unset keeps its default. */
function rateLimitsOf(env: Environment): RateLimitSettings {
  return {
    registrationsPerMinute: perMinute(
      env,
      'RATE_LIMIT_REGISTRATIONS_PER_MINUTE',
      DEFAULT_RATE_LIMITS.registrationsPerMinute,
    ),
    tokenRequestsPerMinute: perMinute(
      env,
      'RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE',
      DEFAULT_RATE_LIMITS.tokenRequestsPerMinute,
    ),
    toolCallsPerMinute: perMinute(
      env,
      'RATE_LIMIT_TOOL_CALLS_PER_MINUTE',
      DEFAULT_RATE_LIMITS.toolCallsPerMinute,
    ),
  }
}

/** AUDIT_RETENTION_DAYS: how long the audit trail is kept; unset, the default (90). */
function retentionDaysOf(env: Environment): number | undefined {
  const raw = env.AUDIT_RETENTION_DAYS
  if (raw === undefined || raw === '') return undefined
  const days = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(days >= 1 && days <= 3650))
    throw new Error(
      `AUDIT_RETENTION_DAYS must be a whole number of days from 1 to 3650, not "${raw}".`,
    )
  return days
}

/** A limit's ceiling: a billion a minute is never reached, and fits PostgreSQL's integer count. */
const MAX_PER_MINUTE = 1_000_000_000

function perMinute(env: Environment, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(value >= 1 && value <= MAX_PER_MINUTE)) {
    throw new Error(
      `${name} must be a whole number of requests a minute from 1 to ${MAX_PER_MINUTE}, not "${raw}".`,
    )
  }
  return value
}

function flag(env: Environment, name: string): boolean {
  const value = env[name]
  if (value === undefined || value === '' || value === '0') return false
  if (value === '1') return true
  throw new Error(`${name} must be 1 (on) or 0 (off), not "${value}".`)
}
