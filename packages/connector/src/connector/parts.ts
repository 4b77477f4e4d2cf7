import { EventEmitter } from 'node:events'
import type { Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import type { AccountParts } from '../account/account-parts.js'
import { PersonSessions } from '../account/sessions.js'
import { AuditTrail } from '../approval/audit.js'
import { Approvals } from '../approval/gate.js'
import type { ApprovalPagesParts } from '../approval/pages-parts.js'
import { AccessTokens } from '../auth/access-tokens.js'
import { GrantChoices } from '../auth/choices.js'
import { ClientDirectory } from '../auth/clients.js'
import { CoverageSeal } from '../auth/coverage.js'
import { Grants } from '../auth/grants.js'
import type { InteractionParts } from '../auth/interaction-parts.js'
import { formTokensOf, type FormPurposes } from '../auth/keys.js'
import { Offers } from '../auth/offer.js'
import { createAuthorizationServer } from '../auth/provider.js'
import {
  DEFAULT_QUOTAS,
  DEFAULT_RATE_LIMITS,
  providerNameOf,
  type ConnectorConfig,
  type RateLimitName,
} from '../config/config.js'
import { McpAuthenticator } from '../mcp/bearer.js'
import type { McpEvents } from '../mcp/events.js'
import type { McpParts } from '../mcp/mcp-parts.js'
import {
  countApprovals,
  countFairShares,
  countTokens,
  countToolCalls,
  countUpstreamCalls,
  countUpstreamRefreshes,
} from '../metrics/listen.js'
import type { Metrics } from '../metrics/metrics.js'
import { PushDevices } from '../push/devices.js'
import { PushNotifier } from '../push/notifier.js'
import { PushSender, type VapidKeys } from '../push/sender.js'
import type { PushPolicy } from '../push/subscriptions.js'
import { FairShares } from '../quotas/fair-shares.js'
import { QuotaUse } from '../quotas/quota-use.js'
import { PROFILES, type ProviderProfile } from '../services/profiles/index.js'
import type { StoreAwayReport } from '../store/away-report.js'
import type { Store } from '../store/open.js'
import type { RateLimiter } from '../store/rate-limits.js'
import { Upstream, UpstreamApi, type BreakerOptions } from '../upstream/index.js'
import type { Vault } from '../vault/vault.js'

/**
 * The parts of a running connector: one context, made once at start (`assemble`) and passed whole
 * to each group of routes, which declares the fields it reads (AccountParts, InteractionParts,
 * ApprovalPagesParts, McpParts) in its own folder. The CLI's admin commands and the tests reach
 * the same parts.
 */
export interface ConnectorParts
  extends AccountParts, InteractionParts, ApprovalPagesParts, McpParts {
  config: ConnectorConfig
  store: Store
  vault: Vault
  provider: Provider
  grants: Grants
  /** What each grant covers of the person's lists, sites or properties, sealed. */
  coverage: CoverageSeal
  /** The credentials of authorizations whose coverage is being chosen. */
  choices: GrantChoices
  /** The person's lists, sites or properties, read live for a choice. */
  offers: Offers
  upstream: Upstream
  /** The provider's APIs, called by the tools. */
  api: UpstreamApi
  /** What the configured provider is, and how its APIs are addressed (services/profiles). */
  profile: ProviderProfile
  /** For "Sign in with ..." on the person's pages. */
  providerName: string
  /** Fair shares of the provider project's daily quotas (src/quotas). */
  shares: FairShares
  /** The rate limits of the configuration, counted by the store. */
  limits: ConnectorLimits
  authenticator: McpAuthenticator
  /** The approval gate of mutating calls, and the audit trail it and the tools record to. */
  approvals: Approvals
  audit: AuditTrail
  /** The person's sessions on the connector's own pages. */
  sessions: PersonSessions
  /** The CSRF tokens of each of the connector's forms. */
  forms: FormPurposes
  /** The assistants (OAuth clients) as the person's pages name them. */
  clients: ClientDirectory
  /** What the parts count, served at `/metrics` on its own port (src/metrics). */
  metrics: Metrics
  /** Where the MCP layer tells of its tools and their calls, for the metrics (mcp/events.ts). */
  toolEvents: EventEmitter<McpEvents>
  /** The database away: each 503 and lost connection told, and said now and then. */
  storeAway: StoreAwayReport
  /** The person's devices that show notifications, and what tells them of a change (src/push). */
  push: ConnectorPush
  log: Logger
}

export interface ConnectorPush {
  devices: PushDevices
  sender: PushSender
  notifier: PushNotifier
  /** The VAPID public key every replica signs with, which subscriptions are made for. */
  publicKey: string
  policy: PushPolicy
}

export interface ConnectorLimits {
  registration: RateLimiter
  token: RateLimiter
  toolCall: RateLimiter
}

export interface ConnectorOptions {
  log?: Logger
  /** The fetch of the client of the provider's authorization server (tests). */
  fetch?: typeof fetch
  /** The whole of one upstream API call, retries included (tests; 10 s otherwise). */
  apiDeadlineMs?: number
  /** The provider breaker's pause and window (tests; 5 s each otherwise). */
  breaker?: BreakerOptions
  /** How long closing waits for the requests in flight (tests; DRAIN_DEADLINE_MS otherwise). */
  drainDeadlineMs?: number
  /** How long a question asked in a 2025-11-25 client waits (tests; ANSWER_WAIT_MS otherwise). */
  answerWaitMs?: number
}

/** What `assemble` is given: what start-up opened, and the options of tests. */
export interface Opened {
  config: ConnectorConfig
  store: Store
  vault: Vault
  log: Logger
  options: ConnectorOptions
  metrics: Metrics
  storeAway: StoreAwayReport
  vapid: VapidKeys
}

/** Every part, made once, each counted by the metrics where it tells of what it does. */
export function assemble(opened: Opened): ConnectorParts {
  const { config, store, vault, log, options, metrics, storeAway, vapid } = opened
  const profile = PROFILES[config.upstream.profile]
  const upstream = new Upstream({
    config: config.upstream,
    publicUrl: config.publicUrl,
    store,
    vault,
    log,
    fetch: options.fetch,
  })
  countUpstreamRefreshes(metrics, upstream)
  const grants = new Grants(store, upstream, log.child({ component: 'grants' }))
  const provider = createAuthorizationServer({
    config,
    store,
    vault,
    grants,
    log: log.child({ component: 'authorization-server' }),
    storeAway,
  })
  countTokens(metrics, provider)
  const coverage = new CoverageSeal(vault)
  const authenticator = new McpAuthenticator({
    publicUrl: config.publicUrl,
    tokens: new AccessTokens(store),
    grants,
    upstream,
    coverage,
  })
  const shares = new FairShares({
    limits: { ...DEFAULT_QUOTAS, ...config.quotas },
    use: new QuotaUse(store),
    peopleHolding: (service, since) => grants.peopleHolding(service, since),
    keySecret: vault.deriveKey('quota people'),
    log: log.child({ component: 'quotas' }),
  })
  countFairShares(metrics, shares)
  const api = new UpstreamApi({
    apiBase: config.upstream.apiBase,
    systemQuery: profile.systemQuery,
    consoleHosts: profile.consoleHosts,
    log,
    deadlineMs: options.apiDeadlineMs,
    breaker: options.breaker,
    // What the provider counts against the project's quotas, counted against the person's share.
    onSent(call, grant, requests) {
      if (call.quota && grant.person) shares.spend(call.quota, grant.person, requests)
    },
  })
  countUpstreamCalls(metrics, api)
  const choices = new GrantChoices(store, grants, log.child({ component: 'choices' }))
  const offers = new Offers({
    api,
    profile,
    tokens: upstream,
    log: log.child({ component: 'offers' }),
  })
  const audit = new AuditTrail(store, Date.now, config.auditRetentionDays)
  const approvals = new Approvals({
    store,
    vault,
    publicUrl: config.publicUrl,
    log: log.child({ component: 'approvals' }),
    audit,
    decisions: store.channel(DECISIONS_CHANNEL),
  })
  countApprovals(metrics, approvals)
  const toolEvents = new EventEmitter<McpEvents>()
  countToolCalls(metrics, toolEvents)
  const push = pushParts(config, store, vault, vapid, log)
  return {
    config,
    store,
    vault,
    provider,
    grants,
    coverage,
    choices,
    offers,
    upstream,
    api,
    profile,
    providerName: providerNameOf(config.upstream),
    shares,
    limits: rateLimiters(config, store, vault, log, metrics),
    authenticator,
    approvals,
    audit,
    sessions: new PersonSessions(store, config.publicUrl),
    forms: formTokensOf(vault),
    clients: new ClientDirectory(provider, log.child({ component: 'clients' })),
    metrics,
    toolEvents,
    storeAway,
    push,
    log,
  }
}

/** Where each decision is said to the replicas (gate.ts, `awaitDecision`). */
const DECISIONS_CHANNEL = 'countersign_decisions'

function pushParts(
  config: ConnectorConfig,
  store: Store,
  vault: Vault,
  vapid: VapidKeys,
  log: Logger,
): ConnectorPush {
  const policy: PushPolicy = {
    services: config.push?.services,
    allowLoopback: config.push?.allowLoopback === true,
  }
  const devices = new PushDevices(store, vault)
  const sender = new PushSender({
    ...policy,
    vapid,
    contact: config.push?.contact ?? contactOf(config.publicUrl),
    ...(policy.allowLoopback && config.extraCa && { extraCa: config.extraCa }),
  })
  const notifier = new PushNotifier(devices, sender, log.child({ component: 'push' }))
  return { devices, sender, notifier, publicKey: vapid.publicKey, policy }
}

/** RFC 8292 asks an https URL or a mailto:; an http public URL (on a laptop) gives its host's. */
const contactOf = (publicUrl: string) =>
  publicUrl.startsWith('https:') ? publicUrl : `mailto:postmaster@${new URL(publicUrl).hostname}`

/**
 * The rate limits of the configuration, counted by the store: shared by the replicas on
 * PostgreSQL, under keys digested with a secret derived from the vault key (the same on every
 * replica); in memory on SQLite.
 */
function rateLimiters(
  config: ConnectorConfig,
  store: Store,
  vault: Vault,
  log: Logger,
  metrics: Metrics,
): ConnectorLimits {
  const setting = (name: keyof typeof DEFAULT_RATE_LIMITS) =>
    config.rateLimits?.[name] ?? DEFAULT_RATE_LIMITS[name]
  const keySecret = vault.deriveKey('rate limit keys')
  const limitLog = log.child({ component: 'rate-limits' })
  const perMinute = (name: RateLimitName, points: number, leased = false) =>
    store.rateLimiter({
      name,
      points,
      durationSeconds: 60,
      keySecret,
      leased,
      onRefused: () => metrics.rateLimited(name),
      onStoreError: (error) =>
        limitLog.warn(
          { err: error, limit: name },
          'rate limit counted in memory: the store failed',
        ),
    })
  return {
    registration: perMinute('registration', setting('registrationsPerMinute')),
    token: perMinute('token', setting('tokenRequestsPerMinute')),
    // On every tool call: points taken from the shared table in blocks.
    toolCall: perMinute('tool_call', setting('toolCallsPerMinute'), true),
  }
}
