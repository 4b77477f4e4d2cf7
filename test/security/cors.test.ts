import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectorForSuite, csrfOf, SERVICE_NAMES } from '@countersign/connector/testing'
import { chromiumForSuite, realBrowserAvailable } from '../support/browser.js'
import type { WebClient } from '../support/web-client-page.js'

/**
 * Clients that run in a web page call the connector across origins: its discovery documents,
 * registration, token and revocation endpoints and the three MCP endpoints answer CORS for
 * bearer requests from any origin (preflights included, `WWW-Authenticate` and MCP's headers
 * exposed), never with credentials. The person's pages, which a browser's cookies reach, answer
 * no CORS at all. DNS rebinding stays refused by the Host check, whatever the Origin. First over
 * plain HTTP with an Origin header, then in Chromium, from a page of another origin: what the
 * browser itself lets through, and the MCP SDK's own client run in that page.
 */

const suite = connectorForSuite()
const FOREIGN = 'https://assistant.example'

/** The request headers a page's MCP client asks to send, in a preflight. */
const MCP_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]

const listOf = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)

/** An answer a page of any origin may read, that never involves the browser's credentials. */
function expectOpen(what: string, headers: Headers) {
  expect(headers.get('access-control-allow-origin'), what).toBe('*')
  expect(headers.get('access-control-allow-credentials'), what).toBeNull()
  expect(listOf(headers.get('access-control-expose-headers')), what).toEqual(
    expect.arrayContaining([
      'www-authenticate',
      'retry-after',
      'mcp-session-id',
      'mcp-protocol-version',
    ]),
  )
}

/** An answer with no CORS header at all: a page of another origin reads nothing of it. */
function expectClosed(what: string, headers: Headers) {
  const cors = [...headers.keys()].filter((name) => name.startsWith('access-control-'))
  expect(cors, what).toEqual([])
}

const preflight = (path: string, method: string, requestHeaders = MCP_REQUEST_HEADERS) =>
  suite.request('OPTIONS', path, {
    headers: {
      origin: FOREIGN,
      'access-control-request-method': method,
      'access-control-request-headers': requestHeaders.join(','),
    },
  })

/** The connector's bearer endpoints, with the method a page calls each with. */
const BEARER_ENDPOINTS: [string, string][] = [
  ['/.well-known/oauth-authorization-server', 'GET'],
  ['/.well-known/openid-configuration', 'GET'],
  ...SERVICE_NAMES.map((s): [string, string] => [
    `/.well-known/oauth-protected-resource/${s}/mcp`,
    'GET',
  ]),
  ['/oauth/register', 'POST'],
  ['/oauth/token', 'POST'],
  ['/oauth/revoke', 'POST'],
  ...SERVICE_NAMES.flatMap((s): [string, string][] => [
    [`/${s}/mcp`, 'POST'],
    [`/${s}/mcp`, 'GET'],
    [`/${s}/mcp`, 'DELETE'],
  ]),
]

/** A POST to the MCP endpoint with a Host and Origin of our choosing (fetch keeps its own Host). */
function mcpWithHost(host: string, origin: string, token?: string, method = 'POST') {
  const url = new URL(`${suite.url}/tasks/mcp`)
  return new Promise<{ status: number; headers: Headers }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: {
          host: `${host}:${url.port}`,
          origin,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(method === 'OPTIONS' && {
            'access-control-request-method': 'POST',
            'access-control-request-headers': MCP_REQUEST_HEADERS.join(','),
          }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
      },
      (res) => {
        res.resume()
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers.set(name, value)
        resolve({ status: res.statusCode!, headers })
      },
    )
    req.on('error', reject)
    req.end(
      method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) : undefined,
    )
  })
}

describe('CORS for clients in a web page', () => {
  describe('the bearer endpoints, for any origin', () => {
    it.each(BEARER_ENDPOINTS)(
      '%s answers a preflight for %s: 204, the method and every MCP header allowed, no credentials',
      async (path, method) => {
        const res = await preflight(path, method)
        expect(res.status).toBe(204)
        expectOpen(path, res.headers)
        expect(listOf(res.headers.get('access-control-allow-methods'))).toContain(
          method.toLowerCase(),
        )
        expect(listOf(res.headers.get('access-control-allow-headers'))).toEqual(
          expect.arrayContaining(MCP_REQUEST_HEADERS),
        )
        expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0)
      },
    )

    it('the discovery documents are read from another origin', async () => {
      for (const [path] of BEARER_ENDPOINTS.filter(([p]) => p.startsWith('/.well-known/'))) {
        const res = await suite.request('GET', path, {
          headers: { origin: FOREIGN, 'mcp-protocol-version': '2026-07-28' },
        })
        expect(res.status, path).toBe(200)
        expectOpen(path, res.headers)
      }
    })

    it('registration, the code exchange, a refresh, an error and revocation are read from another origin', async () => {
      const origin = { origin: FOREIGN }
      const registered = await suite.request('POST', '/oauth/register', {
        headers: origin,
        json: {
          client_name: 'Web Page Assistant',
          redirect_uris: ['https://assistant.example/callback'],
          token_endpoint_auth_method: 'none',
        },
      })
      expect(registered.status).toBe(201)
      expectOpen('registration', registered.headers)
      const client = {
        client_id: registered.body.client_id as string,
        redirect_uri: 'https://assistant.example/callback',
        registration: registered.body,
      }

      const pkce = suite.pkce()
      const back = await suite
        .person('web-page')
        .authorize(suite.authorizationUrl(client, 'tasks', pkce))
      const token = (form: Record<string, string>) =>
        suite.request('POST', '/oauth/token', {
          headers: origin,
          form: { client_id: client.client_id, ...form },
        })
      const exchanged = await token({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: client.redirect_uri,
        code_verifier: pkce.verifier,
      })
      expect(exchanged.status).toBe(200)
      expectOpen('code exchange', exchanged.headers)
      expect(exchanged.headers.get('cache-control')).toBe('no-store')

      const refreshed = await token({
        grant_type: 'refresh_token',
        refresh_token: exchanged.body.refresh_token,
      })
      expect(refreshed.status).toBe(200)
      expectOpen('refresh', refreshed.headers)

      const reused = await token({
        grant_type: 'refresh_token',
        refresh_token: 'not-a-refresh-token',
      })
      expect(reused.status).toBe(400)
      expect(reused.body.error).toBe('invalid_grant')
      expectOpen('token error', reused.headers)

      const revoked = await suite.request('POST', '/oauth/revoke', {
        headers: origin,
        form: { client_id: client.client_id, token: refreshed.body.access_token },
      })
      expect(revoked.status).toBe(200)
      expectOpen('revocation', revoked.headers)
      expect((await suite.mcp('tasks', refreshed.body.access_token)).status).toBe(401)
    })

    it('a confidential client is answered from another origin too', async () => {
      const { client, tokens } = await suite.connect({
        client: await suite.registerClient({ token_endpoint_auth_method: 'client_secret_basic' }),
      })
      const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')
      const res = await suite.request('POST', '/oauth/token', {
        headers: { origin: FOREIGN, authorization: `Basic ${basic}` },
        form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      })
      expect(res.status).toBe(200)
      expectOpen('confidential refresh', res.headers)
    })

    it("the connector's own answer in front of the authorization server carries CORS too (413)", async () => {
      const res = await suite.request('POST', '/oauth/register', {
        headers: { origin: FOREIGN },
        json: { client_name: 'x'.repeat(100_000), redirect_uris: ['https://a.example/cb'] },
      })
      expect(res.status).toBe(413)
      expectOpen('413', res.headers)
    })

    it.each(SERVICE_NAMES)(
      '/%s/mcp: the 401 challenge is readable without a token, the call with one',
      async (service) => {
        const anonymous = await suite.mcp(service, undefined, undefined, { origin: FOREIGN })
        expect(anonymous.status).toBe(401)
        expectOpen('401', anonymous.headers)
        expect(anonymous.headers.get('www-authenticate')).toBe(
          `Bearer resource_metadata="${suite.url}/.well-known/oauth-protected-resource/${service}/mcp"`,
        )
        const { tokens } = await suite.connect({ service })
        const called = await suite.mcp(service, tokens.access_token, undefined, { origin: FOREIGN })
        expect(called.status).toBe(200)
        expectOpen('200', called.headers)
      },
    )
  })

  describe("the person's pages: no CORS at all", () => {
    it('consent, the authorization endpoint, the provider’s return, connections, approvals, activity and sign-in answer a page of another origin with no CORS header, preflight or not', async () => {
      const person = suite.person('no-cors-pages')
      const { consentUrl } = await suite.openConsent(person)
      const client = await suite.registerClient()
      const authorize = suite.authorizationUrl(client, 'tasks', suite.pkce()).toString()
      const connections = await person.fetch('GET', `${suite.url}/connections`)
      const csrf = csrfOf(await connections.text())

      const pages: [string, string][] = [
        ['GET', consentUrl],
        ['POST', consentUrl],
        ['GET', `${consentUrl}/choose`],
        ['GET', authorize],
        ['GET', `${suite.url}/upstream/callback?code=x&state=y`],
        ['GET', `${suite.url}/connections`],
        ['POST', `${suite.url}/connections/sign-in`],
        ['POST', `${suite.url}/connections/disconnect`],
        ['GET', `${suite.url}/approvals`],
        ['GET', `${suite.url}/approvals/some-approval`],
        ['POST', `${suite.url}/approvals/sign-in`],
        ['GET', `${suite.url}/activity`],
        ['GET', `${suite.url}/oauth/session/end`],
      ]
      for (const [method, url] of pages) {
        const what = `${method} ${new URL(url).pathname}`
        const asked = await person.fetch(method, url, method === 'POST' ? { csrf } : undefined, {
          origin: FOREIGN,
        })
        await asked.body?.cancel()
        expectClosed(what, asked.headers)
        const before = await person.fetch('OPTIONS', url, undefined, {
          origin: FOREIGN,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type',
        })
        await before.body?.cancel()
        expect(before.status, `preflight of ${what}`).not.toBe(204)
        expectClosed(`preflight of ${what}`, before.headers)
      }
    })
  })

  describe('DNS rebinding, with CORS on', () => {
    it('a Host that is not the connector’s is refused whatever the Origin, even with a valid token, preflight included, and no CORS header', async () => {
      const { tokens } = await suite.connect()
      for (const origin of ['http://rebound.example:8080', suite.url, FOREIGN]) {
        const call = await mcpWithHost('rebound.example', origin, tokens.access_token)
        expect(call.status, origin).toBe(403)
        expectClosed(origin, call.headers)
        const before = await mcpWithHost('rebound.example', origin, undefined, 'OPTIONS')
        expect(before.status, origin).toBe(403)
        expectClosed(origin, before.headers)
      }
    })

    it('another origin calling the connector by its own name is a web client: the challenge without a token, the call with one', async () => {
      const { tokens } = await suite.connect()
      const host = new URL(suite.url).hostname
      expect((await mcpWithHost(host, FOREIGN)).status).toBe(401)
      expect((await mcpWithHost(host, FOREIGN, tokens.access_token)).status).toBe(200)
    })
  })
})

const browserAvailable = realBrowserAvailable('the CORS tests in a real browser')

/**
 * A web client's page, served for the file on another origin than the connector's: the
 * connector is at 127.0.0.1, the page at `localhost`, each on its own port. Its script is the
 * MCP SDK's client (web-client-page.ts), bundled for the browser.
 */
function webPageForSuite() {
  let server: Server | undefined
  let origin = ''
  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [new URL('../support/web-client-page.ts', import.meta.url).pathname],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    })
    const html =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web client</title></head>' +
      `<body><script>${bundled.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script')}</script></body></html>`
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(html)
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    origin = `http://localhost:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve())
      server?.closeAllConnections()
    })
  })
  return {
    get origin() {
      return origin
    },
  }
}

/**
 * What the page's script answered. Its error is rethrown with the first line of its message
 * only: the rest is the browser's stack, whose frames name the page's URL, which vitest would
 * try to read as a source file.
 */
const fromPage = <T>(answer: Promise<T>): Promise<T> =>
  answer.catch((error: Error) => {
    throw new Error(`in the page: ${error.message.split('\n')[0]}`)
  })

describe.skipIf(!browserAvailable)('CORS in a real browser (Chromium)', () => {
  const chrome = chromiumForSuite()
  const web = webPageForSuite()

  async function openWebPage(): Promise<Page> {
    const page = await chrome.browser.newContext().then((context) => context.newPage())
    await page.goto(`${web.origin}/`)
    return page
  }

  it('a page of another origin reads the 401’s WWW-Authenticate, the metadata, and a call’s answer; never with the browser’s credentials; never a person’s page', async () => {
    const { tokens } = await suite.connect()
    const page = await openWebPage()
    const seen = await fromPage(
      page.evaluate(
        async ({ connector, token }) => {
          const rpc = (init: RequestInit = {}) =>
            fetch(`${connector}/tasks/mcp`, {
              method: 'POST',
              ...init,
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'mcp-protocol-version': '2025-11-25',
                ...(init.headers as Record<string, string>),
              },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
            })
          const blocked = (promise: Promise<Response>) =>
            promise.then(
              (res) => `read ${res.status}`,
              (error: Error) => error.name,
            )
          const challenge = await rpc()
          const metadata = await fetch(
            `${connector}/.well-known/oauth-protected-resource/tasks/mcp`,
            { headers: { 'mcp-protocol-version': '2026-07-28' } },
          ).then((res) => res.json())
          const server = await fetch(`${connector}/.well-known/oauth-authorization-server`, {
            headers: { 'mcp-protocol-version': '2026-07-28' },
          }).then((res) => res.json())
          const called = await rpc({ headers: { authorization: `Bearer ${token}` } })
          return {
            challenge: {
              status: challenge.status,
              header: challenge.headers.get('www-authenticate'),
            },
            resource: metadata.resource,
            issuer: server.issuer,
            called: { status: called.status, body: await called.text() },
            withCredentials: await blocked(
              rpc({ credentials: 'include', headers: { authorization: `Bearer ${token}` } }),
            ),
            connections: await blocked(fetch(`${connector}/connections`)),
            consent: await blocked(fetch(`${connector}/oauth/authorize`)),
          }
        },
        { connector: suite.url, token: tokens.access_token },
      ),
    )
    expect(seen.challenge).toEqual({
      status: 401,
      header: `Bearer resource_metadata="${suite.url}/.well-known/oauth-protected-resource/tasks/mcp"`,
    })
    expect(seen.resource).toBe(`${suite.url}/tasks/mcp`)
    expect(seen.issuer).toBe(suite.url)
    expect(seen.called.status).toBe(200)
    expect(seen.called.body).toContain('"result":{}')
    // `*` never goes with credentials: the browser shows the page nothing.
    expect(seen.withCredentials).toBe('TypeError')
    expect(seen.connections).toBe('TypeError')
    expect(seen.consent).toBe('TypeError')
    await page.context().close()
  })

  it('the MCP SDK’s client in a page of another origin: discovery, registration, the token and tool calls at each protocol revision', async () => {
    const page = await openWebPage()
    const redirectUri = `${web.origin}/callback`
    const authorizationUrl = await fromPage(
      page.evaluate(
        ([server, redirect]) => window.webClient.authorize(server!, redirect!),
        [suite.resource('tasks'), redirectUri],
      ),
    )
    expect(authorizationUrl.startsWith(`${suite.url}/oauth/authorize?`)).toBe(true)

    const back = await suite.person('web-page-sdk').authorize(authorizationUrl)
    expect(back.origin + back.pathname).toBe(redirectUri)
    await fromPage(page.evaluate((query) => window.webClient.finish(query), back.search))

    for (const era of ['2026-07-28', '2025-11-25'] as const) {
      const used = await fromPage(
        page.evaluate((e) => window.webClient.use(e, 'list_task_lists'), era),
      )
      expect(used.tools, era).toContain('list_task_lists')
      expect(used.isError, `${era}: ${used.text}`).toBe(false)
    }
    const seen: WebClient['seen'] = await page.evaluate(() => window.webClient.seen)
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/tasks\/mcp 401$/),
        'GET /.well-known/oauth-protected-resource/tasks/mcp 200',
        'GET /.well-known/oauth-authorization-server 200',
        'POST /oauth/register 201',
        'POST /oauth/token 200',
        'POST /tasks/mcp 200',
      ]),
    )
    await page.context().close()
  })
})
