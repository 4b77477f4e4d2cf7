import autocannon from 'autocannon'

/** One request, sent again and again by `load`. */
export interface Target {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  /** Whether an answer is the success it should be; every one is checked. */
  ok: (body: string) => boolean
}

/** The two revisions a client may speak: stateless 2026-07-28 and the 2025-11-25 before it. */
export const MODERN = '2026-07-28'
export const LEGACY = '2025-11-25'
export type Revision = typeof MODERN | typeof LEGACY

/**
 * A `tools/call` of `tool` with `args` as a client of `revision` sends it to `url`: under
 * 2026-07-28 with the `mcp-method`/`mcp-name` headers and the `_meta` envelope, and with
 * `token` as its bearer when one is given.
 */
export function toolCall(call: {
  url: string
  tool: string
  args: Record<string, unknown>
  revision: Revision
  token?: string
  ok: Target['ok']
}): Target {
  const params: Record<string, unknown> = { name: call.tool, arguments: call.args }
  const headers: Record<string, string> = {
    ...(call.token !== undefined && { authorization: `Bearer ${call.token}` }),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': call.revision,
  }
  if (call.revision === MODERN) {
    headers['mcp-method'] = 'tools/call'
    headers['mcp-name'] = call.tool
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    }
  }
  return {
    url: call.url,
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    ok: call.ok,
  }
}

/**
 * Requests per second at `connections` concurrent connections for `seconds` (autocannon). Every
 * answer must be a 2xx whose body `ok` accepts: anything else fails the benchmark, so that a
 * fast error is never counted as a fast success.
 */
export async function load(target: Target, connections: number, seconds: number): Promise<number> {
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
    verifyBody: target.ok,
  })
  const failed = result.errors + result.timeouts + result.non2xx + result.mismatches
  if (failed > 0)
    throw new Error(
      `${target.method} ${new URL(target.url).pathname}: ${failed} of ${result.requests.total} answers were not successes ` +
        `(errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, wrong body ${result.mismatches})`,
    )
  return result.requests.total / result.duration
}

/**
 * Milliseconds one send of `target` takes, until its whole answer is read; the answer is checked
 * after the clock stops, so that reading a large page to check it is not counted.
 */
export async function timedOnce(target: Target): Promise<number> {
  const started = performance.now()
  const res = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    body: target.body,
  })
  const text = await res.text()
  const ms = performance.now() - started
  if (!res.ok || !target.ok(text))
    throw new Error(
      `${target.method} ${new URL(target.url).pathname}: ${res.status} ${text.slice(0, 300)}`,
    )
  return ms
}

/** Sends the target once, as `load` does, and returns its body: for a check before loading. */
export async function once(target: Target): Promise<string> {
  const res = await fetch(target.url, {
    method: target.method,
    headers: target.headers,
    body: target.body,
  })
  const text = await res.text()
  if (!res.ok || !target.ok(text))
    throw new Error(
      `${target.method} ${new URL(target.url).pathname}: ${res.status} ${text.slice(0, 300)}`,
    )
  return text
}
