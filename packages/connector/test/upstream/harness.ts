import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino, type Logger } from 'pino'
import { afterAll, expect } from 'vitest'
import { sandboxUpstream } from '../../src/connector/sandbox-upstream.js'
import { type UpstreamConfig } from '../../src/config/config.js'
import { openStore, type Store } from '../../src/store/open.js'
import { Upstream } from '../../src/upstream/index.js'
import { Vault } from '../../src/vault/vault.js'
import type { sandboxForSuite } from '@countersign/sandbox/testing'
import {
  consentForm,
  postForm,
  requestsSince as sandboxRequestsSince,
} from '@countersign/sandbox/testing'

/** The connector's side of the tests: an Upstream against the suite's sandbox, and a person. */

export type Sandbox = ReturnType<typeof sandboxForSuite>

/** Never listened on: the connector's redirect URI, which the tests read but never follow. */
export const PUBLIC_URL = 'http://127.0.0.1:9/'

export const newVault = (dataDir = tmpdir()) =>
  Vault.fromEnvironment({ vaultKey: randomBytes(32).toString('base64'), dataDir }).vault

/** A SQLite store in a temporary folder, removed after the suite. */
export function sqliteStoreForSuite() {
  const folders: string[] = []
  const stores: Store[] = []
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()))
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
  })
  return async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-upstream-'))
    folders.push(dataDir)
    const store = await openStore({ dataDir })
    stores.push(store)
    return { store, dataDir }
  }
}

/** A logger whose lines the test can read, to check that no token reaches the logs. */
export function capturedLog(): { log: Logger; lines: string[] } {
  const lines: string[] = []
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) })
  return { log, lines }
}

export function upstreamFor(
  sandbox: Sandbox,
  deps: {
    store: Store
    vault: Vault
    log?: Logger
    fetch?: typeof fetch
    deadlineMs?: number
    config?: Partial<UpstreamConfig>
  },
) {
  return new Upstream({
    config: { ...sandboxUpstream(sandbox.url), ...deps.config },
    publicUrl: PUBLIC_URL,
    store: deps.store,
    vault: deps.vault,
    log: deps.log ?? pino({ level: 'silent' }),
    fetch: deps.fetch,
    deadlineMs: deps.deadlineMs,
  })
}

/** The person on the provider's page: signs in as `user` and presses a button; the callback URL. */
export async function atProvider(
  authorizationUrl: URL,
  button: 'Allow' | 'Deny',
  user = 'alice',
): Promise<URL> {
  const { res, action } = await consentForm(authorizationUrl)
  expect(res.status).toBe(200)
  if (!action) throw new Error('the provider showed no consent form')
  const answer = await postForm(action, { user, [button]: button })
  expect(answer.status).toBe(303)
  return new URL(answer.headers.get('location')!)
}

/** POST /oauth/token or /oauth/revoke on the sandbox with form fields, as a client would. */
export function providerForm(sandbox: Sandbox, path: string, fields: Record<string, string>) {
  return sandbox.request('POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

/** Whether the sandbox still takes an access token (userinfo answers 200). */
export async function accessWorks(sandbox: Sandbox, token: string) {
  const res = await sandbox.request('GET', '/oauth/userinfo', { token })
  return res.status === 200
}

/** Whether the sandbox still refreshes with a refresh token. */
export async function refreshWorks(sandbox: Sandbox, refreshToken: string) {
  const res = await providerForm(sandbox, '/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: 'countersign',
  })
  return res.status === 200
}

/** What the upstream client's tests read of a request the sandbox logged. */
export interface LoggedCall {
  method: string
  path: string
  status: number
}

/** The sandbox's request log from `since` (an earlier length) on; 0 for all of it. */
export async function requestsSince(
  sandbox: Pick<Sandbox, 'request'>,
  since = 0,
): Promise<LoggedCall[]> {
  const log = await sandboxRequestsSince(sandbox, since)
  return log.map(({ method, path, status }) => ({ method, path, status }))
}

export const requestCount = async (sandbox: Pick<Sandbox, 'request'>) =>
  (await requestsSince(sandbox)).length

/** Queues a fault on the sandbox (`POST /_sandbox/faults`). */
export async function fault(
  sandbox: Pick<Sandbox, 'request'>,
  spec: Record<string, unknown>,
): Promise<void> {
  const res = await sandbox.request('POST', '/_sandbox/faults', { body: spec })
  expect(res.status, res.text).toBe(200)
}
