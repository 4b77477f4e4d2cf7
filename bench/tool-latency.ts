import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stopProcess, type ServiceName } from '@countersign/connector/testing'
import { startStack } from './connector-tools.js'
import { MODERN, once, timedOnce, toolCall, type Target } from './load.js'
import { providerToken } from './provider.js'
import { emit, p50 } from './stats.js'

/**
 * One tool call's latency through the connector beside the same upstream request made directly:
 * the sandbox and the connector as compiled child processes (as `npm run sandbox` and
 * `countersign start` run them), a token from the real OAuth flow, a 2026-07-28 `tools/call`, one request at a
 * time, the two interleaved. Prints `<figure>_connector` and `<figure>_direct`, p50 in ms.
 */

export interface ToolLatency {
  service: ServiceName
  tool: string
  /** The figure's name, before `_connector` / `_direct`. */
  figure: string
  /** The name of connector p50 / direct p50 (docs/performance.md, "The figures": at most 1.10). */
  ratio: string
  user: string
  /** The short scope of the provider token for the direct request. */
  scope: string
  /** The upstream request and the tool's arguments, once the sandbox is up. */
  request(
    sandboxUrl: string,
  ): Promise<{ path: string; body: unknown; args: Record<string, unknown> }>
  /** How many rows the provider's answer holds. */
  rowsIn(body: string): number
  rows: number
  /** Calls measured of each (fewer for a large page); 200 unless told. */
  samples?: number
}

const WARMUP = 30
const SAMPLES = 200

export async function benchToolLatency(bench: ToolLatency): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `countersign-bench-${bench.service}-`))
  const children: ChildProcess[] = []
  try {
    const { sandbox, connector, flow } = await startStack(children, dataDir)
    const { tokens } = await flow.connect({
      service: bench.service,
      person: flow.person(bench.user),
    })
    const { path, body, args } = await bench.request(sandbox.url)

    const direct: Target = {
      url: `${sandbox.url}${path}`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${await providerToken(sandbox.url, bench.user, { scopes: [bench.scope] })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      ok: (answer) => bench.rowsIn(answer) === bench.rows,
    }
    const viaConnector = benchCall(connector.url, tokens.access_token, bench, args)
    for (const target of [direct, viaConnector]) await once(target)

    const times = { direct: [] as number[], connector: [] as number[] }
    const samples = bench.samples ?? SAMPLES
    const warmup = Math.min(WARMUP, samples)
    for (let i = 0; i < warmup + samples; i++) {
      const d = await timedOnce(direct)
      const c = await timedOnce(viaConnector)
      if (i < warmup) continue
      times.direct.push(d)
      times.connector.push(c)
    }
    emit(`${bench.figure}_connector`, p50(times.connector), 'ms')
    emit(`${bench.figure}_direct`, p50(times.direct), 'ms')
    emit(bench.ratio, p50(times.connector) / p50(times.direct), 'ratio')
  } finally {
    await Promise.all(children.map(stopProcess))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The tool call as a 2026-07-28 client sends it. */
function benchCall(
  base: string,
  token: string,
  bench: ToolLatency,
  args: Record<string, unknown>,
): Target {
  return toolCall({
    url: `${base}/${bench.service}/mcp`,
    tool: bench.tool,
    args,
    revision: MODERN,
    token,
    // A success with the whole page as a table, not an error result.
    ok: (answer) => tableRows(answer) === bench.rows,
  })
}

/** The rows of a tool's table in a JSON-RPC answer, or undefined for anything else. */
function tableRows(answer: string): number | undefined {
  const { result } = JSON.parse(answer) as {
    result?: { isError?: boolean; structuredContent?: { rows?: unknown[] } }
  }
  return result?.isError ? undefined : result?.structuredContent?.rows?.length
}
