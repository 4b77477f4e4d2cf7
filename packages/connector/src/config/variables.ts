import {
  DEFAULT_APPROVAL_WAIT_SECONDS,
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_QUOTAS,
  DEFAULT_RATE_LIMITS,
  PROFILE_NAMES,
  type ProfileName,
} from './config.js'
import {
  bearerToken,
  bindAddress,
  flag,
  httpUrl,
  oneOf,
  originSuchAs,
  port,
  text,
  wholeNumber,
  declareVariables,
} from '@countersign/environment'

/**
 * Every environment variable the connector reads, declared once: connector/env.ts reads them,
 * and `npm run docs:config` writes docs/operations.md's "Configuration" tables from them. Every
 * one is optional. A setting the code also takes without the environment (a rate limit, the
 * audit trail's age) keeps its default in config.ts, and its declaration points at it.
 */

/** A limit's ceiling: a billion a minute is never reached, and fits PostgreSQL's integer count. */
const MAX_PER_MINUTE = 1_000_000_000
const perMinute = wholeNumber(1, MAX_PER_MINUTE, 'of requests a minute')

/** A project's quota a day: a trillion is beyond any project Google grants. */
const perDay = wholeNumber(1, 1_000_000_000_000, 'of queries a day')
const shared =
  'Shared out fairly among the people who use it: see [Fair shares](#fair-shares-of-the-providers-quotas).'

/** A provider profile; `seed`, the generic profile's first name, is read as `generic`. */
const profileName = {
  ...oneOf(PROFILE_NAMES),
  read: (raw: string) =>
    raw === 'seed' ? 'generic' : PROFILE_NAMES.find((name): name is ProfileName => name === raw),
}

/** Origins, as the errors and the docs show them. */
const connectorOrigin = originSuchAs('https://connector.example.com')
const sandboxOrigin = originSuchAs('http://sandbox.internal')

/** Host names, comma-separated; a leading `.` allows every host under it. */
const hostList = {
  must: 'host names, comma-separated, such as fcm.googleapis.com,.push.apple.com',
  read(raw: string) {
    const hosts = raw
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean)
    const valid = /^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/
    return hosts.length > 0 && hosts.every((host) => valid.test(host)) ? hosts : undefined
  },
  show: (hosts: string[]) => hosts.join(','),
}

/** RFC 8292's `sub`: a mailto: or an https URL. */
const pushContact = {
  must: 'a mailto: address or an https URL, such as mailto:ops@example.com',
  read(raw: string) {
    const url = URL.parse(raw)
    return url && (url.protocol === 'mailto:' || url.protocol === 'https:') ? raw : undefined
  },
}

/** pino's levels, quietest last. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export const CONNECTOR_VARIABLES = declareVariables({
  PORT: {
    kind: port,
    fallback: 8080,
    summary: "The connector's port (`0` picks a free one).",
  },
  HOST: {
    kind: bindAddress,
    fallback: '127.0.0.1',
    summary: 'The address the connector binds to (the sandbox has its own `SANDBOX_HOST`).',
  },
  PUBLIC_URL: {
    kind: connectorOrigin,
    fallback: undefined,
    unset: '`http://HOST:PORT` (with `127.0.0.1` when `HOST` is `0.0.0.0` or `::`)',
    summary: "The connector's external origin: scheme, host and port, with no path.",
    details:
      'It is the issuer, the base of the three resources (`{PUBLIC_URL}/{service}/mcp`) and of ' +
      'the upstream redirect URI, and the host the MCP endpoints accept. A trailing `/` is ' +
      'dropped; a path, query or user info is refused.',
  },
  DATA_DIR: {
    kind: text('a folder'),
    fallback: './data',
    summary: "The folder of the SQLite database, the key file and the sandbox's data.",
    details:
      'It holds `connector.db` (plus its `-wal` and `-shm` files), the key file `vault.key` when ' +
      "`VAULT_KEY` is unset, and the sandbox's `sandbox/` folder. Folders are made 0700 and " +
      'these files 0600, whatever the umask; give it a folder of its own.',
  },
  DATABASE_URL: {
    kind: text('a postgres:// or postgresql:// URL'),
    fallback: undefined,
    unset: 'SQLite in `DATA_DIR`',
    secret: true,
    summary: 'A `postgres://` URL selects PostgreSQL, for several replicas.',
    details:
      '`postgresql://` too. `?max=N` (1 to 1000, default 10) sizes the pool of each replica. ' +
      'Other schemes are refused.',
  },
  VAULT_KEY: {
    kind: text('one or more 32-byte keys, comma-separated, each 64 hex digits or base64'),
    fallback: undefined,
    unset: '`DATA_DIR/vault.key`',
    secret: true,
    summary: "The keys that seal the provider's tokens; **required with PostgreSQL**.",
    details:
      'Make one with `openssl rand -base64 32`. The first key seals; all keys open (see ' +
      '[Key rotation](#key-rotation)).',
  },
  UPSTREAM_PROFILE: {
    kind: profileName,
    fallback: 'generic',
    summary:
      "Which provider's API the connector speaks: `generic`, a provider whose OAuth endpoints " +
      'you name and whose APIs sit at the paths of docs/tools.md, as the sandbox serves them; or ' +
      "`google`, Google's APIs under Google OAuth. `seed`, the generic profile's first name, " +
      'still means `generic`.',
    details:
      'See [Pointing it at a real provider](#pointing-it-at-a-real-provider) and [Google](#google).',
  },
  RATE_LIMIT_REGISTRATIONS_PER_MINUTE: {
    kind: perMinute,
    fallback: DEFAULT_RATE_LIMITS.registrationsPerMinute,
    summary: 'Client registrations a minute from one client address.',
    details: 'Shared by the replicas on PostgreSQL: see [Rate limits](#rate-limits).',
  },
  RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: {
    kind: perMinute,
    fallback: DEFAULT_RATE_LIMITS.tokenRequestsPerMinute,
    summary: 'Token requests (code exchanges and refreshes) a minute from one client address.',
    details: 'Shared by the replicas on PostgreSQL: see [Rate limits](#rate-limits).',
  },
  RATE_LIMIT_TOOL_CALLS_PER_MINUTE: {
    kind: perMinute,
    fallback: DEFAULT_RATE_LIMITS.toolCallsPerMinute,
    summary: "Tool calls a minute on one grant, to keep within the person's quota at the provider.",
    details: 'Shared by the replicas on PostgreSQL: see [Rate limits](#rate-limits).',
  },
  QUOTA_TASKS_QUERIES_PER_DAY: {
    kind: perDay,
    fallback: DEFAULT_QUOTAS.tasksQueriesPerDay,
    summary: "The provider project's Tasks API queries a day (Google's default: 50,000).",
    details: shared,
  },
  QUOTA_SEARCH_ANALYTICS_QUERIES_PER_DAY: {
    kind: perDay,
    fallback: DEFAULT_QUOTAS.searchAnalyticsQueriesPerDay,
    summary:
      "The project's Search Console search analytics queries a day (`query_search_analytics`).",
    details: shared,
  },
  QUOTA_URL_INSPECTIONS_PER_DAY: {
    kind: perDay,
    fallback: DEFAULT_QUOTAS.urlInspectionsPerDay,
    summary: "The project's Search Console URL inspections a day (`inspect_url`).",
    details: shared,
  },
  QUOTA_SEARCH_CONSOLE_QUERIES_PER_DAY: {
    kind: perDay,
    fallback: DEFAULT_QUOTAS.searchConsoleQueriesPerDay,
    summary: "The project's other Search Console queries a day (sites and sitemaps).",
    details: shared,
  },
  SANDBOX: {
    kind: flag,
    fallback: true,
    summary: '`0`: `npm start` does not run the sandbox.',
    details:
      'The connector then expects one (as `npm run connector` always does) at ' +
      '`SANDBOX_PUBLIC_URL`, or `http://127.0.0.1:SANDBOX_PORT` (with `UPSTREAM_PROFILE=google`: ' +
      'its Google origin, `SANDBOX_GOOGLE_PUBLIC_URL` or port `SANDBOX_GOOGLE_PORT`), for ' +
      'example from `npm run sandbox`. Ignored when `UPSTREAM_*` are set: no sandbox is started.',
  },
  LOG_LEVEL: {
    kind: oneOf(LOG_LEVELS),
    fallback: 'info',
    summary: 'How much the connector logs: `debug` adds one line per request.',
    details: 'See [Logs](#logs).',
  },
  METRICS_PORT: {
    kind: port,
    fallback: 9464,
    summary: 'The port of `/metrics` (Prometheus), a server of its own; `0` turns metrics off.',
    details:
      'Never the public port. Left unset and taken by another process, the connector starts ' +
      'without metrics and says so. See [Metrics](#metrics).',
  },
  METRICS_HOST: {
    kind: bindAddress,
    fallback: '127.0.0.1',
    summary: 'The address the metrics server binds to.',
  },
  METRICS_TOKEN: {
    kind: bearerToken,
    fallback: undefined,
    unset: 'none',
    secret: true,
    summary: 'A bearer token every scrape must send.',
    details: 'At least 16 characters: `openssl rand -hex 32` makes one.',
  },
  METRICS_TOOL_STEPS: {
    kind: flag,
    fallback: false,
    summary:
      '`1` counts the CPU time and PostgreSQL statements of each step of every tool call ' +
      '(`countersign_tool_step_*`), to find which step costs what.',
    details: 'For profiling: each step then reads the process CPU clock twice.',
  },
  AUDIT_RETENTION_DAYS: {
    kind: wholeNumber(1, 3650, 'of days'),
    fallback: DEFAULT_AUDIT_RETENTION_DAYS,
    summary: 'How many days the audit trail (and so the activity page) keeps each event.',
    details:
      'Older events are deleted at most once an hour, when an event is next recorded, and the ' +
      "person's activity page shows no further back.",
  },
  APPROVAL_WAIT_SECONDS: {
    kind: wholeNumber(0, 600, 'of seconds'),
    fallback: DEFAULT_APPROVAL_WAIT_SECONDS,
    summary:
      "How long a change's call waits for the person to decide on their device, when their " +
      'assistant cannot ask them itself; `0` answers with the approval link at once.',
    details:
      'Only for a person with a device that shows notifications. The default stays under the 60 s ' +
      'most hosts give a tool call. See [Notifications](#notifications).',
  },
  PUSH_SERVICES: {
    kind: hostList,
    fallback: undefined,
    unset: 'any public https push service',
    summary:
      'The push services a device may be reached through, comma-separated host names; ' +
      '`.example.com` allows every host under it.',
    details:
      'Chrome and Android use `fcm.googleapis.com`, Firefox `.push.services.mozilla.com`, ' +
      'Safari `.push.apple.com`, Edge `.notify.windows.com`. See [Notifications](#notifications).',
  },
  PUSH_CONTACT: {
    kind: pushContact,
    fallback: undefined,
    unset: '`PUBLIC_URL` (on http, `mailto:postmaster@` its host)',
    summary:
      "How a push service reaches the connector's operator (RFC 8292): a `mailto:` or an " +
      '`https://` URL.',
  },
  DEV_ALLOW_LOOPBACK_PUSH: {
    kind: flag,
    fallback: false,
    summary:
      '`1` lets a device name a push service on this machine, for tests; its certificate is ' +
      'trusted through `NODE_EXTRA_CA_CERTS`. **Development only.**',
  },
  DEV_ALLOW_LOOPBACK_CLIENT_METADATA: {
    kind: flag,
    fallback: false,
    summary:
      '`1` lets a local MCP client serve its client metadata document from a loopback https ' +
      'server. **Development only.**',
  },
})

/**
 * The provider the connector is a client of. Unset, all of them: the built-in sandbox. Set one,
 * and each one `required` (or that the profile needs: REQUIRED_BY_PROFILE) must be set, unless
 * the profile has a default for it (src/services/profiles).
 */
export const UPSTREAM_VARIABLES = declareVariables({
  UPSTREAM_AUTHORIZATION_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: "The provider's authorization endpoint.",
  },
  UPSTREAM_TOKEN_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: 'Its token endpoint (code exchange and refresh).',
  },
  UPSTREAM_REVOCATION_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: 'Its RFC 7009 revocation endpoint, used on every disconnect.',
  },
  UPSTREAM_USERINFO_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: 'Answers `{"sub": ...}`: the person\'s identity.',
  },
  UPSTREAM_CLIENT_ID: {
    kind: text('a client id'),
    fallback: undefined,
    required: true,
    summary: "The connector's client id at the provider.",
  },
  UPSTREAM_CLIENT_SECRET: {
    kind: text('a client secret'),
    fallback: undefined,
    unset: 'none: a public client (PKCE only)',
    required: false,
    secret: true,
    summary: 'Its client secret, sent with HTTP Basic.',
  },
  UPSTREAM_NAME: {
    kind: text('a name'),
    fallback: undefined,
    unset: "the authorization URL's host",
    required: false,
    summary: 'What the person knows the provider as, shown on `/connections` ("Sign in with …").',
  },
  UPSTREAM_SCOPE_PREFIX: {
    kind: text('a prefix'),
    fallback: undefined,
    unset: 'empty',
    required: false,
    summary: 'Full scope = prefix + short name, e.g. `tasks.readonly`.',
  },
  UPSTREAM_TASKS_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: "The tasks API's base URL. A trailing `/` is dropped.",
  },
  UPSTREAM_SEARCH_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: "The search API's base URL. A trailing `/` is dropped.",
  },
  UPSTREAM_ANALYTICS_URL: {
    kind: httpUrl,
    fallback: undefined,
    required: true,
    summary: "The analytics API's base URL. A trailing `/` is dropped.",
  },
  UPSTREAM_ANALYTICS_ADMIN_URL: {
    kind: httpUrl,
    fallback: undefined,
    // The sandbox serves both analytics APIs on one base.
    unset: '`UPSTREAM_ANALYTICS_URL`',
    required: false,
    summary:
      "Where the person's analytics accounts and properties are listed (`/accountSummaries`).",
  },
})

export type UpstreamVariableName = keyof typeof UPSTREAM_VARIABLES

/** What a profile needs beyond the required: Google's token endpoint wants the client's secret. */
export const REQUIRED_BY_PROFILE: Readonly<Record<ProfileName, readonly UpstreamVariableName[]>> = {
  generic: [],
  google: ['UPSTREAM_CLIENT_SECRET'],
}

/**
 * Where the connector finds a sandbox it did not start (SANDBOX=0, or `npm run connector`). The
 * sandbox reads the same variables (its cli/env.ts, whose words the docs show): the two agree by
 * configuration, not by shared code, and test/docs/configuration.test.ts holds their defaults
 * equal.
 */
export const SANDBOX_LOCATION_VARIABLES = declareVariables({
  SANDBOX_PORT: {
    kind: port,
    fallback: 8081,
    summary: "The sandbox's port.",
  },
  SANDBOX_GOOGLE_PORT: {
    kind: port,
    fallback: 8082,
    summary: "The port of the sandbox's Google dialect.",
  },
  SANDBOX_PUBLIC_URL: {
    kind: sandboxOrigin,
    fallback: undefined,
    unset: '`http://127.0.0.1:SANDBOX_PORT`',
    summary: "The sandbox's external origin.",
  },
  SANDBOX_GOOGLE_PUBLIC_URL: {
    kind: sandboxOrigin,
    fallback: undefined,
    unset: '`http://127.0.0.1:SANDBOX_GOOGLE_PORT`',
    summary: "The external origin of the sandbox's Google dialect.",
  },
  SANDBOX_SCOPE_PREFIX: {
    kind: text('a prefix'),
    fallback: 'https://sandbox.countersign.test/auth/',
    summary: "The sandbox's scope prefix: full scope = prefix + short name.",
  },
})
