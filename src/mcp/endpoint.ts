import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server'
import { Hono } from 'hono'
import type { Logger } from 'pino'
import { isLoopbackHostname } from '../connector/loopback.js'
import { SERVICE_NAMES, SERVICES, type ServiceName } from '../services/catalog.js'
import type { McpAuthenticator } from './bearer.js'
import { resourceMetadata, resourceMetadataPath } from './resource-metadata.js'

/**
 * The MCP endpoints, `/{service}/mcp`, and their protected resource metadata. Each request is
 * checked in this order: Host and Origin (DNS rebinding), the bearer token, then the MCP layer.
 * Serving is stateless: no request depends on reaching the replica that served an earlier one.
 *
 * Tools come later; today each endpoint answers `initialize` (2025-11-25 clients) and `ping`.
 */

export interface McpEndpointDeps {
  publicUrl: string
  authenticator: McpAuthenticator
  log: Logger
  /** The MCP server for one service; one instance serves one request. */
  serverFor?: (service: ServiceName) => McpServer
  version?: string
}

export const mcpPath = (service: ServiceName) => `/${service}/mcp`

export function mcpRoutes(deps: McpEndpointDeps) {
  const app = new Hono()
  const allowed = new URL(deps.publicUrl)
  const serverFor =
    deps.serverFor ??
    ((service: ServiceName) =>
      new McpServer(
        {
          name: `countersign-${service}`,
          title: `Countersign: ${SERVICES[service].title}`,
          version: deps.version ?? '0.1.0',
        },
        { capabilities: {} },
      ))

  for (const service of SERVICE_NAMES) {
    app.get(resourceMetadataPath(service), (c) => {
      c.header('Access-Control-Allow-Origin', '*')
      c.header('Cache-Control', 'public, max-age=3600')
      return c.json(resourceMetadata(deps.publicUrl, service))
    })

    const handler: McpHttpHandler = createMcpHandler(() => serverFor(service), {
      legacy: 'stateless',
      onerror: (error) => deps.log.warn({ err: error, service }, 'MCP request refused'),
    })
    app.all(mcpPath(service), async (c) => {
      const misdirected = checkHostAndOrigin(c.req.raw, allowed)
      if (misdirected) return misdirected
      const auth = await deps.authenticator.authenticate(c.req.raw, service)
      if (!auth.ok) return auth.response
      const { grant } = auth
      const response = await handler.fetch(c.req.raw, {
        authInfo: { ...auth.authInfo, extra: { grant } },
      })
      // The provider revoked the credential while this request used it: the grant is gone, and
      // the answer says so with a 401 rather than a tool error.
      const ended = () => deps.authenticator.grantEnded(service, grant.revoked!.message)
      if (grant.revoked) return ended()
      return holdFirstEvent(response, () => grant.revoked !== undefined, ended)
    })
  }
  return app
}

/**
 * A streamed (SSE) answer starts before its handler finishes. Its status is held back until the
 * first event is ready: if by then `failed()`, the answer is `instead()`. A stream whose first
 * event is a notification sent before the failure still ends with the tool's error result.
 */
async function holdFirstEvent(
  response: Response,
  failed: () => boolean,
  instead: () => Response,
): Promise<Response> {
  const type = response.headers.get('content-type') ?? ''
  if (!response.body || !type.startsWith('text/event-stream')) return response
  const reader = response.body.getReader()
  const first = await reader.read()
  if (failed()) {
    void reader.cancel()
    return instead()
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close()
      else controller.enqueue(first.value)
    },
    async pull(controller) {
      const next = await reader.read()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
  return new Response(body, { status: response.status, headers: response.headers })
}

/**
 * DNS rebinding protection: the Host must be the connector's public host name, and a browser's
 * Origin, when sent, the connector's own origin. Behind a proxy, the proxy must pass the Host
 * header through.
 */
function checkHostAndOrigin(request: Request, allowed: URL): Response | undefined {
  const host = request.headers.get('host')
  if (!host || !sameHost(URL.parse(`http://${host}`)?.hostname, allowed)) {
    return refuse('The Host header does not name this server.')
  }
  const origin = request.headers.get('origin')
  if (
    origin !== null &&
    origin !== allowed.origin &&
    !sameHost(URL.parse(origin)?.hostname, allowed, true)
  ) {
    return refuse('Requests from this origin are not allowed.')
  }
  return undefined
}

/**
 * A connector that listens on loopback answers to every loopback name (`localhost` and
 * `127.0.0.1` alike): a rebinding attack can only point a public name at it, and those are refused.
 */
function sameHost(hostname: string | undefined, allowed: URL, loopbackOnly = false): boolean {
  if (!hostname) return false
  if (isLoopbackHostname(allowed.hostname)) return isLoopbackHostname(hostname)
  return !loopbackOnly && hostname === allowed.hostname
}

function refuse(message: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
    {
      status: 403,
      headers: { 'Content-Type': 'application/json' },
    },
  )
}
