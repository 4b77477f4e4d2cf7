import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EarlyAnswerResponse, listenError } from '@countersign/environment'
import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import type { Logger } from 'pino'
import { accountRoutes } from '../account/routes.js'
import { approvalRoutes } from '../approval/routes.js'
import { appManifestRoutes } from '../pages/app-manifest.js'
import { homePage } from '../pages/home-page.js'
import { storeAwayPage } from '../pages/problem-page.js'
import {
  isStoreUnreachable,
  storeAwayError,
  STORE_RETRY_AFTER_SECONDS,
} from '../store/unreachable.js'
import { interactionRoutes } from '../auth/interaction.js'
import { refuseOversizedBody } from '../auth/oauth-bodies.js'
import { AS_METADATA_PATH, DISCOVERY_PATH } from '../auth/provider.js'
import { OAuthRateLimits } from '../auth/rate-limits.js'
import { mcpRoutes } from '../mcp/endpoint.js'
import { isPostgresUrl } from '../store/engine.js'
import { openStore, type Store } from '../store/open.js'
import { Vault } from '../vault/vault.js'
import { pushKeys } from '../push/push-keys.js'
import { pushScriptRoutes } from '../pages/push-scripts.js'
import type { ConnectorConfig } from '../config/config.js'
import { localOrigin } from '../config/loopback.js'
import { closeNow, stopAccepting } from '../http/closing.js'
import { bearerCorsOnNode } from '../http/cors.js'
import { countStoreAway } from '../metrics/listen.js'
import { Metrics } from '../metrics/metrics.js'
import { serveMetrics, type MetricsServer } from '../metrics/serve.js'
import { StoreAwayReport } from '../store/away-report.js'
import { misaddressedAnswers } from './addressed.js'
import { frontDoors } from './front-doors.js'
import { InFlight } from './in-flight.js'
import { createLogger } from './logger.js'
import { assemble, type ConnectorOptions, type ConnectorParts } from './parts.js'

export type { ConnectorOptions, ConnectorParts } from './parts.js'

/**
 * How long a stopping connector waits for the calls in flight (docs/operations.md, "Stopping a
 * replica"): as long as one upstream call may take, retries included, so a call that started is let
 * finish.
 */
export const DRAIN_DEADLINE_MS = 10_000

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
    const parts = assemble({
      config: settled,
      store,
      vault,
      log,
      options,
      metrics,
      storeAway,
      vapid,
    })
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

function dispatcher(parts: ConnectorParts, inFlight: InFlight, options: ConnectorOptions) {
  const { config, provider, log } = parts
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
  app.get('/', (c) =>
    homePage(c, { publicUrl: config.publicUrl, providerName: parts.providerName }),
  )
  app.route('/', appManifestRoutes())
  app.route('/', pushScriptRoutes())
  // Each group of routes takes the parts whole, and reads the fields it declares.
  const account = accountRoutes(parts)
  app.route('/', interactionRoutes(parts, account.onSignIn))
  app.route('/', account.routes)
  app.route('/', approvalRoutes(parts))
  app.route('/', mcpRoutes(parts, { answerWaitMs: options.answerWaitMs }))
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
  const rateLimits = new OAuthRateLimits(parts.limits)
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
