import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { SERVICE_NAMES } from '../../src/services/catalog.js'
import { connectorForSuite } from '../support/connector.js'

/**
 * The MCP endpoints as OAuth protected resources (RFC 9728, RFC 6750). (Audience isolation
 * between the three is in test/security/audience-isolation.test.ts.)
 */

const suite = connectorForSuite()
const prmUrl = (service: string) =>
  `${suite.url}/.well-known/oauth-protected-resource/${service}/mcp`

/** The JSON-RPC result of an SSE or JSON answer. */
function rpcResult(text: string) {
  const data =
    text.startsWith('event:') || text.startsWith('data:')
      ? text
          .split('\n')
          .find((line) => line.startsWith('data: '))!
          .slice(6)
      : text
  return JSON.parse(data)
}

describe('protected resource metadata', () => {
  it.each(SERVICE_NAMES)('is served for %s', async (service) => {
    const res = await suite.request('GET', `/.well-known/oauth-protected-resource/${service}/mcp`)
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const scopes = {
      tasks: ['tasks.readonly', 'tasks'],
      search: ['webmasters.readonly', 'webmasters'],
      analytics: ['analytics.readonly'],
    }
    expect(res.body).toEqual({
      resource: `${suite.url}/${service}/mcp`,
      authorization_servers: [suite.url],
      scopes_supported: scopes[service],
      bearer_methods_supported: ['header'],
      resource_name: expect.stringContaining('Countersign'),
    })
  })
})

describe('the bearer challenge', () => {
  it('without a token: 401 naming the resource metadata, no error code', async () => {
    for (const service of SERVICE_NAMES) {
      const res = await suite.mcp(service, undefined)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${prmUrl(service)}"`,
      )
    }
  })

  it('with an unknown or malformed token: 401 invalid_token', async () => {
    for (const authorization of ['Bearer not-a-token', 'Basic dXNlcjpwYXNz', 'Bearer']) {
      const res = await suite.mcp('tasks', undefined, undefined, { authorization })
      expect(res.status, authorization).toBe(401)
      const challenge = res.headers.get('www-authenticate')!
      expect(challenge).toMatch(/^Bearer error="invalid_token"/)
      expect(challenge).toContain(`resource_metadata="${prmUrl('tasks')}"`)
      expect(res.body.error).toBe('invalid_token')
    }
  })

  it('with an expired token: 401 invalid_token', async () => {
    const { tokens } = await suite.connect({ service: 'tasks' })
    await suite.expireAccessToken(tokens.access_token)
    const res = await suite.mcp('tasks', tokens.access_token)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
  })

  it('with a token bound to a key or to a browser session, or a malformed record: 401 invalid_token', async () => {
    const edits: [string, (payload: Record<string, unknown>) => Record<string, unknown>][] = [
      ['bound to a DPoP key', (payload) => ({ ...payload, jkt: 'thumbprint' })],
      ['bound to a client certificate', (payload) => ({ ...payload, 'x5t#S256': 'thumbprint' })],
      ['bound to a browser session', (payload) => ({ ...payload, expiresWithSession: true })],
      ['without its client', ({ clientId: _, ...payload }) => payload],
      ['with a text expiry', (payload) => ({ ...payload, exp: String(payload.exp) })],
    ]
    for (const [what, edit] of edits) {
      const { tokens } = await suite.connect({ service: 'tasks' })
      expect((await suite.mcp('tasks', tokens.access_token)).status, what).toBe(200)
      await suite.editAccessToken(tokens.access_token, edit)
      const res = await suite.mcp('tasks', tokens.access_token)
      expect(res.status, what).toBe(401)
      expect(res.headers.get('www-authenticate'), what).toMatch(/^Bearer error="invalid_token"/)
    }
  })

  it('with a token lacking the scope a request needs: 403 insufficient_scope naming it', async () => {
    const { tokens } = await suite.connect({ service: 'tasks', scope: 'tasks.readonly' })
    const request = new Request(`${suite.url}/tasks/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    const { authenticator } = suite.connector.parts
    const read = await authenticator.authenticate(request, 'tasks')
    expect(read.ok).toBe(true)
    const write = await authenticator.authenticate(request, 'tasks', 'tasks')
    expect(write.ok).toBe(false)
    const response = (write as { response: Response }).response
    expect(response.status).toBe(403)
    const challenge = response.headers.get('www-authenticate')!
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="tasks"/)
    expect(challenge).toContain(`resource_metadata="${prmUrl('tasks')}"`)
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope', scope: 'tasks' })
  })
})

describe('the MCP endpoint', () => {
  it('answers initialize for 2025-11-25 clients', async () => {
    const { tokens } = await suite.connect({ service: 'search' })
    const res = await suite.mcp('search', tokens.access_token, {
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'test', version: '1' },
      },
    })
    expect(res.status).toBe(200)
    const { result } = rpcResult(res.text)
    expect(result.protocolVersion).toBe('2025-11-25')
    expect(result.serverInfo.name).toBe('countersign-search')
  })

  it('answers a page of another origin by its token, as any client: the challenge without one, the call with one', async () => {
    const { tokens } = await suite.connect({ service: 'tasks' })
    const origin = 'https://assistant.example'
    const anonymous = await suite.mcp('tasks', undefined, undefined, { origin })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=')
    const foreign = await suite.mcp('tasks', tokens.access_token, undefined, { origin })
    expect(foreign.status).toBe(200)
    const own = await suite.mcp('tasks', tokens.access_token, undefined, { origin: suite.url })
    expect(own.status).toBe(200)
  })

  /** A ping with a Host header of our choosing (fetch will not let a test set one). */
  function pingWithHost(host: string, token: string): Promise<number> {
    const url = new URL(`${suite.url}/tasks/mcp`)
    return new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: `${host}:${url.port}`,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode!)
        },
      )
      req.on('error', reject)
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))
    })
  }

  it('refuses a Host that is not its own (DNS rebinding)', async () => {
    const { tokens } = await suite.connect({ service: 'tasks' })
    expect(await pingWithHost('rebound.example', tokens.access_token)).toBe(403)
  })

  it('on loopback, answers under its own name; another loopback name is told the address, no other', async () => {
    const { tokens } = await suite.connect({ service: 'tasks' })
    expect(await pingWithHost('127.0.0.1', tokens.access_token)).toBe(200)
    // Hosts compare the address exactly: test/connector/server.test.ts, "first run".
    expect(await pingWithHost('localhost', tokens.access_token)).toBe(421)
    expect(await pingWithHost('127.0.0.2', tokens.access_token)).toBe(421)
    expect(await pingWithHost('rebound.example', tokens.access_token)).toBe(403)
  })
})
