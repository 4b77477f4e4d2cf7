import { serve } from '@hono/node-server'
import { Hono } from 'hono'

/**
 * The floor of any gateway on this stack, for bench/connector-tools.ts: a Hono route that makes
 * the same upstream GET with fetch and returns its body; no MCP, no auth, no validation. Run as
 * its own process: `UPSTREAM_URL=... UPSTREAM_TOKEN=... PORT=... node --import tsx bench/bare-proxy.ts`.
 */
const upstream = process.env.UPSTREAM_URL!
const headers = {
  authorization: `Bearer ${process.env.UPSTREAM_TOKEN}`,
  accept: 'application/json',
}
const app = new Hono()
app.get('/healthz', (c) => c.text('ok'))
app.get('/proxy', async (c) => {
  const res = await fetch(upstream, { headers })
  return c.body(await res.text(), res.status as 200, { 'content-type': 'application/json' })
})
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
