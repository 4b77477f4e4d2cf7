import { execFile } from 'node:child_process'
import { request } from 'node:http'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { MetricsConfig } from '../../src/config/config.js'
import { sandboxUpstream } from '../../src/connector/sandbox-upstream.js'
import { startConnector, type RunningConnector } from '../../src/connector/server.js'
import { connectorForSuite, testConnectorConfig } from '../support/connector.js'
import { PROGRAMS } from '../support/processes.js'
import { parseExposition } from '../support/prometheus.js'

/**
 * Where `/metrics` is served (docs/operations.md, "Metrics"): on a port of its own, never the
 * public one; behind a bearer token when one is set; bound where told, with a warning when that is
 * not loopback and no token guards it; a port already taken stops the start with an error naming
 * METRICS_PORT; closing the connector closes it.
 */

const TOKEN = randomBytes(24).toString('hex')
const suite = connectorForSuite({
  connector: { metrics: { port: 0, host: '127.0.0.1', token: TOKEN } },
})

const scrape = (headers: Record<string, string> = {}, url = suite.connector.metricsUrl!) =>
  fetch(url, { headers })

describe('/metrics with METRICS_TOKEN', () => {
  it('is served on its own port, at /metrics', () => {
    const metrics = new URL(suite.connector.metricsUrl!)
    const local = new URL(suite.connector.localUrl)
    expect(metrics.hostname).toBe('127.0.0.1')
    expect(metrics.pathname).toBe('/metrics')
    expect(metrics.port).not.toBe(local.port)
  })

  it('answers 401 without the token, or with another one', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const res = await scrape(authorization === undefined ? {} : { authorization })
      expect(res.status, authorization).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      const text = await res.text()
      expect(text).not.toContain('countersign_')
      expect(text).not.toContain(TOKEN)
    }
  })

  it('answers 200 with the token: the Prometheus text format', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await scrape({ authorization: `${scheme} ${TOKEN}` })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
      expect(res.headers.get('cache-control')).toBe('no-store')
      const { samples, types } = parseExposition(await res.text())
      expect(types.get('countersign_tool_calls_total')).toBe('counter')
      expect(samples.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true)
    }
  })

  it('serves only /metrics, and only to GET and HEAD', async () => {
    const base = new URL(suite.connector.metricsUrl!)
    const authorization = `Bearer ${TOKEN}`
    expect((await fetch(new URL('/', base), { headers: { authorization } })).status).toBe(404)
    expect((await fetch(new URL('/healthz', base), { headers: { authorization } })).status).toBe(
      404,
    )
    const posted = await fetch(base, { method: 'POST', headers: { authorization } })
    expect(posted.status).toBe(405)
    expect(posted.headers.get('allow')).toBe('GET, HEAD')
    const head = await fetch(base, { method: 'HEAD', headers: { authorization } })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000)
  })

  it('on loopback, answers only a Host naming loopback (DNS rebinding): 403 otherwise', async () => {
    const url = new URL(suite.connector.metricsUrl!)
    const statusWithHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: '/metrics',
            headers: { host, authorization: `Bearer ${TOKEN}` },
          },
          (res) => {
            res.resume()
            resolve(res.statusCode!)
          },
        )
        req.on('error', reject)
        req.end()
      })
    expect(await statusWithHost(`attacker.example:${url.port}`)).toBe(403)
    expect(await statusWithHost('attacker.example')).toBe(403)
    for (const host of [`localhost:${url.port}`, `127.0.0.1:${url.port}`, `[::1]:${url.port}`])
      expect(await statusWithHost(host), host).toBe(200)
  })

  it('is never on the public port: /metrics there is 404, with or without the token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await fetch(`${suite.connector.localUrl}/metrics`, { headers })
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain('countersign_')
    }
  })
})

/** A connector of its own with `metrics`, and what it logged at warn. */
async function connectorWith(metrics: MetricsConfig | undefined) {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-metrics-'))
  const warnings: string[] = []
  const start = startConnector(
    testConnectorConfig(dataDir, sandboxUpstream('http://127.0.0.1:1'), { metrics }),
    { log: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }) },
  )
  let connector: RunningConnector | undefined
  try {
    connector = await start
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    connector,
    warnings,
    async close() {
      await connector.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

function occupiedPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, server }),
    )
  })
}

describe('the metrics server', () => {
  it('is not started without metrics settings (METRICS_PORT=0)', async () => {
    const running = await connectorWith(undefined)
    try {
      expect(running.connector.metricsUrl).toBeUndefined()
    } finally {
      await running.close()
    }
  })

  it('is closed with the connector', async () => {
    const running = await connectorWith({ port: 0, host: '127.0.0.1' })
    const url = running.connector.metricsUrl!
    expect((await fetch(url)).status).toBe(200)
    await running.close()
    await expect(fetch(url)).rejects.toThrow()
  })

  it('warns when it listens beyond loopback without a token', async () => {
    const open = await connectorWith({ port: 0, host: '0.0.0.0' })
    try {
      expect(open.connector.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
      expect(open.warnings.join('')).toContain('METRICS_TOKEN is not set')
    } finally {
      await open.close()
    }
    const guarded = await connectorWith({ port: 0, host: '0.0.0.0', token: TOKEN })
    try {
      expect(guarded.warnings.join('')).not.toContain('METRICS_TOKEN')
    } finally {
      await guarded.close()
    }
    const loopback = await connectorWith({ port: 0, host: '127.0.0.1' })
    try {
      expect(loopback.warnings.join('')).not.toContain('METRICS_TOKEN')
    } finally {
      await loopback.close()
    }
  })

  it('a port already taken stops the start with an error naming METRICS_PORT', async () => {
    const { port, server } = await occupiedPort()
    try {
      await expect(connectorWith({ port, host: '127.0.0.1' })).rejects.toThrow(
        `METRICS_PORT ${port} is already in use on 127.0.0.1: set METRICS_PORT to a free port, or to 0 to turn metrics off.`,
      )
    } finally {
      server.close()
    }
  })

  it('the default port taken (a second connector on the machine): it starts without metrics, saying so', async () => {
    const { port, server } = await occupiedPort()
    try {
      const started = await connectorWith({ port, host: '127.0.0.1', optional: true })
      try {
        expect(started.connector.metricsUrl).toBeUndefined()
        expect((await fetch(`${started.connector.url}/healthz`)).status).toBe(200)
        expect(started.warnings.join('')).toContain(
          `METRICS_PORT ${port} is already in use on 127.0.0.1: this connector serves no metrics; set METRICS_PORT to a free port for them.`,
        )
      } finally {
        await started.close()
      }
    } finally {
      server.close()
    }
  })

  it('`countersign start` with METRICS_PORT taken: that message, exit 1, no stack trace', async () => {
    const { port, server } = await occupiedPort()
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-metrics-cli-'))
    try {
      const root = resolve(import.meta.dirname, '../../../..')
      const run = promisify(execFile)
      const failed = await run(process.execPath, ['--import', 'tsx', ...PROGRAMS.connector], {
        cwd: root,
        env: {
          ...process.env,
          PORT: '0',
          DATA_DIR: dataDir,
          VAULT_KEY: randomBytes(32).toString('base64'),
          METRICS_PORT: String(port),
          LOG_LEVEL: 'silent',
        },
        timeout: 30_000,
      }).catch((error: { code?: number; stderr?: string }) => error)
      expect(failed).toMatchObject({ code: 1 })
      const { stderr } = failed as { stderr: string }
      expect(stderr).toContain(`METRICS_PORT ${port} is already in use`)
      expect(stderr).not.toMatch(/^\s+at /m)
    } finally {
      server.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
