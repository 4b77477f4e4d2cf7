import { CONNECTIONS_PATH } from '../pages/connections-page.js'
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  isJSONRPCResponse,
  type ClientCapabilities,
} from '@modelcontextprotocol/server'
import { Hono, type MiddlewareHandler } from 'hono'
import { DEFAULT_APPROVAL_WAIT_SECONDS } from '../config/config.js'
import { hostnameOfHeader } from '../config/loopback.js'
import { bearerCors, bearerCorsInBrowsers } from '../http/cors.js'
import { readBodyText, TOO_LARGE } from '../http/request-body.js'
import { SERVICE_NAMES, type ServiceName } from '../services/catalog.js'
import { SERVICE_TOOLS } from '../services/tools.js'
import {
  isStoreUnreachable,
  STORE_AWAY_WORDS,
  STORE_RETRY_AFTER_SECONDS,
} from '../store/unreachable.js'
import { ApprovalStep } from './approval.js'
import { requestStateCodec } from './asking.js'
import { grantsScope } from './bearer.js'
import type { PersonReach } from './device-wait.js'
import type { RequestEnd } from './grant-access.js'
import { serviceHandler } from './handler.js'
import type { Answer } from './answer.js'
import { AnswerBox } from './answer-box.js'
import type { McpEndpointOptions, McpParts } from './mcp-parts.js'
import { ANSWERS_CHANNEL, LegacyQuestions } from './legacy-questions.js'
import { LegacySessions } from './legacy-sessions.js'
import {
  RESOURCE_METADATA_CACHE,
  resourceMetadata,
  resourceMetadataPath,
} from './resource-metadata.js'
import { ServiceViews } from './views.js'
import { ServiceTools } from './tools.js'

/**
 * The MCP endpoints, `/{service}/mcp`, and their protected resource metadata. Each request is
 * checked in this order: Host (DNS rebinding), CORS for a browser's request (a preflight is
 * answered there), the bearer token, the body (read once), the scope of the tools it calls, then
 * the MCP layer (handler.ts). Serving is stateless: no request depends on reaching the replica
 * that served an earlier one.
 */

const mcpPath = (service: ServiceName) => `/${service}/mcp`

/** The largest request body read; the SDK's own bound. */
const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE

export function mcpRoutes(connector: McpParts, options: McpEndpointOptions = {}) {
  const parts = { ...connector, log: connector.log.child({ component: 'mcp' }) }
  const app = new Hono()
  const allowed = new URL(parts.config.publicUrl)
  const events = parts.toolEvents
  const reach: PersonReach = {
    tell: (account, change) => parts.push.notifier.tell(account, change),
    waitMs: 1000 * (parts.config.approvalWaitSeconds ?? DEFAULT_APPROVAL_WAIT_SECONDS),
  }
  const approval = new ApprovalStep(parts.approvals, parts.api, parts.profile, events, reach)
  const requestState = requestStateCodec(parts.vault)
  const legacy = {
    sessions: new LegacySessions(parts.vault),
    questions: new LegacyQuestions(
      parts.store.channel(ANSWERS_CHANNEL),
      parts.log.child({ component: 'answers' }),
      options.answerWaitMs,
      // Replicas on one database: an answer for another waits in the store.
      parts.store.engine === 'postgres' ? new AnswerBox(parts.store, parts.vault) : undefined,
    ),
  }

  const ownHost = refuseForeignHost(allowed)

  for (const service of SERVICE_NAMES) {
    app.use(resourceMetadataPath(service), bearerCors)
    app.get(resourceMetadataPath(service), (c) => {
      c.header('Cache-Control', RESOURCE_METADATA_CACHE)
      return c.json(resourceMetadata(parts.config.publicUrl, service))
    })

    const log = parts.log.child({ service })
    const definitions = options.tools?.[service] ?? SERVICE_TOOLS[service]
    const tools = new ServiceTools(definitions, {
      api: parts.api,
      profile: parts.profile,
      log,
      approval,
      audit: parts.audit,
      callLimit: parts.limits.toolCall,
      shares: parts.shares,
      events,
      stepCosts: parts.metrics.stepCosts,
      connectionsUrl: parts.config.publicUrl + CONNECTIONS_PATH,
    })
    const handler = serviceHandler(service, tools, new ServiceViews(definitions), {
      version: options.version ?? '0.1.0',
      requestState,
      onerror: (error) => log.warn({ err: error }, 'MCP request refused'),
      serverFor: options.serverFor,
      legacy,
    })
    app.all(mcpPath(service), ownHost, bearerCorsInBrowsers, async (c) => {
      try {
        return await serve(c.req.raw)
      } catch (error) {
        if (!isStoreUnreachable(error)) throw error
        return storeAway(error)
      }
    })

    /** The database away for a moment: 503, a JSON-RPC error saying so, and when to retry. */
    const storeAway = (error: unknown) => {
      parts.storeAway.request('mcp', error)
      const response = rpcError(503, STORE_AWAY_WORDS)
      response.headers.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS))
      return response
    }

    const serve = async (request: Request): Promise<Response> => {
      // Every scope of a service includes its read scope: this refuses no valid token.
      const auth = await parts.authenticator.authenticate(request, service)
      if (!auth.ok) return auth.response
      const body = await readBody(request)
      if ('refused' in body) return body.refused
      // The tool, and so the scope a call needs, is known only from the body.
      const needed = scopesNeeded(body.parsed, tools)
      const missing = needed.find((scope) => !grantsScope(service, auth.authInfo.scopes, scope))
      if (missing !== undefined) return parts.authenticator.insufficientScope(service, missing)
      const { grant } = auth
      // A 2025-11-25 client's session, read where it matters: its answers to questions asked in
      // its own interface (to the request that asked them, on whichever replica), and its calls
      // of tools, which may ask.
      const answers = answersIn(body.parsed)
      const session =
        answers || needed.length > 0
          ? legacy.sessions.read(request.headers.get('mcp-session-id'), grant.link.grantId)
          : undefined
      if (answers) {
        if (session) await legacy.questions.answer(session.key, answers)
        return new Response(null, { status: 202 })
      }
      const response = await handler.fetch(body.request, {
        authInfo: { ...auth.authInfo, extra: { grant, ...(session && { session }) } },
        parsedBody: body.parsed,
      })
      // A call found the credential revoked (401: the grant is gone), or the database away
      // before anything was sent (503: try again); else the answer as it is.
      const ending = (end: RequestEnd) =>
        end.kind === 'revoked'
          ? parts.authenticator.grantEnded(service, end.error.message)
          : storeAway(end.error)
      if (grant.end) return ending(grant.end)
      if (response.ok) {
        const session = legacy.sessions.mint(grant.link.grantId, declaredAtInitialize(body.parsed))
        if (session) response.headers.set('Mcp-Session-Id', session)
      }
      // A streamed answer: decided by what the calls found before its first event.
      return holdFirstEvent(
        response,
        () => grant.end !== undefined,
        () => ending(grant.end!),
      )
    }
  }
  return app
}

type ReadBody = { request: Request; parsed?: unknown } | { refused: Response }

/** The JSON-RPC responses a body holds, when it holds nothing else: a client's answers. */
function answersIn(body: unknown): Answer[] | undefined {
  if (!Array.isArray(body)) return isAnswer(body) ? [body] : undefined
  return body.length > 0 && body.every(isAnswer) ? body : undefined
}

/** A request or notification (every call's body) is told apart before the SDK's check runs. */
const isAnswer = (message: unknown): message is Answer =>
  typeof message === 'object' &&
  message !== null &&
  !('method' in message) &&
  isJSONRPCResponse(message)

/** What a 2025-11-25 client declared it can do, in its `initialize`; undefined for any other body. */
function declaredAtInitialize(body: unknown): ClientCapabilities | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
  const { method, params } = body as { method?: unknown; params?: { capabilities?: unknown } }
  if (method !== 'initialize' || typeof params?.capabilities !== 'object') return undefined
  return params.capabilities as ClientCapabilities
}

/**
 * A JSON POST's body, read once (the SDK would otherwise read it from a clone of the request):
 * parsed, it is handed to the SDK as `parsedBody`. A body that is not JSON goes to the SDK as
 * text, to be answered with its parse error; anything but a JSON POST goes as it came. Declared
 * or chunked, a body is refused past the bound without reading on (request-body.ts).
 */
async function readBody(request: Request): Promise<ReadBody> {
  if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type')))
    return { request }
  let text: string
  try {
    const read = await readBodyText(request, MAX_BODY_BYTES)
    if (read === TOO_LARGE) return { refused: tooLarge() }
    text = read
  } catch {
    return { refused: rpcError(400, 'Parse error: the request body could not be read', -32700) }
  }
  try {
    return { request, parsed: JSON.parse(text) as unknown }
  } catch {
    return {
      request: new Request(request.url, { method: 'POST', headers: request.headers, body: text }),
    }
  }
}

const tooLarge = () =>
  rpcError(413, `Payload Too Large: the body must not exceed ${MAX_BODY_BYTES} bytes`)

/** The scopes of the served tools a body calls (one message, or each of a batch). */
function scopesNeeded(body: unknown, tools: ServiceTools): string[] {
  const scopes: string[] = []
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue
    const { method, params } = message as { method?: unknown; params?: unknown }
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) continue
    const scope = tools.scopeOf((params as { name?: unknown }).name)
    if (scope !== undefined) scopes.push(scope)
  }
  return scopes
}

function rpcError(status: number, message: string, code = -32000): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status })
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
  // The type first: reading `body` of a JSON answer would turn Hono's lightweight Response,
  // written straight from its text, into a full one written through a stream.
  const type = response.headers.get('content-type') ?? ''
  if (!type.startsWith('text/event-stream') || !response.body) return response
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
 * DNS rebinding protection: the Host must be the connector's public host name, whatever the
 * Origin. A page that rebinds its own name to the connector's address sends that name as Host,
 * and is refused here before anything else. A page of another origin that calls the connector by
 * its own name is not rebinding: it goes on to CORS and the bearer check, which honours nothing
 * a browser attaches by itself (http/cors.ts). Behind a proxy, the proxy must pass the Host header
 * through.
 */
function refuseForeignHost(allowed: URL): MiddlewareHandler {
  return async (c, next) => {
    if (!sameHost(hostnameOfHeader(c.req.header('host')), allowed)) {
      return refuse('The Host header does not name this server.')
    }
    await next()
  }
}

/**
 * Its own host name only. Under another loopback name a request was already told the address to
 * use (connector/addressed.ts); a rebinding page can only point a public name at it.
 */
function sameHost(hostname: string | undefined, allowed: URL): boolean {
  return hostname !== undefined && hostname === allowed.hostname
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
