import { serve } from '@hono/node-server'
import { createMcpHandler, Server, type CallToolResult } from '@modelcontextprotocol/server'
import { Hono } from 'hono'
import { Agent } from 'undici'

/**
 * The floors of any gateway on this stack, for bench/connector-tools.ts. Both make the same
 * upstream GET with the connector's HTTP client (undici's `request` on a kept-alive pool):
 *
 * - `GET /proxy` returns its body: no MCP, no auth, no validation;
 * - `POST /mcp` answers a `tools/call` with it, through the SDK's `createMcpHandler` over a
 *   low-level `Server` whose one tool returns the page as structured content and as text, the
 *   body read once, as packages/connector/src/mcp/handler.ts does: the SDK's protocol handling and nothing of the
 *   connector's (no auth, no store, no schema).
 *
 * Run as its own process:
 * `UPSTREAM_URL=... UPSTREAM_TOKEN=... PORT=... node --import tsx bench/bare-proxy.ts`.
 */
const upstream = new URL(process.env.UPSTREAM_URL!)
const headers = {
  authorization: `Bearer ${process.env.UPSTREAM_TOKEN}`,
  accept: 'application/json',
}
const pool = new Agent()

async function page(): Promise<{ status: number; body: string }> {
  const res = await pool.request({
    origin: upstream.origin,
    path: upstream.pathname,
    method: 'GET',
    headers,
  })
  return { status: res.statusCode, body: await res.body.text() }
}

const listing = { tools: [{ name: 'list_tasks', inputSchema: { type: 'object' as const } }] }
const mcp = createMcpHandler(
  () => {
    const server = new Server(
      { name: 'floor', version: '1.0.0' },
      { capabilities: { tools: { listChanged: false } } },
    )
    server.setRequestHandler('tools/list', () => listing)
    server.setRequestHandler('tools/call', async (): Promise<CallToolResult> => {
      const structuredContent = JSON.parse((await page()).body) as Record<string, unknown>
      return {
        content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
        structuredContent,
      }
    })
    return server
  },
  { legacy: 'stateless' },
)

const app = new Hono()
app.get('/healthz', (c) => c.text('ok'))
app.get('/proxy', async (c) => {
  const { status, body } = await page()
  return c.body(body, status as 200, { 'content-type': 'application/json' })
})
app.post('/mcp', async (c) => {
  const parsedBody = JSON.parse(await c.req.text()) as unknown
  return mcp.fetch(c.req.raw, { parsedBody })
})
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
