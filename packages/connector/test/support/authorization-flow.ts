import { createHash, randomBytes } from 'node:crypto'
import type { ServiceName } from '../../src/services/catalog.js'

/**
 * The OAuth flow of the connector, driven the way an assistant and a person drive it, over plain
 * HTTP and with no test runner: shared by the test harness (connector.ts) and the benchmarks.
 *
 *   const flow = new AuthorizationFlow({ url: connectorUrl, sandbox: { url: sandboxUrl } })
 *   const { tokens } = await flow.connect({ service: 'tasks', person: flow.person('alice') })
 *
 * `Person` is a browser driven like a person: it follows redirects, keeps cookies per host and
 * path, answers the connector's consent page and the sandbox's sign-in page. Anything that ends
 * at a client's redirect URI (an MCP SDK client's, say) can be driven with `person.authorize`.
 */

/**
 * Where the connector and the sandbox are (read when used: a harness knows them late); the
 * sandbox's Google origin when the connector uses the Google profile.
 */
export interface Endpoints {
  readonly url: string
  readonly sandbox: { readonly url: string; readonly googleUrl?: string }
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

export class AuthorizationFlow {
  constructor(private readonly endpoints: Endpoints) {}

  get url() {
    return this.endpoints.url
  }

  resource(service: ServiceName) {
    return `${this.url}/${service}/mcp`
  }

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
    const url = pathOrUrl.startsWith('/') ? this.url + pathOrUrl : pathOrUrl
    return answerOf<T>(await fetch(url, { method, headers, body, redirect: 'manual' }))
  }

  /** A JSON-RPC request to a service's MCP endpoint (2025-11-25 style). */
  mcp(
    service: ServiceName,
    token: string | undefined,
    message: Record<string, unknown> = { method: 'ping' },
    headers: Record<string, string> = {},
  ) {
    return this.request('POST', `/${service}/mcp`, {
      token,
      json: { jsonrpc: '2.0', id: 1, ...message },
      headers: {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
    })
  }

  /** Dynamic client registration; a public client (PKCE, no secret) unless told otherwise. */
  async registerClient(metadata: Record<string, unknown> = {}): Promise<Client> {
    // Nothing listens there: the browser stops at it. Its port is below the ephemeral range
    // (32768 and up on Linux) that the tests' own servers get, so it can never be one of theirs.
    const redirectUri = `http://127.0.0.1:${20000 + Math.floor(Math.random() * 10000)}/callback`
    const res = await this.request('POST', '/oauth/register', {
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
  }

  pkce(): Pkce {
    const verifier = randomBytes(32).toString('base64url')
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
  }

  /** The authorization URL; `params` adds or (with undefined) removes parameters. */
  authorizationUrl(
    client: Client,
    service: ServiceName,
    pkce: Pkce,
    params: Record<string, string | string[] | undefined> = {},
  ): URL {
    const url = new URL('/oauth/authorize', this.url)
    const all: Record<string, string | string[] | undefined> = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      resource: this.resource(service),
      state: randomBytes(8).toString('hex'),
      ...params,
    }
    for (const [name, value] of Object.entries(all)) {
      for (const one of [value ?? []].flat()) url.searchParams.append(name, one)
    }
    return url
  }

  person(user: string) {
    return new Person(this.endpoints, user)
  }

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
    return this.request('POST', '/oauth/token', { form, headers })
  }

  exchangeCode(client: Client, code: string, pkce: Pkce, extra: Record<string, string> = {}) {
    return this.token(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirect_uri,
      code_verifier: pkce.verifier,
      ...extra,
    })
  }

  refresh(client: Client, refreshToken: string, extra: Record<string, string> = {}) {
    return this.token(client, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...extra,
    })
  }

  async revoke(client: Client, token: string, hint?: string): Promise<HttpAnswer> {
    const form: Record<string, string> = { token }
    if (hint) form.token_type_hint = hint
    if (!client.client_secret) form.client_id = client.client_id
    const headers: Record<string, string> = client.client_secret
      ? {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        }
      : {}
    return this.request('POST', '/oauth/revoke', { form, headers })
  }

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
    client ??= await this.registerClient()
    person ??= this.person(`user-${randomBytes(4).toString('hex')}`)
    const pkce = this.pkce()
    const url = this.authorizationUrl(client, service, pkce, { scope })
    const returned = await person.authorize(url)
    const code = returned.searchParams.get('code')
    if (!code) throw new Error(`no code came back: ${returned}`)
    const res = await this.exchangeCode(client, code, pkce)
    if (res.status !== 200) throw new Error(`code exchange failed: ${res.status} ${res.text}`)
    return { client, person, pkce, code, tokens: res.body as TokenSet }
  }
}

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
 * What a person chooses that a grant covers, on the page after the provider's sign-in:
 * `'all'` (every one, including those added later; what most suites need), `'as shown'` (Allow
 * pressed without touching anything, as a browser sends the form), or exactly these ids.
 */
export type Cover = 'all' | 'as shown' | readonly string[]

export interface PersonChoices {
  consent?: 'Allow' | 'Deny'
  provider?: 'Allow' | 'Deny'
  /** The coverage page's answer: what to cover (`covers` unless told), Deny, or stop there. */
  cover?: Cover | 'Deny' | 'stop'
}

/**
 * A person at a browser: cookies per host and path, redirects followed by hand. They answer the
 * connector's consent page with `consent`, the provider's page with their user name and
 * `provider`, and the connector's coverage page with `cover`; `seen` lists the pages they were
 * shown.
 */
export class Person {
  readonly cookies = new CookieJar()
  seen: ('consent' | 'provider' | 'choice')[] = []
  /** What they choose that their grants cover, unless an authorization says otherwise. */
  covers: Cover = 'all'

  constructor(
    private readonly harness: Endpoints,
    readonly user: string,
  ) {}

  /**
   * Starts at an authorization URL and goes on until the browser is sent to a URL that is
   * neither the connector's nor the sandbox's (the client's redirect URI), which it returns.
   */
  async authorize(start: URL | string, choices: PersonChoices = {}): Promise<URL> {
    this.seen = []
    const end = await this.browse({ method: 'GET', url: start.toString() }, choices)
    if (end.left) return end.left
    throw new AuthorizationStopped(end.status, end.url, end.text)
  }

  /**
   * Signs in to the connector's connections page through the provider, as the person would:
   * the page, its Sign in button, the provider's form; returns the page they end on.
   */
  signInToConnections(
    choices: { provider?: 'Allow' | 'Deny' } = {},
  ): Promise<{ status: number; url: string; text: string }> {
    return this.signInOnPage(`${this.harness.url}/connections`, choices)
  }

  /**
   * From a page of the connector with a Sign in form (connections, an approval): the button, the
   * provider's form, and back: the page the browser ends on.
   */
  async signInOnPage(
    pageUrl: string,
    choices: { provider?: 'Allow' | 'Deny' } = {},
  ): Promise<{ status: number; url: string; text: string }> {
    this.seen = []
    const page = await (await this.fetch('GET', pageUrl)).text()
    const action = /<form method="post" action="([^"]*\/sign-in)">/.exec(page)?.[1]
    if (!action) throw new Error(`no Sign in form on ${pageUrl}`)
    const end = await this.browse(
      { method: 'POST', url: new URL(action, pageUrl).toString(), form: { csrf: csrfOf(page) } },
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
    first: { method: string; url: string; form?: Record<string, string> | URLSearchParams },
    { consent = 'Allow', provider = 'Allow', cover = this.covers }: PersonChoices,
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
      if (
        res.status === 200 &&
        /\/consent\/[^/?]+\/choose(\?|$)/.test(next.url.slice(this.harness.url.length))
      ) {
        this.seen.push('choice')
        if (cover === 'stop') return { status: res.status, url: next.url, text }
        next = { method: 'POST', url: next.url, form: coverageAnswer(text, cover) }
        continue
      }
      if (res.status === 200 && next.url.startsWith(`${this.harness.url}/consent/`)) {
        this.seen.push('consent')
        next = { method: 'POST', url: next.url, form: { csrf: csrfOf(text), [consent]: consent } }
        continue
      }
      if (res.status === 200 && this.isProviderPage(next.url)) {
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
    /** A form, as fields; URLSearchParams for a field given more than once. */
    form?: Record<string, string> | URLSearchParams,
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
    const { sandbox } = this.harness
    return [this.harness.url, sandbox.url, sandbox.googleUrl].some(
      (origin) => origin !== undefined && url.startsWith(`${origin}/`),
    )
  }

  /** The provider's sign-in and consent page, in the generic dialect or Google's. */
  private isProviderPage(url: string) {
    const { sandbox } = this.harness
    return (
      url.startsWith(`${sandbox.url}/oauth/authorize`) ||
      (sandbox.googleUrl !== undefined && url.startsWith(`${sandbox.googleUrl}/o/oauth2/v2/auth`))
    )
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

/**
 * The coverage page's form as the person sends it: Deny; every one; exactly `ids`; or the form
 * untouched, as a browser sends it (its checked radio and ticked boxes).
 */
export function coverageAnswer(page: string, cover: Cover | 'Deny'): URLSearchParams {
  const form = new URLSearchParams({ csrf: csrfOf(page) })
  if (cover === 'Deny') {
    form.set('Deny', 'Deny')
    return form
  }
  if (cover === 'as shown') {
    for (const [input] of page.matchAll(/<input\b[^>]*>/g)) {
      const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(input)?.[1]
      if (!/\schecked\b/.test(input) || !['radio', 'checkbox'].includes(attribute('type')!))
        continue
      form.append(attribute('name')!, unescapeHtml(attribute('value')!))
    }
  } else if (cover === 'all') form.set('access', 'all')
  else {
    form.set('access', 'chosen')
    for (const id of cover) form.append('resource', id)
  }
  form.set('Allow', 'Allow')
  return form
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

/**
 * Just enough of RFC 6265 for these tests: host-only cookies, Path, Max-Age and Expires. As in a
 * browser, a cookie is the host name's whatever the port (§8.5): the sandbox's two origins and the
 * connector on 127.0.0.1 share them.
 */
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
        (c) => !(c.host === url.hostname && c.name === name && c.path === path),
      )
      if (expires > Date.now() && value !== '')
        this.#cookies.push({ host: url.hostname, name, value, path, expires })
    }
  }

  header(url: URL): string {
    return this.#cookies
      .filter(
        (c) =>
          c.host === url.hostname && c.expires > Date.now() && pathMatches(url.pathname, c.path),
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
