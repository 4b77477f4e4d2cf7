import { mkdtemp, rm, stat } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { sandboxUpstream } from '../../src/connector/sandbox-upstream.js'
import { createLogger } from '../../src/connector/logger.js'
import { startConnector } from '../../src/connector/server.js'
import { connectorForSuite, testConnectorConfig } from '../support/connector.js'

/**
 * The running connector: one server for both parts, readiness, and a logger that redacts. (That
 * the logs of a whole flow hold no secret is test/security/canary.test.ts.)
 */

const suite = connectorForSuite()

describe('the connector server', () => {
  it('answers /healthz when ready', async () => {
    const res = await suite.request('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok' })
  })

  it('serves oidc-provider and the app from one origin, every answer unframeable', async () => {
    for (const path of [
      '/healthz',
      '/oauth/jwks',
      '/.well-known/oauth-authorization-server',
      '/nowhere',
    ]) {
      const res = await suite.request('GET', path)
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
    }
    const missing = await suite.request('GET', '/nowhere')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toBe('not_found')
  })
})

describe('first run', () => {
  it('GET / says what this server is, with the three MCP URLs and the way to the person’s pages', async () => {
    const res = await suite.request('GET', '/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    for (const service of ['tasks', 'search', 'analytics'])
      expect(res.text).toContain(`<code>${suite.url}/${service}/mcp</code>`)
    expect(res.text).toContain('href="/connections"')
  })

  /** A request with its own Host header (fetch cannot set one). */
  function withHost(host: string, method: string, path: string, body?: string) {
    const url = new URL(suite.url)
    return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path,
            method,
            headers: {
              host: `${host}:${url.port}`,
              ...(body && {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              }),
            },
          },
          (res) => {
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => (text += chunk))
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }))
          },
        )
        req.on('error', reject)
        req.end(body)
      },
    )
  }

  it('another loopback name than PUBLIC_URL’s is told the address to use', async () => {
    const page = await withHost('localhost', 'GET', '/connections?x=1')
    expect(page.status).toBe(308)
    expect(page.headers.location).toBe(`${suite.url}/connections?x=1`)

    const mcp = await withHost(
      'localhost',
      'POST',
      '/tasks/mcp',
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    )
    expect(mcp.status).toBe(421)
    expect(JSON.parse(mcp.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringContaining(`use ${suite.url}/tasks/mcp`),
      },
    })
    const metadata = await withHost(
      'localhost',
      'GET',
      '/.well-known/oauth-protected-resource/tasks/mcp',
    )
    expect(metadata.status).toBe(421)
    expect(JSON.parse(metadata.text).error_description).toContain(
      `use ${suite.url}/.well-known/oauth-protected-resource/tasks/mcp`,
    )
    const token = await withHost('[::1]', 'POST', '/oauth/token', '{}')
    expect(token.status).toBe(421)

    // Under its own name, as before; a probe under any.
    expect((await withHost('127.0.0.1', 'GET', '/connections')).status).toBe(200)
    expect((await withHost('localhost', 'GET', '/healthz')).status).toBe(200)
  })
})

describe('the logger', () => {
  it('redacts secrets wherever a field of their name turns up', () => {
    const out: string[] = []
    const log = createLogger({ level: 'info' }, { write: (line: string) => void out.push(line) })
    log.info(
      {
        access_token: 'AT-1',
        refresh_token: 'RT-1',
        code: 'CODE-1',
        client_secret: 'CS-1',
        headers: { authorization: 'Bearer AT-2', cookie: '_session=S-1' },
        response: { token: 'AT-3', state: 'ST-1' },
      },
      'something happened',
    )
    const line = out.join('')
    expect(line).toContain('something happened')
    expect(line).toContain('[redacted]')
    for (const secret of ['AT-1', 'RT-1', 'CODE-1', 'CS-1', 'AT-2', 'S-1', 'AT-3', 'ST-1']) {
      expect(line).not.toContain(secret)
    }
  })
})

describe('starting', () => {
  it('refuses PostgreSQL without VAULT_KEY: replicas would each make their own key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-pg-'))
    try {
      const start = startConnector(
        testConnectorConfig(dataDir, sandboxUpstream('http://127.0.0.1:1'), {
          databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
          vaultKey: undefined,
        }),
        { log: pino({ level: 'silent' }) },
      )
      await expect(start).rejects.toThrow(
        /VAULT_KEY must be set when DATABASE_URL selects PostgreSQL/,
      )
      await expect(stat(join(dataDir, 'vault.key'))).rejects.toThrow()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('without VAULT_KEY on SQLite, makes a key file and warns', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-key-'))
    const warnings: string[] = []
    const connector = await startConnector(
      testConnectorConfig(dataDir, sandboxUpstream('http://127.0.0.1:1'), { vaultKey: undefined }),
      { log: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }) },
    )
    try {
      expect((await stat(join(dataDir, 'vault.key'))).mode & 0o777).toBe(0o600)
      expect(warnings.join('')).toContain('VAULT_KEY is not set')
      const res = await fetch(`${connector.url}/healthz`)
      expect(res.status).toBe(200)
    } finally {
      await connector.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('serves the issuer named by PUBLIC_URL', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-public-'))
    const connector = await startConnector(
      testConnectorConfig(dataDir, sandboxUpstream('http://127.0.0.1:1'), {
        publicUrl: 'https://connector.example',
      }),
      { log: pino({ level: 'silent' }) },
    )
    try {
      expect(connector.url).toBe('https://connector.example')
      const res = await fetch(`${connector.localUrl}/.well-known/oauth-authorization-server`)
      const metadata = await res.json()
      expect(metadata.issuer).toBe('https://connector.example')
      expect(metadata.token_endpoint).toBe('https://connector.example/oauth/token')
      const prm = await fetch(
        `${connector.localUrl}/.well-known/oauth-protected-resource/tasks/mcp`,
      )
      expect((await prm.json()).resource).toBe('https://connector.example/tasks/mcp')
    } finally {
      await connector.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
