import { createServer, type Server } from 'node:http'
import { pino } from 'pino'
import type { ConnectorConfig, UpstreamConfig } from '../../config/config.js'
import { SERVICES } from '../../services/catalog.js'
import { PAGE_HEADERS } from '../../pages/page.js'
import { noticePageText } from '../../pages/problem-page.js'
import { GOOGLE_APIS } from '../../services/profiles/google.js'
import { PROFILES } from '../../services/profiles/index.js'
import {
  CALLBACK_PATH,
  OAuthClient,
  redirectUriOf,
  UpstreamApi,
  UpstreamApiError,
} from '../../upstream/index.js'
import { fix, ok, type Finding } from './findings.js'

/** How long the doctor waits for the operator to sign in. */
export const SIGN_IN_WAIT_MS = 5 * 60_000

/**
 * What the provider only says to someone signed in (`countersign doctor --sign-in`): the operator
 * signs in once, with read-only scopes, at the connector's own redirect URI (the doctor listens on
 * PORT for it), and each of the four APIs is called once with that token, so that an API not
 * enabled in the Cloud project, or an account that is not a test user, shows now rather than at a
 * person's first call. The token is revoked at the end; nothing is stored.
 */
export interface SignInOptions {
  /** Shows the operator the address to open. */
  show: (url: string) => void
  waitMs?: number
}

export async function signInFindings(
  upstream: UpstreamConfig,
  config: Pick<ConnectorConfig, 'host' | 'port' | 'publicUrl'>,
  options: SignInOptions,
): Promise<Finding[]> {
  const client = new OAuthClient({
    config: upstream,
    redirectUri: redirectUriOf(config.publicUrl),
    deadlineMs: 10_000,
  })
  const state = OAuthClient.newState()
  const pkce = await OAuthClient.newPkce()
  const scope = [
    'openid',
    ...Object.values(SERVICES).map((service) => upstream.scopePrefix + service.readScope),
  ].join(' ')
  const callback = await awaitCallback(config, options.waitMs ?? SIGN_IN_WAIT_MS, () =>
    options.show(client.authorizationUrl({ state, pkce, scope }, { prompt: 'consent' }).href),
  )
  if (!callback) return [fix('nobody signed in within the wait: run the doctor again when you can')]
  let params: URLSearchParams
  try {
    params = client.validateCallback(callback, state)
  } catch (error) {
    return [deniedFinding(upstream, error)]
  }
  const tokens = await client.exchangeCode(params, pkce.verifier)
  try {
    return [
      ok('you signed in: the OAuth client, its redirect URI and your account work together'),
      ...(await apiFindings(upstream, tokens.access_token)),
    ]
  } finally {
    await client.revoke(tokens.access_token, 'access_token').catch(() => {})
  }
}

/**
 * One read of each API (GOOGLE_APIS says which), under either profile: only an API that is not
 * enabled fails the check; any other answer, a refusal included, shows it is.
 */
async function apiFindings(upstream: UpstreamConfig, accessToken: string): Promise<Finding[]> {
  const profile = PROFILES[upstream.profile]
  const api = new UpstreamApi({
    apiBase: upstream.apiBase,
    systemQuery: profile.systemQuery,
    consoleHosts: profile.consoleHosts,
    log: pino({ level: 'silent' }),
  })
  const grant = {
    upstreamAccessToken: async () => accessToken,
    upstreamTokenAfterUnauthorized: async () => accessToken,
  }
  return Promise.all(
    GOOGLE_APIS.map(async ({ title, service, probe }) => {
      const { method, path, api: base } = profile.operations[probe.operation]!
      const params = 'params' in probe ? probe.params : {}
      const name = upstream.profile === 'google' ? title : `${service} API (${probe.operation})`
      try {
        await api.call(
          { service, api: base, method, path, pathParams: params, idempotent: true },
          grant,
        )
      } catch (error) {
        if (error instanceof UpstreamApiError && error.kind === 'api_disabled')
          return fix(
            `the ${name} is not enabled in the Cloud project of the OAuth client: enable it${error.activationUrl ? ` at ${error.activationUrl}` : ' under APIs & Services'}, then wait a few minutes`,
          )
      }
      return ok(`the ${name} is enabled`)
    }),
  )
}

function deniedFinding(upstream: UpstreamConfig, error: unknown): Finding {
  const code = (error as { error?: string }).error
  if (code === 'access_denied' && upstream.profile === 'google')
    return fix(
      'Google answered access_denied: if it said the app is being tested, add your Google address under Google Auth Platform → Audience → Test users, then sign in again',
    )
  return fix(`the provider did not sign you in: ${code ?? (error as Error).message}`)
}

/**
 * Listens on HOST:PORT, as the connector would, for the one return to the redirect URI; the
 * operator's browser is told it may close the tab. Undefined when nobody came back in time.
 */
async function awaitCallback(
  config: Pick<ConnectorConfig, 'host' | 'port' | 'publicUrl'>,
  waitMs: number,
  ready: () => void,
): Promise<URL | undefined> {
  let server: Server | undefined
  try {
    return await new Promise<URL | undefined>((resolve, reject) => {
      const timer = setTimeout(() => resolve(undefined), waitMs)
      server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', config.publicUrl)
        if (url.pathname !== CALLBACK_PATH) return void response.writeHead(404).end()
        clearTimeout(timer)
        // Answered before the server closes: the browser sees its page whatever follows.
        void noticePageText(
          'Back from the provider',
          'The doctor goes on in your terminal, and says there what it found: you can close this tab.',
        ).then((text) => {
          response.writeHead(200, { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' })
          response.end(text, () => resolve(url))
        })
      })
      server.once('error', reject)
      server.listen(config.port, config.host, ready)
    })
  } finally {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  }
}
