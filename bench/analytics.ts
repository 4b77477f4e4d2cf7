import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AuthorizationFlow } from '../test/support/authorization-flow.js'
import { freePort, startChild, stop } from './connector-tools.js'
import { once, type Target } from './load.js'
import { emit, p50, timed } from './stats.js'

/**
 * A three-dimension, 90-day analytics report (date × country × deviceCategory, three metrics, a
 * page of 100 rows of the ~2,000): p50 through the connector (an MCP tools/call of run_report
 * with a token from the real OAuth flow; the property's metadata is warm after the first call, so
 * each call is one upstream request) and the same POST made directly to the sandbox. Both run as
 * `npm run sandbox` and `SANDBOX=0 npm start` run them, one request at a time, interleaved.
 */

const USER = 'bench-analytics'
const WARMUP = 30
const SAMPLES = 200
const ROWS = 100
const MODERN = '2026-07-28'

export async function benchAnalytics(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-analytics-'))
  const [sandboxPort, connectorPort] = [await freePort(), await freePort()]
  const children: ChildProcess[] = []
  try {
    const sandbox = await startChild(children, 'sandbox', sandboxPort, {
      SANDBOX_PORT: String(sandboxPort),
      DATA_DIR: dataDir,
    })
    const connector = await startChild(children, 'start', connectorPort, {
      SANDBOX: '0',
      SANDBOX_PORT: String(sandboxPort),
      PORT: String(connectorPort),
      DATA_DIR: dataDir,
      VAULT_KEY: randomBytes(32).toString('base64'),
    })
    const flow = new AuthorizationFlow({ url: connector.url, sandbox: { url: sandbox.url } })
    const { tokens } = await flow.connect({ service: 'analytics', person: flow.person(USER) })
    const assets = await fetch(`${sandbox.url}/_sandbox/users/${USER}`)
    const [propertiesId] = ((await assets.json()) as { properties: string[] }).properties

    const report = {
      dateRanges: [{ startDate: '90daysAgo', endDate: 'yesterday' }],
      dimensions: [{ name: 'date' }, { name: 'country' }, { name: 'deviceCategory' }],
      metrics: [{ name: 'activeUsers' }, { name: 'sessions' }, { name: 'engagementRate' }],
      limit: ROWS,
    }
    const direct: Target = {
      url: `${sandbox.url}/analytics/v1/properties/${propertiesId}/report`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${await providerToken(sandbox.url)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(report),
      ok: (body) => rowsIn(body) === ROWS,
    }
    const viaConnector = toolCall(connector.url, tokens.access_token, { propertiesId, ...report })
    for (const target of [direct, viaConnector]) await once(target)

    const times = { direct: [] as number[], connector: [] as number[] }
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const d = await timed(() => once(direct))
      const c = await timed(() => once(viaConnector))
      if (i < WARMUP) continue
      times.direct.push(d)
      times.connector.push(c)
    }
    emit('analytics_report_p50_ms_connector', p50(times.connector), 'ms')
    emit('analytics_report_p50_ms_direct', p50(times.direct), 'ms')
  } finally {
    await Promise.all(children.map(stop))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** A `tools/call` of run_report as a 2026-07-28 client sends it. */
function toolCall(base: string, token: string, args: Record<string, unknown>): Target {
  const params = {
    name: 'run_report',
    arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  }
  return {
    url: `${base}/analytics/mcp`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'run_report',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    // A success with the whole page, not an error result: its rows appear twice (structured and as text).
    ok: (body) =>
      body.includes('"structuredContent"') &&
      !body.includes('"isError":true') &&
      rowsIn(body) === 2 * ROWS,
  }
}

/** The rows of an answer: each has one `dimensionValues` (escaped in a text copy, still counted once). */
const rowsIn = (body: string) => body.split('dimensionValues').length - 1

async function providerToken(sandboxUrl: string): Promise<string> {
  const res = await fetch(`${sandboxUrl}/_sandbox/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: USER, scopes: ['analytics.readonly'] }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}
