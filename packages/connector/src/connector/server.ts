import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EarlyAnswerResponse, listenError } from '@countersign/environment'
import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import type { Provider } from 'oidc-provider'
import type { Logger } from 'pino'
import { accountRoutes } from '../account/routes.js'
import { AuditTrail } from '../approval/audit.js'
import { Approvals } from '../approval/gate.js'
import { approvalRoutes } from '../approval/routes.js'
import { appManifestRoutes } from '../pages/app-manifest.js'
import { homePage } from '../pages/home-page.js'
import { storeAwayPage } from '../pages/problem-page.js'
import {
  isStoreUnreachable,
  storeAwayError,
  STORE_RETRY_AFTER_SECONDS,
} from '../store/unreachable.js'
import { AccessTokens } from '../auth/access-tokens.js'
import { ClientDirectory } from '../auth/clients.js'
import { GrantChoices } from '../auth/choices.js'
import { CoverageSeal } from '../auth/coverage.js'
import { Grants } from '../auth/grants.js'
import { Offers } from '../auth/offer.js'
import { interactionRoutes } from '../auth/interaction.js'
import { refuseOversizedBody } from '../auth/oauth-bodies.js'
import { FormTokens } from '../auth/keys.js'
import { AS_METADATA_PATH, createAuthorizationServer, DISCOVERY_PATH } from '../auth/provider.js'
import { OAuthRateLimits } from '../auth/rate-limits.js'
import { ANSWERS_CHANNEL } from '../mcp/legacy-questions.js'
import { McpAuthenticator } from '../mcp/bearer.js'
import { AnswerBox } from '../mcp/answer-box.js'
import { mcpRoutes } from '../mcp/endpoint.js'
import type { McpEvents } from '../mcp/events.js'
import { isPostgresUrl } from '../store/engine.js'
import { FairShares } from '../quotas/fair-shares.js'
import { QuotaUse } from '../quotas/quota-use.js'
import { PROFILES } from '../services/profiles/index.js'
import { openStore, type Store } from '../store/open.js'
import { Upstream, UpstreamApi, type BreakerOptions } from '../upstream/index.js'
import { Vault } from '../vault/vault.js'
import { PushDevices } from '../push/devices.js'
import { PushNotifier } from '../push/notifier.js'
import { pushKeys } from '../push/push-keys.js'
import { PushSender, type VapidKeys } from '../push/sender.js'
import type { PushPolicy } from '../push/subscriptions.js'
import { pushScriptRoutes } from '../pages/push-scripts.js'
import {
  DEFAULT_APPROVAL_WAIT_SECONDS,
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_QUOTAS,
  DEFAULT_RATE_LIMITS,
  providerNameOf,
  type ConnectorConfig,
  type RateLimitName,
} from '../config/config.js'
import { localOrigin } from '../config/loopback.js'
import { closeNow, stopAccepting } from '../http/closing.js'
import { bearerCorsOnNode } from '../http/cors.js'
import {
  countApprovals,
  countFairShares,
  countStoreAway,
  countTokens,
  countToolCalls,
  countUpstreamCalls,
  countUpstreamRefreshes,
} from '../metrics/listen.js'
import { Metrics } from '../metrics/metrics.js'
import { serveMetrics, type MetricsServer } from '../metrics/serve.js'
import { StoreAwayReport } from '../store/away-report.js'
import { misaddressedAnswers } from './addressed.js'
import { frontDoors } from './front-doors.js'
import { InFlight } from './in-flight.js'
import { createLogger } from './logger.js'

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

/**
 * How long a stopping connector waits for the calls in flight (docs/operations.md, "Stopping a
 * replica"): as long as one upstream call may take, retries included, so a call that started is let
 * finish.
 */
export const DRAIN_DEADLINE_MS = 10_000

/** The parts of a running connector, for the CLI's admin commands and for tests. */
export interface ConnectorParts {
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
  /** Fair shares of the provider project's daily quotas (src/quotas). */
  shares: FairShares
  authenticator: McpAuthenticator
  /** The approval gate of mutating calls, and the audit trail it and the tools record to. */
  approvals: Approvals
  audit: AuditTrail
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

export interface RunningConnector {
  /** The connector's public URL (its issuer). */
  url: string
  /** Where it listens, which differs from `url` behind a proxy. */
  localUrl: string
  /** Where `/metrics` is served (its own port); undefined when it is not (METRICS_PORT=0). */
  metricsUrl?: string
  parts: ConnectorParts
  /**
   * Stops accepting connections, finishes the requests in flight (up to the drain deadline; what
   * is left then is cut off), and closes the upstream pools and the store. Pending approvals are
   * in the store: another replica serves them.
   */
  close(): Promise<void>
}

/** Headers every answer carries: nothing the connector serves is meant to be framed or sniffed. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
}

/**
 * Opens the store and the vault, builds the authorization server and the HTTP app, and serves
 * both from one Node server: each request goes to the answerer of its front door
 * (front-doors.ts), oidc-provider or the connector's Hono app. Resolves once `/healthz` answers 200.
 */
export async function startConnector(
  config: ConnectorConfig,
  options: ConnectorOptions = {},
): Promise<RunningConnector> {
  const log = options.log ?? createLogger()
  if (config.databaseUrl && isPostgresUrl(config.databaseUrl) && !config.vaultKey?.trim()) {
    throw new Error(
      'VAULT_KEY must be set when DATABASE_URL selects PostgreSQL: every replica needs the same key, ' +
        'and a key file in DATA_DIR would differ on each. Generate one with `openssl rand -base64 32`.',
    )
  }
  const { vault, warning } = Vault.fromEnvironment({
    vaultKey: config.vaultKey,
    dataDir: config.dataDir,
  })
  if (warning) log.warn(warning)

  // Listen first: with port 0 the public URL (the issuer) is known only once a port is taken.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = notReady
  const inFlight = new InFlight()
  // An answer sent while its request's body is still arriving says `Connection: close`.
  const server = createServer({ ServerResponse: EarlyAnswerResponse }, (req, res) => {
    inFlight.track(res)
    handle(req, res)
  })
  await listen(server, config.port, config.host)
  const localUrl = urlOf(server, config.host)
  const publicUrl = config.publicUrl || localUrl
  const settled: ConnectorConfig = { ...config, publicUrl }

  const metrics = new Metrics({
    processMetrics: config.metrics !== undefined,
    toolSteps: config.metrics?.toolSteps,
  })
  let metricsServer: MetricsServer | undefined
  let store: Store | undefined
  const storeAway = new StoreAwayReport(log.child({ component: 'store' }))
  countStoreAway(metrics, storeAway)
  try {
    if (config.metrics) metricsServer = await serveMetrics(metrics, config.metrics, log)
    store = await openStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onConnectionError: (error) => storeAway.connectionLost(error),
      onStatement: () => metrics.storeStatement(),
      onWaiting: startWaitLog(log),
    })
    // Every replica signs with the one key pair, made by the first that starts.
    const vapid = await pushKeys(store, vault, { log: log.child({ component: 'push' }) })
    const parts = assemble(settled, store, vault, log, options, metrics, storeAway, vapid)
    handle = dispatcher(parts, inFlight, options)
    log.info(
      { url: publicUrl, engine: store.engine, metrics: metricsServer?.url },
      'connector ready',
    )
    const deadlineMs = options.drainDeadlineMs ?? DRAIN_DEADLINE_MS
    let closing: Promise<void> | undefined
    const close = async () => {
      const stopped = stopAccepting(server)
      // Calls waiting for a person answer with the link now: the change waits in the store.
      parts.approvals.stopWaiting()
      const cutOff = await inFlight.stop(deadlineMs)
      if (cutOff > 0)
        log.warn({ requests: cutOff }, 'requests still in flight at the drain deadline: cut off')
      server.closeAllConnections()
      await stopped
      // Last of the servers: a scrape still sees the calls drain.
      await metricsServer?.close()
      await parts.api.close()
      await parts.shares.close()
      await parts.push.sender.close()
      await parts.audit.flush()
      await store?.close()
    }
    return {
      url: publicUrl,
      localUrl,
      metricsUrl: metricsServer?.url,
      parts,
      close: () => (closing ??= close()),
    }
  } catch (error) {
    await closeNow(server)
    await metricsServer?.close()
    await store?.close()
    throw error
  }
}

function assemble(
  config: ConnectorConfig,
  store: Store,
  vault: Vault,
  log: Logger,
  options: ConnectorOptions,
  metrics: Metrics,
  storeAway: StoreAwayReport,
  vapid: VapidKeys,
): ConnectorParts {
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
    systemQuery: PROFILES[config.upstream.profile].systemQuery,
    consoleHosts: PROFILES[config.upstream.profile].consoleHosts,
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
    profile: PROFILES[config.upstream.profile],
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
    shares,
    authenticator,
    approvals,
    audit,
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

function dispatcher(parts: ConnectorParts, inFlight: InFlight, options: ConnectorOptions) {
  const { config, provider, log } = parts
  const limits = rateLimiters(parts)
  const app = new Hono()
  // Liveness: the process serves (a stopping replica says so, and is sent nothing new).
  app.get('/healthz', (c) =>
    inFlight.stopping ? c.json({ status: 'stopping' }, 503) : c.json({ status: 'ok' }),
  )
  // Readiness: it can serve requests now, its database answering (docs/operations.md, "Health
  // checks"). A replica whose database is away stays alive, and is sent nothing until it is back.
  app.get('/readyz', async (c) => {
    if (inFlight.stopping) return c.json({ status: 'stopping' }, 503)
    const reachable = await parts.store.reachable()
    parts.metrics.storeReachable(reachable)
    return reachable
      ? c.json({ status: 'ready' })
      : c.json({ status: 'database unreachable' }, 503, { 'Retry-After': '1' })
  })
  const providerName = providerNameOf(config.upstream)
  app.get('/', (c) => homePage(c, { publicUrl: config.publicUrl, providerName }))
  app.route('/', appManifestRoutes())
  app.route('/', pushScriptRoutes())
  const account = accountRoutes({
    publicUrl: config.publicUrl,
    store: parts.store,
    provider,
    grants: parts.grants,
    coverage: parts.coverage,
    offers: parts.offers,
    upstream: parts.upstream,
    formTokens: new FormTokens(parts.vault, 'connections'),
    providerName,
    log: log.child({ component: 'connections' }),
    push: parts.push,
  })
  app.route(
    '/',
    interactionRoutes({
      publicUrl: config.publicUrl,
      provider,
      upstream: parts.upstream,
      grants: parts.grants,
      choices: parts.choices,
      offers: parts.offers,
      coverage: parts.coverage,
      formTokens: new FormTokens(parts.vault, 'consent'),
      log: log.child({ component: 'consent' }),
      onSignIn: account.onSignIn,
    }),
  )
  app.route('/', account.routes)
  app.route(
    '/',
    approvalRoutes({
      approvals: parts.approvals,
      audit: parts.audit,
      retentionDays: config.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
      publicUrl: config.publicUrl,
      clients: new ClientDirectory(provider, log.child({ component: 'approvals' })),
      grants: parts.grants,
      sessions: account.sessions,
      signInFor: account.signInFor,
      formTokens: new FormTokens(parts.vault, 'approval'),
      providerName,
      log: log.child({ component: 'approvals' }),
      notificationsOffer: account.notificationsOffer,
    }),
  )
  app.route(
    '/',
    mcpRoutes({
      publicUrl: config.publicUrl,
      authenticator: parts.authenticator,
      api: parts.api,
      profile: PROFILES[config.upstream.profile],
      approvals: parts.approvals,
      audit: parts.audit,
      vault: parts.vault,
      answers: parts.store.channel(ANSWERS_CHANNEL),
      answerWaitMs: options.answerWaitMs,
      // Replicas on one database: an answer for another waits in the store.
      ...(parts.store.engine === 'postgres' && {
        answerBox: new AnswerBox(parts.store, parts.vault),
      }),
      reach: {
        tell: (account, change) => parts.push.notifier.tell(account, change),
        waitMs: 1000 * (config.approvalWaitSeconds ?? DEFAULT_APPROVAL_WAIT_SECONDS),
      },
      toolCallLimit: limits.toolCall,
      shares: parts.shares,
      events: parts.toolEvents,
      stepCosts: parts.metrics.stepCosts,
      storeAway: parts.storeAway,
      log: log.child({ component: 'mcp' }),
    }),
  )
  app.notFound((c) => c.json({ error: 'not_found', error_description: 'No such endpoint.' }, 404))
  app.onError((error, c) => {
    if (isStoreUnreachable(error)) {
      // The database away for a moment: the person's pages say so as a page of their own, an
      // endpoint as an OAuth error; either way, nothing was done.
      const page = (c.req.header('accept') ?? '').includes('text/html')
      parts.storeAway.request(page ? 'page' : 'oauth', error)
      if (page) return storeAwayPage(c)
      c.header('Retry-After', String(STORE_RETRY_AFTER_SECONDS))
      return c.json(storeAwayError(), 503)
    }
    log.error({ err: error, path: c.req.path }, 'request failed')
    return c.json({ error: 'server_error', error_description: 'Something went wrong.' }, 500)
  })

  const honoListener = getRequestListener(app.fetch)
  const oidcListener = provider.callback()
  const rateLimits = new OAuthRateLimits(limits)
  const publicUrl = new URL(config.publicUrl)
  const doorOf = frontDoors()
  const misaddressed = misaddressedAnswers(publicUrl)
  const requestLog = log.child({ component: 'http' })

  // Read once: a request pays for its log line only when the level shows it.
  const logRequests = requestLog.isLevelEnabled('debug')

  return (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req.url)
    if (logRequests) {
      const started = performance.now()
      res.on('finish', () => {
        // The path only: query strings carry codes and states.
        requestLog.debug(
          {
            method: req.method,
            path: loggedPath(path),
            status: res.statusCode,
            ms: Math.round(performance.now() - started),
          },
          'request',
        )
      })
    }
    for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value)
    const door = doorOf(path)
    if (misaddressed(req, res, door)) return

    if (door?.answeredBy === 'authorization server') {
      if (door.cors === 'any origin' && bearerCorsOnNode(req, res)) return
      // RFC 8414 metadata is the same document as oidc-provider's discovery.
      if (path === AS_METADATA_PATH) req.url = DISCOVERY_PATH + (req.url ?? '').slice(path.length)
      // oidc-provider builds its URLs from the request: make it see the public origin, whatever
      // the Host header or a proxy says (and the socket address, not a forwarded one).
      req.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1)
      req.headers['x-forwarded-host'] = publicUrl.host
      delete req.headers['x-forwarded-for']
      rateLimits
        .refuse(req, res, path)
        .then(async (refused) => refused || (await refuseOversizedBody(req, res)))
        .then((refused) => refused || oidcListener(req, res))
        .catch((error: unknown) => {
          log.error({ err: error }, 'rate limiter or body reader failed')
          if (!res.headersSent) res.writeHead(500).end()
        })
      return
    }
    void honoListener(req, res)
  }
}

/**
 * The rate limits of the configuration, counted by the store: shared by the replicas on
 * PostgreSQL, under keys digested with a secret derived from the vault key (the same on every
 * replica); in memory on SQLite.
 */
function rateLimiters({ config, store, vault, log, metrics }: ConnectorParts) {
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

/** While the database is away at start: said at once, then every 10 s, with how long so far. */
function startWaitLog(log: Logger): (waitedMs: number, error: unknown) => void {
  let lastSaid = Number.NEGATIVE_INFINITY
  return (waitedMs, error) => {
    if (waitedMs - lastSaid < 10_000) return
    lastSaid = waitedMs
    log.warn(
      { err: error, waitedSeconds: Math.round(waitedMs / 1000) },
      'the database cannot be reached: waiting for it before serving',
    )
  }
}

function notReady(_req: IncomingMessage, res: ServerResponse) {
  res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' })
  res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'Starting up.' }))
}

const pathOf = (url: string | undefined) => {
  const raw = url ?? '/'
  const end = raw.indexOf('?')
  return end === -1 ? raw : raw.slice(0, end)
}

/** A path as the request log shows it: an approval's id is the key to its page, so it is not. */
const loggedPath = (path: string) => path.replace(/^\/approvals\/[^/]+/, '/approvals/{id}')

/** Listens, or fails with one line that names the variable to change (PORT, HOST). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(listenError(error, { portVariable: 'PORT', hostVariable: 'HOST', port, host })),
    )
    server.listen(port, host, () => {
      server.removeAllListeners('error')
      resolve()
    })
  })
}

const urlOf = (server: Server, host: string) =>
  localOrigin(host, (server.address() as AddressInfo).port)
