import { createHash } from 'node:crypto'
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { SANDBOX_SCOPE_PREFIX as DEFAULT_SCOPE_PREFIX } from '../../src/connector/sandbox-upstream.js'
import type { Store } from '../../src/store/open.js'
import { SQLITE_FILE } from '../../src/store/sqlite.js'
import type { Upstream } from '../../src/upstream/index.js'
import { UpstreamAuthorizationError } from '../../src/upstream/index.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import type { Vault } from '../../src/vault/vault.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import {
  atProvider,
  capturedLog,
  newVault,
  PUBLIC_URL,
  requestCount,
  requestsSince,
  sqliteStoreForSuite,
  upstreamFor,
} from './harness.js'

const sandbox = sandboxForSuite()
const newStore = sqliteStoreForSuite()

let store: Store
let dataDir: string
let vault: Vault
let upstream: Upstream
const logged = capturedLog()

beforeAll(async () => {
  ;({ store, dataDir } = await newStore())
  vault = newVault(dataDir)
  upstream = upstreamFor(sandbox, { store, vault, log: logged.log })
})

const pending = (uid = 'interaction-1') => ({
  interactionUid: uid,
  service: 'tasks' as const,
  scopes: ['tasks.readonly', 'tasks'],
})

/** What a rejected completion was rejected with. */
async function failure(promise: Promise<unknown>): Promise<UpstreamAuthorizationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(UpstreamAuthorizationError)
  return error as UpstreamAuthorizationError
}

describe('begin', () => {
  it('sends the browser to the provider: code flow, PKCE S256, offline access, full scopes', async () => {
    const url = await upstream.begin(pending())
    expect(url.origin + url.pathname).toBe(`${sandbox.url}/oauth/authorize`)
    const params = Object.fromEntries(url.searchParams)
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'countersign',
      redirect_uri: 'http://127.0.0.1:9/upstream/callback',
      scope: `openid ${DEFAULT_SCOPE_PREFIX}tasks.readonly ${DEFAULT_SCOPE_PREFIX}tasks`,
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    })
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(params.state!.length).toBeGreaterThanOrEqual(32)
    expect(upstream.redirectUri).toBe(`${PUBLIC_URL}upstream/callback`)
  })

  it('keeps only a hash of the state, and the verifier sealed', async () => {
    const url = await upstream.begin(pending())
    const state = url.searchParams.get('state')!
    const row = await store.db
      .selectFrom('upstream_authorizations')
      .selectAll()
      .where('state_hash', '=', createHash('sha256').update(state).digest('hex'))
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      kind: 'authorization',
      service: 'tasks',
      scopes: 'tasks.readonly tasks',
    })
    expect(row.code_verifier).toMatch(/^v1\./)
    expect(JSON.stringify(row)).not.toContain(state)
    expect(row.expires_at - Date.now()).toBeGreaterThan(9 * 60_000)
    expect(row.expires_at - Date.now()).toBeLessThanOrEqual(10 * 60_000)
  })

  it('refuses scopes that are not the service’s', async () => {
    await expect(
      upstream.begin({ interactionUid: 'x', service: 'tasks', scopes: ['webmasters'] }),
    ).rejects.toThrow(TypeError)
    await expect(
      upstream.begin({ interactionUid: 'x', service: 'tasks', scopes: [] }),
    ).rejects.toThrow(TypeError)
  })
})

describe('complete', () => {
  it('stores the credential sealed and returns what the authorization server needs', async () => {
    const callback = await atProvider(await upstream.begin(pending('uid-ok')), 'Allow')
    expect(await upstream.kindOf(callback)).toBe('authorization')
    const done = await upstream.complete(callback)
    expect(done).toEqual({
      interactionUid: 'uid-ok',
      service: 'tasks',
      scopes: ['tasks.readonly', 'tasks'],
      subject: 'alice',
      credentialId: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    })

    // The token works at the provider's API.
    const token = await upstream.accessToken(done.credentialId)
    const lists = await sandbox.request('GET', '/tasks/v1/lists', { token })
    expect(lists.status).toBe(200)

    // Sealed at rest: neither token appears anywhere in the database files.
    const stored = await new UpstreamCredentials(store, vault).get(done.credentialId)
    const secret = JSON.parse(stored!.secret)
    expect(stored).toMatchObject({
      subject: 'alice',
      scope: `openid ${DEFAULT_SCOPE_PREFIX}tasks.readonly ${DEFAULT_SCOPE_PREFIX}tasks`,
    })
    expect(secret).toMatchObject({ access_token: token, token_type: 'bearer' })
    expect(secret.refresh_token).toEqual(expect.any(String))
    expect(secret.expires_at).toBeGreaterThan(Date.now() + 3000_000)
    const files = [SQLITE_FILE, `${SQLITE_FILE}-wal`]
      .map((name) => join(dataDir, name))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('')
    expect(files).toContain('upstream_credentials')
    expect(files).not.toContain(token)
    expect(files).not.toContain(secret.refresh_token)
    // Nor in the logs.
    const logs = logged.lines.join('\n')
    expect(logs).toContain(done.credentialId)
    expect(logs).not.toContain(token)
    expect(logs).not.toContain(secret.refresh_token)
    expect(logs).not.toContain(callback.searchParams.get('code')!)
  })

  it('grants only the scopes asked for', async () => {
    const callback = await atProvider(
      await upstream.begin({
        interactionUid: 'narrow',
        service: 'tasks',
        scopes: ['tasks.readonly'],
      }),
      'Allow',
      'bob',
    )
    expect(await upstream.complete(callback)).toMatchObject({
      scopes: ['tasks.readonly'],
      subject: 'bob',
    })
  })

  it('says "denied" when the person declined on the provider’s page', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Deny')
    expect(callback.searchParams.get('error')).toBe('access_denied')
    const error = await failure(upstream.complete(callback))
    expect(error.code).toBe('denied')
    expect(error.message).toMatch(/You declined on the provider's page/)
    // The state is used up by the answer, whatever it was.
    expect((await failure(upstream.complete(callback))).code).toBe('invalid_state')
  })

  it('uses a state once: a second return with it is "invalid_state"', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Allow')
    await upstream.complete(callback)
    const error = await failure(upstream.complete(callback))
    expect(error.code).toBe('invalid_state')
    expect(error.message).toMatch(/start again from your assistant/)
    expect(await upstream.kindOf(callback)).toBeUndefined()
  })

  it('of two returns with one state at once, exactly one completes', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Allow')
    const results = await Promise.allSettled([
      upstream.complete(callback),
      upstream.complete(callback),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
  })

  it('says "expired" ten minutes on, and exchanges nothing', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Allow')
    const hash = createHash('sha256').update(callback.searchParams.get('state')!).digest('hex')
    await store.db
      .updateTable('upstream_authorizations')
      .set({ expires_at: Date.now() - 1 })
      .where('state_hash', '=', hash)
      .execute()
    const before = await requestCount(sandbox)
    const error = await failure(upstream.complete(callback))
    expect(error.code).toBe('expired')
    expect(error.message).toBe('This sign-in link expired; start again from your assistant.')
    expect(await requestsSince(sandbox, before)).toEqual([])
  })

  it('says "invalid_state" for a forged, missing or repeated state', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Allow')
    const forged = new URL(callback)
    forged.searchParams.set('state', 'forged-' + callback.searchParams.get('state'))
    expect(await upstream.kindOf(forged)).toBeUndefined()
    expect((await failure(upstream.complete(forged))).code).toBe('invalid_state')
    const missing = new URL(callback)
    missing.searchParams.delete('state')
    expect((await failure(upstream.complete(missing))).code).toBe('invalid_state')
    const twice = new URL(callback)
    twice.searchParams.append('state', callback.searchParams.get('state')!)
    expect((await failure(upstream.complete(twice))).code).toBe('invalid_state')
    // None of these used the real state up.
    await expect(upstream.complete(callback)).resolves.toMatchObject({ subject: 'alice' })
  })

  it('refuses an answer whose iss is not the provider’s (mix-up), before any exchange', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Allow')
    expect(callback.searchParams.get('iss')).toBe(sandbox.url)
    callback.searchParams.set('iss', 'https://attacker.example')
    const before = await requestCount(sandbox)
    expect((await failure(upstream.complete(callback))).code).toBe('provider_error')
    expect(await requestsSince(sandbox, before)).toEqual([])
  })

  it('says "provider_error" when the provider does not take the code', async () => {
    const callback = await atProvider(await upstream.begin(pending()), 'Allow')
    callback.searchParams.set('code', 'sac_not-a-code')
    const error = await failure(upstream.complete(callback))
    expect(error.code).toBe('provider_error')
    expect(error.message).toMatch(/invalid_grant/)
  })

  it('keeps the two kinds apart: a sign-in state does not complete an authorization', async () => {
    const callback = await atProvider(await upstream.beginSignIn('/connections'), 'Allow')
    expect(await upstream.kindOf(callback)).toBe('sign-in')
    expect((await failure(upstream.complete(callback))).code).toBe('invalid_state')
    await expect(upstream.completeSignIn(callback)).resolves.toEqual({
      subject: 'alice',
      returnTo: '/connections',
    })
  })
})
