import { serve } from '@hono/node-server'
import {
  createMcpHandler,
  McpServer,
  type AuthInfo,
  type CallToolResult,
} from '@modelcontextprotocol/server'
import { Hono } from 'hono'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import pino from 'pino'
import {
  EVERY_ONE,
  GENERIC_PROFILE,
  requestStateCodec,
  SERVICE_TOOLS,
  serviceHandler,
  ServiceTools,
  ServiceViews,
  Vault,
} from '@countersign/connector/testing'
import { LEGACY, load, MODERN, once, toolCall, type Revision, type Target } from './load.js'
import { emit } from './stats.js'

/**
 * The MCP layer alone, the stock way against ours (packages/connector/src/mcp/handler.ts), side by side: a
 * `list_tasks` call answered with a constant 20-task page, no auth, no provider.
 *
 * - stock: `createMcpHandler` with a new `McpServer` and `registerTool` per request, the SDK
 *   reading the body from a clone of the Request;
 * - lean: ours, a low-level `Server` per request over a tool listing and handler built once, the
 *   body read once and handed over as `parsedBody`.
 *
 * Server and load generator share this process (one thread): the absolute figures are lower than
 * across processes, the ratio between the two is what this shows.
 */

const CONNECTIONS = 10
const SECONDS = 3

export async function benchMcpHandler(): Promise<void> {
  const page = {
    kind: 'tasks#tasks',
    etag: '"page"',
    items: Array.from({ length: 20 }, (_, i) => ({
      kind: 'tasks#task',
      id: `task${i}`,
      etag: `"${i}"`,
      title: `Task ${i}`,
      status: 'needsAction',
      updated: '2026-11-25T10:00:00.000Z',
      position: String(i).padStart(8, '0'),
    })),
  }
  const tools = new ServiceTools(SERVICE_TOOLS.tasks, {
    api: { call: async () => ({ status: 200, body: page }) },
    profile: GENERIC_PROFILE,
    log: pino({ level: 'silent' }),
    connectionsUrl: 'http://127.0.0.1/connections',
  })
  const grant = {
    upstreamAccessToken: async () => 'token',
    upstreamTokenAfterUnauthorized: async () => 'token',
    link: { grantId: 'bench' },
    coverage: EVERY_ONE,
    coverageNow: async () => EVERY_ONE,
    join: async () => {},
    endForStoreAway: () => {},
  }
  const authInfo: AuthInfo = { token: 'bench', clientId: 'bench', scopes: [], extra: { grant } }
  const quiet = () => {}

  const lean = serviceHandler('tasks', tools, new ServiceViews(SERVICE_TOOLS.tasks), {
    version: '0',
    onerror: quiet,
    requestState: requestStateCodec(
      Vault.fromEnvironment({ vaultKey: randomBytes(32).toString('base64'), dataDir: '' }).vault,
    ),
  })
  const stock = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'countersign-tasks', version: '0' })
      for (const definition of SERVICE_TOOLS.tasks.filter((tool) => !tool.approval)) {
        server.registerTool(
          definition.name,
          {
            title: definition.title,
            description: definition.description,
            inputSchema: definition.input,
            outputSchema: definition.output,
            annotations: definition.annotations,
          },
          (args) => tools.call(definition.name, args, { grant }) as Promise<CallToolResult>,
        )
      }
      return server
    },
    { legacy: 'stateless', onerror: quiet },
  )

  const app = new Hono()
  app.post('/stock', (c) => stock.fetch(c.req.raw, { authInfo }))
  app.post('/lean', async (c) =>
    lean.fetch(c.req.raw, { authInfo, parsedBody: await c.req.json() }),
  )
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    for (const revision of [MODERN, LEGACY] as const) {
      const suffix = revision === MODERN ? '' : '_2025_11_25'
      const stockTarget = call(`${base}/stock`, revision)
      const leanTarget = call(`${base}/lean`, revision)
      await once(stockTarget)
      await once(leanTarget)
      await load(stockTarget, CONNECTIONS, 1)
      await load(leanTarget, CONNECTIONS, 1)
      emit(`mcp_stock_calls_per_s${suffix}`, await load(stockTarget, CONNECTIONS, SECONDS), 'req/s')
      emit(`mcp_lean_calls_per_s${suffix}`, await load(leanTarget, CONNECTIONS, SECONDS), 'req/s')
    }
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

function call(url: string, revision: Revision): Target {
  return toolCall({
    url,
    tool: 'list_tasks',
    args: { tasklist: 'L' },
    revision,
    ok: (body) => body.includes('"structuredContent"') && !body.includes('"isError":true'),
  })
}
