import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, expect } from 'vitest'
import { sandboxUpstream, type ConnectorConfig } from '../../src/connector/config.js'
import {
  startConnector,
  type ConnectorOptions,
  type RunningConnector,
} from '../../src/connector/server.js'
import type { ServiceName } from '../../src/services/catalog.js'
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js'
import { digest } from '../../src/auth/adapter.js'
import { parseTokenSet } from '../../src/upstream/token-set.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'

/**
 * A real sandbox and a real connector on free ports, for one test file: the connector with a
 * temporary data folder (SQLite, unless `databaseUrl`) and a random VAULT_KEY.
 *
 *   const it = connectorForSuite()
 *   const client = await it.registerClient()
 *   const tokens = await it.connect({ client, service: 'tasks', person: it.person('alice') })
 *
 * `Person` is a browser driven like a person: it follows redirects, keeps cookies per host and
 * path, answers the connector's consent page and the sandbox's sign-in page. Anything that ends
 * at a client's redirect URI (an MCP SDK client's, say) can be driven with `person.authorize`.
 */

type ConnectorOverrides = Partial<Omit<ConnectorConfig, 'upstream'>>

export interface SuiteOptions {
  /** Settings over the defaults; a function when they are known only once the suite starts. */
  connector?: ConnectorOverrides | (() => Promise<ConnectorOverrides>)
  options?: ConnectorOptions
}

export interface Client {
  client_id: string
  client_secret?: string
  redirect_uri: string
  registration: Record<string, any>
}

export interface Pkce {
  verifier: string
  challenge: string
}

export interface TokenSet {
  access_token: string
  refresh_token: string
  token_type: string
  expires_in: number
  scope: string
}

export interface RequestOptions {
  token?: string
  json?: unknown
  form?: Record<string, string>
  headers?: Record<string, string>
}

export interface HttpAnswer<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export function connectorForSuite(suite: SuiteOptions = {}) {
  let sandbox: RunningSandbox | undefined
  let connector: RunningConnector | undefined
  let dataDir: string | undefined

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dataDir: ':memory:' })
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-connector-'))
    const overrides =
      typeof suite.connector === 'function' ? await suite.connector() : suite.connector
    connector = await startConnector(
      {
        port: 0,
        host: '127.0.0.1',
        publicUrl: '',
        dataDir,
        vaultKey: randomBytes(32).toString('base64'),
        allowLoopbackClientMetadata: false,
        upstream: sandboxUpstream(sandbox.url),
        ...overrides,
      },
      { log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), ...suite.options },
    )
  })
  afterAll(async () => {
    await connector?.close()
    await sandbox?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const harness = {
    get connector(): RunningConnector {
      if (!connector)
        throw new Error('the connector is not started yet: use it inside a test or hook')
      return connector
    },
    get sandbox(): RunningSandbox {
      if (!sandbox) throw new Error('the sandbox is not started yet: use it inside a test or hook')
      return sandbox
    },
    /** The connector's public URL (its issuer). */
    get url() {
      return harness.connector.url
    },
    get store() {
      return harness.connector.parts.store
    },
    resource: (service: ServiceName) => `${harness.url}/${service}/mcp`,

    /** One request to the connector (a path) or any URL; JSON in and out. */
    async request<T = any>(
      method: string,
      pathOrUrl: string,
      init: RequestOptions = {},
    ): Promise<HttpAnswer<T>> {
      const headers: Record<string, string> = { ...init.headers }
      if (init.token) headers.authorization = `Bearer ${init.token}`
      let body: string | undefined
      if (init.json !== undefined) {
        body = JSON.stringify(init.json)
        headers['content-type'] ??= 'application/json'
      } else if (init.form) {
        body = new URLSearchParams(init.form).toString()
        headers['content-type'] ??= 'application/x-www-form-urlencoded'
      }
      const url = pathOrUrl.startsWith('/') ? harness.url + pathOrUrl : pathOrUrl
      return answerOf<T>(await fetch(url, { method, headers, body, redirect: 'manual' }))
    },

    /** Dynamic client registration; a public client (PKCE, no secret) unless told otherwise. */
    async registerClient(metadata: Record<string, unknown> = {}): Promise<Client> {
      const redirectUri = `http://127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}/callback`
      const res = await harness.request('POST', '/oauth/register', {
        json: {
          client_name: 'Test assistant',
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          ...metadata,
        },
      })
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`)
      return {
        client_id: res.body.client_id,
        client_secret: res.body.client_secret,
        redirect_uri: res.body.redirect_uris[0],
        registration: res.body,
      }
    },

    pkce(): Pkce {
      const verifier = randomBytes(32).toString('base64url')
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
    },

    /** The authorization URL; `params` adds or (with undefined) removes parameters. */
    authorizationUrl(
      client: Client,
      service: ServiceName,
      pkce: Pkce,
      params: Record<string, string | string[] | undefined> = {},
    ): URL {
      const url = new URL('/oauth/authorize', harness.url)
      const all: Record<string, string | string[] | undefined> = {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: client.redirect_uri,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        resource: harness.resource(service),
        state: randomBytes(8).toString('hex'),
        ...params,
      }
      for (const [name, value] of Object.entries(all)) {
        for (const one of [value ?? []].flat()) url.searchParams.append(name, one)
      }
      return url
    },

    person: (user: string) => new Person(harness, user),

    /**
     * Opens the consent page of a new authorization (by default a new client named "Helpful
     * Assistant" asking for tasks) as `person`: the page's URL, answer and HTML.
     */
    async openConsent(person: Person, client?: Client, scope?: string) {
      client ??= await harness.registerClient({ client_name: 'Helpful Assistant' })
      const start = harness.authorizationUrl(client, 'tasks', harness.pkce(), { scope })
      const first = await person.fetch('GET', start.toString())
      expect(first.status).toBe(303)
      const consentUrl = new URL(first.headers.get('location')!, harness.url).toString()
      expect(consentUrl).toMatch(/\/consent\/[\w-]+$/)
      const res = await person.fetch('GET', consentUrl)
      return { client, consentUrl, res, html: await res.text() }
    },

    /** The token endpoint, with the client's credentials as it registered them. */
    async token(client: Client, params: Record<string, string>): Promise<HttpAnswer> {
      const form: Record<string, string> = { ...params }
      const headers: Record<string, string> = {}
      if (client.client_secret) {
        headers.authorization = `Basic ${Buffer.from(
          `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
        ).toString('base64')}`
      } else {
        form.client_id = client.client_id
      }
      return harness.request('POST', '/oauth/token', { form, headers })
    },

    exchangeCode(client: Client, code: string, pkce: Pkce, extra: Record<string, string> = {}) {
      return harness.token(client, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirect_uri,
        code_verifier: pkce.verifier,
        ...extra,
      })
    },

    refresh(client: Client, refreshToken: string, extra: Record<string, string> = {}) {
      return harness.token(client, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        ...extra,
      })
    },

    async revoke(client: Client, token: string, hint?: string): Promise<HttpAnswer> {
      const form: Record<string, string> = { token }
      if (hint) form.token_type_hint = hint
      if (!client.client_secret) form.client_id = client.client_id
      const headers: Record<string, string> = client.client_secret
        ? {
            authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
          }
        : {}
      return harness.request('POST', '/oauth/revoke', { form, headers })
    },

    /**
     * A whole authorization, as a person does it: consent, provider sign-in, back to the client,
     * then the code exchanged. Returns the tokens with what was used to get them.
     */
    async connect({
      client,
      service = 'tasks',
      person,
      scope,
    }: {
      client?: Client
      service?: ServiceName
      person?: Person
      scope?: string
    } = {}) {
      client ??= await harness.registerClient()
      person ??= harness.person(`user-${randomBytes(4).toString('hex')}`)
      const pkce = harness.pkce()
      const url = harness.authorizationUrl(client, service, pkce, { scope })
      const returned = await person.authorize(url)
      const code = returned.searchParams.get('code')
      if (!code) throw new Error(`no code came back: ${returned}`)
      const res = await harness.exchangeCode(client, code, pkce)
      if (res.status !== 200) throw new Error(`code exchange failed: ${res.status} ${res.text}`)
      return { client, person, pkce, code, tokens: res.body as TokenSet }
    },

    /** A JSON-RPC request to a service's MCP endpoint (2025-11-25 style). */
    mcp(
      service: ServiceName,
      token: string | undefined,
      message: Record<string, unknown> = { method: 'ping' },
      headers: Record<string, string> = {},
    ) {
      return harness.request('POST', `/${service}/mcp`, {
        token,
        json: { jsonrpc: '2.0', id: 1, ...message },
        headers: {
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
      })
    },

    /**
     * A person's grant link (the latest, or the one of `grantId`) and its upstream credential,
     * opened with the vault: undefined once erased.
     */
    async upstreamOf(account: string, grantId?: string) {
      const { store, vault } = harness.connector.parts
      let query = store.db.selectFrom('grant_links').selectAll().where('account', '=', account)
      if (grantId) query = query.where('grant_id', '=', grantId)
      const link = await query.orderBy('created_at', 'desc').executeTakeFirst()
      const credentialId =
        link?.credential_id ??
        (
          await store.db
            .selectFrom('upstream_credentials')
            .select('id')
            .where('subject', '=', account)
            .executeTakeFirst()
        )?.id
      const credential = credentialId
        ? await new UpstreamCredentials(store, vault).get(credentialId)
        : undefined
      return { link, credential, tokens: credential && parseTokenSet(credential.secret) }
    },

    /**
     * What the connector holds, counted: for "nothing issued, nothing stored" after a refusal.
     * oauth_records by kind, plus grant links, upstream credentials and pending authorizations.
     */
    async holdings(): Promise<Record<string, number>> {
      const { db } = harness.store
      const counts: Record<string, number> = {}
      const records = await db
        .selectFrom('oauth_records')
        .select(['kind', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('kind')
        .execute()
      for (const { kind, count } of records) counts[kind] = Number(count)
      for (const table of [
        'grant_links',
        'upstream_credentials',
        'upstream_authorizations',
        'person_sessions',
      ] as const) {
        const { count } = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
        counts[table] = Number(count)
      }
      return counts
    },

    /** Makes an access token expired, as if its 10 minutes had passed. */
    async expireAccessToken(token: string) {
      const { db } = harness.store
      const where = { kind: 'AccessToken', id: digest(token) }
      const row = await db
        .selectFrom('oauth_records')
        .select('payload')
        .where('kind', '=', where.kind)
        .where('id', '=', where.id)
        .executeTakeFirstOrThrow()
      const payload = { ...JSON.parse(row.payload), exp: Math.floor(Date.now() / 1000) - 60 }
      await db
        .updateTable('oauth_records')
        .set({ payload: JSON.stringify(payload) })
        .where('kind', '=', where.kind)
        .where('id', '=', where.id)
        .execute()
    },

    /** The sandbox's control API and pages. */
    sandboxRequest(method: string, path: string, init: RequestOptions = {}): Promise<HttpAnswer> {
      return harness.request(method, harness.sandbox.url + path, init)
    },
  }
  return harness
}

export type ConnectorHarness = ReturnType<typeof connectorForSuite>

/** What a person's authorization ended with, short of the client's redirect URI. */
export class AuthorizationStopped extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly page: string,
  ) {
    super(`the authorization stopped at ${url} with ${status}`)
  }
}

/**
 * A person at a browser: cookies per host and path, redirects followed by hand. They answer the
 * connector's consent page with `consent` and the provider's page with their user name and
 * `provider`; `seen` lists the pages they were shown.
 */
export class Person {
  readonly cookies = new CookieJar()
  seen: ('consent' | 'provider')[] = []

  constructor(
    private readonly harness: Pick<ConnectorHarness, 'url' | 'sandbox'>,
    readonly user: string,
  ) {}

  /**
   * Starts at an authorization URL and goes on until the browser is sent to a URL that is
   * neither the connector's nor the sandbox's (the client's redirect URI), which it returns.
   */
  async authorize(
    start: URL | string,
    choices: { consent?: 'Allow' | 'Deny'; provider?: 'Allow' | 'Deny' } = {},
  ): Promise<URL> {
    this.seen = []
    const end = await this.browse({ method: 'GET', url: start.toString() }, choices)
    if (end.left) return end.left
    throw new AuthorizationStopped(end.status, end.url, end.text)
  }

  /**
   * Signs in to the connector's connections page through the provider, as the person would:
   * the page, its Sign in button, the provider's form; returns the page they end on.
   */
  async signInToConnections(
    choices: { provider?: 'Allow' | 'Deny' } = {},
  ): Promise<{ status: number; url: string; text: string }> {
    this.seen = []
    const start = await this.fetch('GET', `${this.harness.url}/connections`)
    const csrf = csrfOf(await start.text())
    const end = await this.browse(
      { method: 'POST', url: `${this.harness.url}/connections/sign-in`, form: { csrf } },
      choices,
    )
    if (end.left) throw new Error(`the sign-in left for ${end.left}`)
    return end
  }

  /**
   * Follows redirects and answers the consent page, the provider's page and oidc-provider's
   * self-submitting forms, until the browser leaves for another origin (`left`) or stops on
   * any other page.
   */
  private async browse(
    first: { method: string; url: string; form?: Record<string, string> },
    {
      consent = 'Allow',
      provider = 'Allow',
    }: { consent?: 'Allow' | 'Deny'; provider?: 'Allow' | 'Deny' },
  ): Promise<{ left: URL } | { left?: undefined; status: number; url: string; text: string }> {
    let next = first
    for (let step = 0; step < 20; step += 1) {
      if (!this.isOurs(next.url)) return { left: new URL(next.url) }
      const res = await this.fetch(next.method, next.url, next.form)
      const location = res.headers.get('location')
      if (res.status >= 300 && res.status < 400 && location) {
        next = { method: 'GET', url: new URL(location, next.url).toString() }
        continue
      }
      const text = await res.text()
      if (res.status === 200 && next.url.startsWith(`${this.harness.url}/consent/`)) {
        this.seen.push('consent')
        next = { method: 'POST', url: next.url, form: { csrf: csrfOf(text), [consent]: consent } }
        continue
      }
      if (
        res.status === 200 &&
        next.url.startsWith(`${this.harness.sandbox.url}/oauth/authorize`)
      ) {
        this.seen.push('provider')
        const action = /<form method="post" action="([^"]+)"/.exec(text)?.[1]
        if (!action) throw new Error('no form on the provider page')
        next = {
          method: 'POST',
          url: new URL(unescapeHtml(action), next.url).toString(),
          form: { user: this.user, [provider]: provider },
        }
        continue
      }
      // oidc-provider's self-submitting forms (a change of account at the provider signs the
      // previous one out first): submitted as a browser with JavaScript would.
      if (res.status === 200 && text.includes('<title>Submitting Callback</title>')) {
        const action = /<form method="post" action="([^"]+)"/.exec(text)?.[1]
        const fields = [...text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)]
        if (action) {
          next = {
            method: 'POST',
            url: new URL(unescapeHtml(action), next.url).toString(),
            form: Object.fromEntries(
              fields.map(([, name, value]) => [name!, unescapeHtml(value!)]),
            ),
          }
          continue
        }
      }
      return { status: res.status, url: next.url, text }
    }
    throw new Error('too many steps')
  }

  /** One request as this browser: its cookies sent, the answer's cookies kept, no redirects. */
  async fetch(
    method: string,
    url: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const target = new URL(url)
    const cookie = this.cookies.header(target)
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    })
    this.cookies.store(target, res.headers.getSetCookie())
    return res
  }

  private isOurs(url: string) {
    return url.startsWith(`${this.harness.url}/`) || url.startsWith(`${this.harness.sandbox.url}/`)
  }
}

/** The first answer to a request (an authorization request, say), without following anything. */
export async function firstAnswer(url: URL) {
  const res = await fetch(url, { redirect: 'manual' })
  const location = res.headers.get('location')
  return {
    status: res.status,
    headers: res.headers,
    location: location ? new URL(location, url) : undefined,
    text: await res.text(),
  }
}

export const csrfOf = (page: string) => {
  const value = /name="csrf" value="([^"]+)"/.exec(page)?.[1]
  if (!value) throw new Error('no CSRF field on the page')
  return value
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')

interface Cookie {
  host: string
  name: string
  value: string
  path: string
  expires: number
}

/** Just enough of RFC 6265 for these tests: host-only cookies, Path, Max-Age and Expires. */
export class CookieJar {
  #cookies: Cookie[] = []

  store(url: URL, setCookies: string[]) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim())
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/'
      let expires = Infinity
      for (const attribute of attributes) {
        const [key, val = ''] = attribute.split('=')
        const lower = key!.toLowerCase()
        if (lower === 'path') path = val || '/'
        if (lower === 'max-age') expires = Date.now() + Number(val) * 1000
        if (lower === 'expires' && expires === Infinity) expires = Date.parse(val)
      }
      this.#cookies = this.#cookies.filter(
        (c) => !(c.host === url.host && c.name === name && c.path === path),
      )
      if (expires > Date.now() && value !== '')
        this.#cookies.push({ host: url.host, name, value, path, expires })
    }
  }

  header(url: URL): string {
    return this.#cookies
      .filter(
        (c) => c.host === url.host && c.expires > Date.now() && pathMatches(url.pathname, c.path),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ')
  }

  names(url: URL) {
    return this.header(url)
      .split('; ')
      .filter(Boolean)
      .map((pair) => pair.slice(0, pair.indexOf('=')))
  }
}

const pathMatches = (requestPath: string, cookiePath: string) =>
  requestPath === cookiePath ||
  (requestPath.startsWith(cookiePath) &&
    (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'))

async function answerOf<T>(res: Response): Promise<HttpAnswer<T>> {
  const text = await res.text()
  let body: unknown = undefined
  if (text && (res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text)
  return { status: res.status, headers: res.headers, body: body as T, text }
}
