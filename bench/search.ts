import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { historyStart, isoDay, pacificNow } from '../src/sandbox/search/analytics/calendar.js'
import { AuthorizationFlow } from '../test/support/authorization-flow.js'
import { freePort, startChild, stop } from './connector-tools.js'
import { once, type Target } from './load.js'
import { emit, p50, timed } from './stats.js'

/**
 * A 16-month, two-dimension search analytics query (query × date, the default 1,000 rows):
 * p50 through the connector (an MCP tools/call of query_search_analytics with a token from the
 * real OAuth flow) and the same POST made directly to the sandbox. Both processes run as
 * `npm run sandbox` and `SANDBOX=0 npm start` run them, one request at a time, interleaved.
 */

const USER = 'bench-search'
const SITE = `https://www.${USER}.example/`
const WARMUP = 30
const SAMPLES = 200
const MODERN = '2026-07-28'

export async function benchSearch(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-search-'))
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
    const { tokens } = await flow.connect({ service: 'search', person: flow.person(USER) })

    // Sixteen months of final data: from the first day of the history to three days ago.
    const today = pacificNow().day
    const query = {
      startDate: isoDay(historyStart(today)),
      endDate: isoDay(today - 3),
      dimensions: ['query', 'date'],
    }
    const direct: Target = {
      url: `${sandbox.url}/search/v1/sites/${encodeURIComponent(SITE)}/search-analytics`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${await providerToken(sandbox.url)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(query),
      ok: (body) => rowsIn(body) === 1000,
    }
    const viaConnector = toolCall(connector.url, tokens.access_token, { siteUrl: SITE, ...query })
    for (const target of [direct, viaConnector]) await once(target)

    const times = { direct: [] as number[], connector: [] as number[] }
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const d = await timed(() => once(direct))
      const c = await timed(() => once(viaConnector))
      if (i < WARMUP) continue
      times.direct.push(d)
      times.connector.push(c)
    }
    emit('search_query_p50_ms_connector', p50(times.connector), 'ms')
    emit('search_query_p50_ms_direct', p50(times.direct), 'ms')
  } finally {
    await Promise.all(children.map(stop))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** A `tools/call` of query_search_analytics as a 2026-07-28 client sends it. */
function toolCall(base: string, token: string, args: Record<string, unknown>): Target {
  const params = {
    name: 'query_search_analytics',
    arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  }
  return {
    url: `${base}/search/mcp`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'query_search_analytics',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    // A success with the whole page, not an error result: its rows appear twice (structured and as text).
    ok: (body) =>
      body.includes('"structuredContent"') &&
      !body.includes('"isError":true') &&
      rowsIn(body) >= 1000,
  }
}

/** The rows of an answer: each has one `"position":` (escaped in a text copy, still counted once). */
const rowsIn = (body: string) => body.split('position').length - 1

async function providerToken(sandboxUrl: string): Promise<string> {
  const res = await fetch(`${sandboxUrl}/_sandbox/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: USER, scopes: ['webmasters.readonly'] }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}
