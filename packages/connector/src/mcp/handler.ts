import {
  createMcpHandler,
  Server,
  type McpHttpHandler,
  type McpRequestContext,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { clientAsking, type AskedState } from './asking.js'
import { grantOf } from './grant-access.js'
import { INSTRUCTIONS } from './instructions.js'
import { QUESTIONS_PER_REQUEST, type LegacyQuestions } from './legacy-questions.js'
import type { LegacySession } from './legacy-sessions.js'
import type { CallWaiting } from './device-wait.js'
import type { ServiceTools, ToolCaller } from './tools.js'
import type { ServiceViews } from './views.js'

/**
 * One service's MCP handler: the SDK's `createMcpHandler`, which owns the protocol (era
 * classification, the 2026-07-28 per-request `_meta` envelope and its header checks, the
 * stateless 2025-11-25 leg with `initialize`, JSON-RPC dispatch, request and result validation),
 * over a lean per-request server.
 *
 * Why a low-level `Server` per request, and not the stock `McpServer` factory nor one shared
 * instance (the figures are in docs/decisions.md, "MCP tools layer"; `npm run bench` measures
 * both in bench/mcp-handler.ts):
 *
 * - stock: an `McpServer` with `registerTool` per request, the SDK reading the body from a clone
 *   of the Request. Every request rebuilds the tool table, every `tools/list` converts the zod
 *   schemas to JSON Schema again, and the clone costs most of a request.
 * - ours: a low-level `Server` per request whose `tools/list` answer (JSON Schema generated once,
 *   at startup: tools.ts) and `tools/call` handler are shared, the body read once by the endpoint
 *   and handed over as `parsedBody`. Constructing the `Server` is a few small maps; what is left
 *   is the SDK's own protocol work.
 * - one instance reused across requests (a pool of idle instances): a little faster, and
 *   unsafe. The SDK refuses an instance still connected to another exchange, and an instance
 *   keeps per-request state after it (its negotiated era, the client's identity and
 *   capabilities): a 2025-11-25 call answered by an instance that had served a 2026-07-28 one
 *   was refused for lacking the 2026 `_meta` envelope. No request may depend on an earlier one,
 *   so every request gets its own instance, as the SDK requires, and per-request data (the
 *   grant) reaches the handler through `handler.fetch(request, { authInfo })`.
 */

export interface ServiceHandlerOptions {
  version: string
  /** Signs and verifies the state handed to a client with a question (asking.ts). */
  requestState: RequestStateCodec<AskedState>
  onerror: (error: Error) => void
  /** Replaces the per-request server (tests). */
  serverFor?: (service: ServiceName) => McpServer | Server
  /**
   * How a 2025-11-25 client that can answer is asked in its own interface: the routing of its
   * answers to this request (legacy-questions.ts); its session comes with the request, read by
   * the endpoint. Unset, such a client gets the approval page's link.
   */
  legacy?: { questions: LegacyQuestions }
}

export function serviceHandler(
  service: ServiceName,
  tools: ServiceTools,
  views: ServiceViews,
  options: ServiceHandlerOptions,
): McpHttpHandler {
  const info = {
    name: `countersign-${service}`,
    title: `Countersign: ${SERVICES[service].title}`,
    version: options.version,
  }
  const codec = options.requestState
  const serverOptions = {
    instructions: INSTRUCTIONS[service],
    // A listing names the grant's own lists, sites or properties (grant-listing.ts): it is the
    // requesting client's alone, and read again each time, so that a narrowed grant shows at once.
    cacheHints: { 'tools/list': { cacheScope: 'private' as const, ttlMs: 0 } },
    capabilities: {
      tools: { listChanged: false },
      // The views of MCP Apps, where the service has any (views.ts).
      ...(views.any && { resources: { listChanged: false } }),
    },
    // A state that fails the codec is refused before any handler runs.
    requestState: { verify: codec.verify },
    // A 2025-11-25 client that can answer is asked by the SDK's own shim: `elicitation/create` on
    // the stream of its call, the question's answer coming back to this request (below).
    inputRequired: {
      legacyShim: true,
      maxRounds: QUESTIONS_PER_REQUEST,
      roundTimeoutMs: options.legacy?.questions.waitMs,
    },
  }
  const lean = async (request: McpRequestContext) => {
    const server = new Server(info, serverOptions)
    const session = options.legacy && (await askable(server, request, options.legacy))
    server.setRequestHandler('tools/list', (_list, ctx) => tools.listingFor(grantOf(ctx)))
    server.setRequestHandler('tools/call', (call, ctx) =>
      tools.call(call.params.name, call.params.arguments, callerOf(ctx, codec, session)),
    )
    if (views.any) {
      server.setRequestHandler('resources/list', () => views.listing)
      server.setRequestHandler('resources/read', (request) => views.read(request.params.uri))
    }
    return server
  }
  const factory = options.serverFor ? () => options.serverFor!(service) : lean
  return createMcpHandler(factory, { legacy: 'stateless', onerror: options.onerror })
}

/** Who calls: the request's grant, and how the person can be asked in the client. */
function callerOf(
  ctx: ServerContext,
  codec: RequestStateCodec<AskedState>,
  session: LegacySession | undefined,
): ToolCaller | undefined {
  const grant = grantOf(ctx)
  return (
    grant && {
      grant,
      asking: () => clientAsking(ctx, codec, session),
      waiting: () => waitingOf(ctx),
    }
  )
}

/** How a call that waits for the person keeps its client told: progress, where it asked for it. */
function waitingOf(ctx: ServerContext): CallWaiting {
  const token = ctx.mcpReq._meta?.progressToken
  return {
    signal: ctx.mcpReq.signal,
    ...(token !== undefined && {
      progress: (progress, total, message) =>
        ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total, message },
        }),
    }),
  }
}

/**
 * A 2025-11-25 request of a client whose session says it can answer (legacy-sessions.ts): its
 * per-request server is told what the client declared at initialize, which this request did not
 * carry, and numbers its questions from a start of its own; the client's answers, POSTed to
 * whichever replica, reach this server's transport until the exchange ends. The two fields are
 * the SDK's own per-connection state, which per-request serving has no public way to set
 * (docs/decisions.md, "Approval in the client under 2025-11-25"); the suite asks through both
 * SDK clients of that revision, so a change of the SDK here fails there.
 */
async function askable(
  server: Server,
  request: McpRequestContext,
  legacy: { questions: LegacyQuestions },
): Promise<LegacySession | undefined> {
  // The endpoint read the session of a request that calls a tool (endpoint.ts).
  const session = request.authInfo?.extra?.session as LegacySession | undefined
  if (request.era !== 'legacy' || !session) return undefined
  const opened = await legacy.questions.open(session.key, (answer) =>
    server.transport?.onmessage?.(answer),
  )
  if (!opened) return undefined
  server.onclose = opened.done
  // A question the client answered with an error (it could not show it) or not in time is
  // left unanswered, as one closed: the change waits on its page, and the result links it.
  const send = server.request.bind(server)
  server.request = (async (message: { method: string }, ...rest: unknown[]) => {
    try {
      return await (send as (...args: unknown[]) => Promise<unknown>)(message, ...rest)
    } catch (error) {
      if (message.method !== 'elicitation/create') throw error
      return { action: 'cancel' }
    }
  }) as typeof server.request
  Object.assign(server, {
    _clientCapabilities: {
      elicitation: { ...(session.form && { form: {} }), ...(session.url && { url: {} }) },
    },
    _requestMessageId: opened.first,
  })
  return session
}
