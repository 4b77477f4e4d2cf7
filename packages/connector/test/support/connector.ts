import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, expect } from 'vitest'
import { googleSandboxUpstream, sandboxUpstream } from '../../src/connector/sandbox-upstream.js'
import type { ConnectorConfig, UpstreamConfig } from '../../src/config/config.js'
import {
  startConnector,
  type ConnectorOptions,
  type RunningConnector,
} from '../../src/connector/server.js'
import type { ServiceName } from '../../src/services/catalog.js'
import { PROFILES, type ProfileName } from '../../src/services/profiles/index.js'
import { SERVICE_READS, SERVICE_TOOLS } from '../../src/services/tools.js'
import { startSandbox, type RunningSandbox } from '@countersign/sandbox'
import { digest } from '../../src/auth/adapter.js'
import { parseTokenSet } from '../../src/upstream/token-set.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import {
  AuthorizationFlow,
  type Client,
  type HttpAnswer,
  type Person,
  type RequestOptions,
} from './authorization-flow.js'

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

export {
  AuthorizationFlow,
  AuthorizationStopped,
  coverageAnswer,
  CookieJar,
  csrfOf,
  firstAnswer,
  Person,
  type Client,
  type Cover,
  type HttpAnswer,
  type Pkce,
  type RequestOptions,
  type TokenSet,
} from './authorization-flow.js'

export interface SuiteOptions {
  /** Settings over the defaults; a function when they are known only once the suite starts. */
  connector?: ConnectorOverrides | (() => Promise<ConnectorOverrides>)
  options?: ConnectorOptions
  /** The provider profile, against the sandbox's matching dialect: testProfile() unless told. */
  profile?: ProfileName
}

/**
 * The profile a suite runs under: the vitest project sets TEST_UPSTREAM_PROFILE (vitest.config.ts
 * runs the suites that go through the provider once per profile).
 */
export const testProfile = (): ProfileName =>
  process.env.TEST_UPSTREAM_PROFILE === 'google' ? 'google' : 'generic'

/** Where a sandbox answers: its generic origin and its Google one. */
export type SandboxOrigins = Pick<RunningSandbox, 'url' | 'googleUrl'>

/** The connector's settings for the sandbox in the dialect of `profile`. */
export const upstreamOf = (sandbox: SandboxOrigins, profile: ProfileName) =>
  profile === 'google' ? googleSandboxUpstream(sandbox.googleUrl) : sandboxUpstream(sandbox.url)

/**
 * A test connector's settings: a free port on loopback, its public URL taken from it, `dataDir`,
 * a random VAULT_KEY, loopback client metadata refused, and `upstream`; `overrides` over them.
 */
export function testConnectorConfig(
  dataDir: string,
  upstream: UpstreamConfig,
  overrides: Partial<ConnectorConfig> = {},
): ConnectorConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    publicUrl: '',
    dataDir,
    vaultKey: randomBytes(32).toString('base64'),
    allowLoopbackClientMetadata: false,
    upstream,
    ...overrides,
  }
}

export function connectorForSuite(suite: SuiteOptions = {}) {
  const profile = suite.profile ?? testProfile()
  let sandbox: RunningSandbox | undefined
  let connector: RunningConnector | undefined
  let dataDir: string | undefined

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dataDir: ':memory:' })
    dataDir = await mkdtemp(join(tmpdir(), 'countersign-connector-'))
    const overrides =
      typeof suite.connector === 'function' ? await suite.connector() : suite.connector
    connector = await startConnector(
      testConnectorConfig(dataDir, upstreamOf(sandbox, profile), overrides),
      { log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), ...suite.options },
    )
  })
  afterAll(async () => {
    await connector?.close()
    await sandbox?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const flow = new AuthorizationFlow({
    get url() {
      return harness.url
    },
    get sandbox() {
      return harness.sandbox
    },
  })

  const harness = {
    profile,
    get connector(): RunningConnector {
      if (!connector)
        throw new Error('the connector is not started yet: use it inside a test or hook')
      return connector
    },
    get sandbox(): RunningSandbox {
      if (!sandbox) throw new Error('the sandbox is not started yet: use it inside a test or hook')
      return sandbox
    },
    /** The provider's sign-in and consent page the connector sends people to, in its dialect. */
    get providerPage() {
      return harness.connector.parts.config.upstream.authorizationUrl
    },
    /**
     * Where the connector sends `operation` (a tool, or `get_task_list`), as a path on the
     * sandbox in the suite's dialect, each parameter one encoded segment: what the provider's
     * request log shows and what a fault matches (`/tasks/v1/users/@me/lists` at Google).
     */
    providerPath(operation: string, params: Record<string, string> = {}) {
      const { upstream } = harness.connector.parts.config
      const definition = [...Object.values(SERVICE_TOOLS).flat(), ...SERVICE_READS].find(
        (d) => d.name === operation,
      )!
      const base = new URL(upstream.apiBase[definition.service]).pathname.replace(/\/$/, '')
      const { path } = PROFILES[upstream.profile].operations[operation]!
      return (
        base + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!))
      )
    },
    /** The connector's public URL (its issuer). */
    get url() {
      return harness.connector.url
    },
    get store() {
      return harness.connector.parts.store
    },
    resource: (service: ServiceName) => flow.resource(service),
    // The OAuth flow, as an assistant and a person drive it: see authorization-flow.ts.
    request: <T = any>(method: string, pathOrUrl: string, init?: RequestOptions) =>
      flow.request<T>(method, pathOrUrl, init),
    registerClient: (metadata?: Record<string, unknown>) => flow.registerClient(metadata),
    pkce: () => flow.pkce(),
    authorizationUrl: (...args: Parameters<AuthorizationFlow['authorizationUrl']>) =>
      flow.authorizationUrl(...args),
    person: (user: string) => flow.person(user),
    token: (client: Client, params: Record<string, string>) => flow.token(client, params),
    exchangeCode: (...args: Parameters<AuthorizationFlow['exchangeCode']>) =>
      flow.exchangeCode(...args),
    refresh: (...args: Parameters<AuthorizationFlow['refresh']>) => flow.refresh(...args),
    revoke: (...args: Parameters<AuthorizationFlow['revoke']>) => flow.revoke(...args),
    connect: (...args: Parameters<AuthorizationFlow['connect']>) => flow.connect(...args),

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

    /** A JSON-RPC request to a service's MCP endpoint (2025-11-25 style). */
    mcp: (...args: Parameters<AuthorizationFlow['mcp']>) => flow.mcp(...args),

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
        'grant_choices',
      ] as const) {
        const { count } = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
        counts[table] = Number(count)
      }
      return counts
    },

    /** Makes an access token expired, as if its hour had passed. */
    expireAccessToken(token: string) {
      return harness.editAccessToken(token, (payload) => ({
        ...payload,
        exp: Math.floor(Date.now() / 1000) - 60,
      }))
    },

    /** Rewrites the record of an access token as the store holds it (oidc-provider's payload). */
    async editAccessToken(
      token: string,
      edit: (payload: Record<string, unknown>) => Record<string, unknown>,
    ) {
      const { db } = harness.store
      const where = { kind: 'AccessToken', id: digest(token) }
      const row = await db
        .selectFrom('oauth_records')
        .select('payload')
        .where('kind', '=', where.kind)
        .where('id', '=', where.id)
        .executeTakeFirstOrThrow()
      const payload = edit(JSON.parse(row.payload) as Record<string, unknown>)
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
