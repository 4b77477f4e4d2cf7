import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { listenError } from '@countersign/environment'
import type { Logger } from 'pino'
import type { MetricsConfig } from '../config/config.js'
import { hostnameOfHeader, isLoopbackHostname, localOrigin } from '../config/loopback.js'
import { closeNow } from '../http/closing.js'
import type { Metrics } from './metrics.js'

/**
 * `GET /metrics` in the Prometheus text format, on a server of its own (docs/operations.md,
 * "Metrics"): its own port and address (loopback unless told otherwise), never the public port.
 * With a token configured, a scrape must send `Authorization: Bearer <token>` (compared in constant
 * time), else 401. Anything but `/metrics` is 404. Bound to loopback, it answers only requests that
 * name a loopback host (DNS rebinding: a web page must not read it through a name of its own).
 */

export const METRICS_PATH = '/metrics'

export interface MetricsServer {
  /** `http://host:port/metrics`, with the port it took. */
  url: string
  close(): Promise<void>
}

/**
 * Serves the metrics; undefined when the default port is held by another process (a second
 * connector on the machine, `config.optional`), which is logged: that connector serves none.
 */
export async function serveMetrics(
  metrics: Metrics,
  config: MetricsConfig,
  log: Logger,
): Promise<MetricsServer | undefined> {
  const authorized = config.token === undefined ? () => true : bearerCheck(config.token)
  const checks: Checks = { authorized, loopbackOnly: isLoopbackHostname(config.host) }
  const server = createServer((req, res) => {
    answer(metrics, checks, req, res).catch((error: unknown) => {
      log.error({ err: error }, 'metrics scrape failed')
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' })
      res.end('The metrics could not be collected.\n')
    })
  })
  try {
    await listen(server, config)
  } catch (error) {
    const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
    if (!(config.optional && taken)) {
      throw listenError(error as NodeJS.ErrnoException, {
        portVariable: 'METRICS_PORT',
        hostVariable: 'METRICS_HOST',
        port: config.port,
        host: config.host,
        otherwise: 'or to 0 to turn metrics off',
      })
    }
    log.warn(
      `METRICS_PORT ${config.port} is already in use on ${config.host}: this connector serves no metrics; set METRICS_PORT to a free port for them.`,
    )
    return undefined
  }
  const { port } = server.address() as AddressInfo
  const url = localOrigin(config.host, port) + METRICS_PATH
  if (!checks.loopbackOnly && config.token === undefined)
    log.warn(
      { metricsUrl: url },
      'METRICS_HOST is not a loopback address and METRICS_TOKEN is not set: anyone who can reach it can read /metrics',
    )
  return { url, close: () => closeNow(server) }
}

interface Checks {
  authorized: (header: string | undefined) => boolean
  /** Listening on loopback: the Host header must name a loopback host. */
  loopbackOnly: boolean
}

async function answer(metrics: Metrics, checks: Checks, req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }
  if (checks.loopbackOnly && !namesLoopback(req.headers.host))
    return plain(res, 403, headers, 'The Host header does not name this server.')
  if (path !== METRICS_PATH)
    return plain(res, 404, headers, 'Not found: the metrics are at /metrics.')
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return plain(res, 405, { ...headers, Allow: 'GET, HEAD' }, 'Use GET.')
  }
  if (!checks.authorized(req.headers.authorization)) {
    return plain(
      res,
      401,
      { ...headers, 'WWW-Authenticate': 'Bearer realm="metrics"' },
      'The metrics need "Authorization: Bearer <METRICS_TOKEN>".',
    )
  }
  const { contentType, text } = await metrics.scrape()
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
  })
  res.end(req.method === 'HEAD' ? undefined : text)
}

function plain(res: ServerResponse, status: number, headers: Record<string, string>, text: string) {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' })
  res.end(`${text}\n`)
}

/**
 * Whether an Authorization header carries the token. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the content of what was sent.
 */
function bearerCheck(token: string): (header: string | undefined) => boolean {
  const expected = sha256(token)
  return (header) => {
    const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header)
    return match !== null && timingSafeEqual(sha256(match[1]!), expected)
  }
}

const namesLoopback = (host: string | undefined) => {
  const hostname = hostnameOfHeader(host)
  return hostname !== undefined && isLoopbackHostname(hostname)
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

function listen(server: Server, { port, host }: MetricsConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
}
