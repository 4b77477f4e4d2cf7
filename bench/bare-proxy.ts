import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { Agent } from 'undici'

/**
 * The floor of any gateway on this stack, for bench/connector-tools.ts: a Hono route that makes
 * the same upstream GET with the connector's HTTP client (undici's `request` on a kept-alive
 * pool) and returns its body; no MCP, no auth, no validation. Run as its own process:
 * `UPSTREAM_URL=... UPSTREAM_TOKEN=... PORT=... node --import tsx bench/bare-proxy.ts`.
 */
const upstream = new URL(process.env.UPSTREAM_URL!)
const headers = {
  authorization: `Bearer ${process.env.UPSTREAM_TOKEN}`,
  accept: 'application/json',
}
const pool = new Agent()
const app = new Hono()
app.get('/healthz', (c) => c.text('ok'))
app.get('/proxy', async (c) => {
  const res = await pool.request({
    origin: upstream.origin,
    path: upstream.pathname,
    method: 'GET',
    headers,
  })
  const body = await res.body.text()
  return c.body(body, res.statusCode as 200, { 'content-type': 'application/json' })
})
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
