import { randomBytes } from 'node:crypto'
import { beforeAll, expect, it } from 'vitest'
import type { Store } from '../../src/store/open.js'
import type { Upstream } from '../../src/upstream/index.js'
import { CredentialRevokedError, UpstreamUnavailableError } from '../../src/upstream/index.js'
import { parseTokenSet, serializeTokenSet, type TokenSet } from '../../src/upstream/token-set.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import type { Vault } from '../../src/vault/vault.js'
import { describeEachEngine } from '../support/engines.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import {
  accessWorks,
  capturedLog,
  fault,
  newVault,
  providerForm,
  refreshWorks,
  requestCount,
  requestsSince,
  upstreamFor,
} from './harness.js'

const sandbox = sandboxForSuite()

describeEachEngine('upstream credentials: tokens, refresh, revocation', (engine) => {
  let store: Store
  let vault: Vault
  let credentials: UpstreamCredentials
  let upstream: Upstream
  const logged = capturedLog()

  beforeAll(async () => {
    store = await engine.openStore()
    vault = newVault((await engine.location()).dataDir)
    credentials = new UpstreamCredentials(store, vault)
    upstream = upstreamFor(sandbox, { store, vault, log: logged.log, deadlineMs: 2_000 })
  })

  /** A credential for `user` issued by the sandbox to the connector's client, stored as the connector does. */
  async function seed(user = 'alice', { expired = false } = {}) {
    const res = await sandbox.request('POST', '/_sandbox/tokens', {
      body: { user, scopes: ['tasks'], client: 'countersign' },
    })
    expect(res.status).toBe(200)
    const set: TokenSet = {
      access_token: res.body.access_token,
      refresh_token: res.body.refresh_token,
      expires_at: Date.now() + res.body.expires_in * 1000,
      scope: 'https://sandbox.countersign.test/auth/tasks',
      token_type: 'bearer',
    }
    const id = `cred-${randomBytes(6).toString('hex')}`
    await put(id, user, set)
    if (expired) await expire(id)
    return { id, set }
  }

  const put = (id: string, subject: string, set: TokenSet) =>
    credentials.put({ id, subject, scope: set.scope, secret: serializeTokenSet(set) })

  async function stored(id: string) {
    const credential = await credentials.get(id)
    return credential && parseTokenSet(credential.secret)
  }

  /** Moves the stored expiry into the past, as if an hour had gone by. */
  async function expire(id: string, at = Date.now() - 1_000) {
    const credential = (await credentials.get(id))!
    await put(id, credential.subject, { ...parseTokenSet(credential.secret), expires_at: at })
  }

  const refreshesSince = async (since: number) =>
    (await requestsSince(sandbox, since)).filter(
      (r) => r.method === 'POST' && r.path === '/oauth/token',
    )

  it('hands out the stored access token while it is valid, without calling the provider', async () => {
    const { id, set } = await seed()
    const before = await requestCount(sandbox)
    expect(await upstream.accessToken(id)).toBe(set.access_token)
    expect(await requestsSince(sandbox, before)).toEqual([])
  })

  it('refreshes within 60 s of expiry', async () => {
    const { id, set } = await seed()
    await expire(id, Date.now() + 30_000)
    const token = await upstream.accessToken(id)
    expect(token).not.toBe(set.access_token)
    expect(await accessWorks(sandbox, token)).toBe(true)
  })

  it('makes ONE refresh for 10 concurrent callers, all get the new token, the refresh token is kept', async () => {
    const { id, set } = await seed('alice', { expired: true })
    const before = await requestCount(sandbox)
    const tokens = await Promise.all(Array.from({ length: 10 }, () => upstream.accessToken(id)))
    expect(await refreshesSince(before)).toEqual([
      { method: 'POST', path: '/oauth/token', status: 200 },
    ])
    expect(new Set(tokens).size).toBe(1)
    expect(tokens[0]).not.toBe(set.access_token)
    const lists = await sandbox.request('GET', '/tasks/v1/lists', { token: tokens[0] })
    expect(lists.status).toBe(200)
    const after = (await stored(id))!
    expect(after.access_token).toBe(tokens[0])
    expect(after.refresh_token).toBe(set.refresh_token)
    expect(after.expires_at).toBeGreaterThan(Date.now() + 3000_000)
    expect(after.refresh_lease_until).toBeUndefined()
  })

  it('makes ONE refresh for callers on two replicas sharing the store', async () => {
    const { id, set } = await seed('alice', { expired: true })
    const replica = upstreamFor(sandbox, { store: await engine.openStore(), vault })
    const before = await requestCount(sandbox)
    const tokens = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? replica : upstream).accessToken(id)),
    )
    expect(await refreshesSince(before)).toHaveLength(1)
    expect(new Set(tokens).size).toBe(1)
    expect(tokens[0]).not.toBe(set.access_token)
  })

  it('waits out the lease of a replica that died mid-refresh, then refreshes once', async () => {
    const { id, set } = await seed('alice')
    await put(id, 'alice', {
      ...set,
      expires_at: Date.now() - 1_000,
      refresh_lease_until: Date.now() + 300,
    })
    const before = await requestCount(sandbox)
    const started = Date.now()
    const token = await upstream.accessToken(id)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    expect(token).not.toBe(set.access_token)
    expect(await refreshesSince(before)).toHaveLength(1)
  })

  it('erases a credential revoked at the provider and says so (CredentialRevokedError)', async () => {
    const { id, set } = await seed('alice', { expired: true })
    const revoke = await providerForm(sandbox, '/oauth/revoke', { token: set.refresh_token! })
    expect(revoke.status).toBe(200)
    const error = await upstream.accessToken(id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CredentialRevokedError)
    expect(error).toMatchObject({ credentialId: id })
    expect(await credentials.get(id)).toBeUndefined()
    // Gone is gone: later callers are told the same.
    await expect(upstream.accessToken(id)).rejects.toBeInstanceOf(CredentialRevokedError)
  })

  it('after a 401 with a token revoked at the provider: one refresh, invalid_grant, erased', async () => {
    const { id, set } = await seed('dave')
    await providerForm(sandbox, '/oauth/revoke', { token: set.access_token })
    expect(await accessWorks(sandbox, set.access_token)).toBe(false)
    const before = await requestCount(sandbox)
    await expect(upstream.afterUnauthorized(id, set.access_token)).rejects.toBeInstanceOf(
      CredentialRevokedError,
    )
    expect(await refreshesSince(before)).toEqual([
      { method: 'POST', path: '/oauth/token', status: 400 },
    ])
    expect(await credentials.get(id)).toBeUndefined()
  })

  it('after a 401: refreshes once for all callers, then a 401 on the new token ends the credential', async () => {
    const { id, set } = await seed()
    const before = await requestCount(sandbox)
    const [first, second] = await Promise.all([
      upstream.afterUnauthorized(id, set.access_token),
      upstream.afterUnauthorized(id, set.access_token),
    ])
    expect(first).toBe(second)
    expect(first).not.toBe(set.access_token)
    // A caller that comes late with the old token gets the new one, with no new refresh.
    expect(await upstream.afterUnauthorized(id, set.access_token)).toBe(first)
    expect(await refreshesSince(before)).toHaveLength(1)

    // The provider refuses the token it has just issued: "401 after one refresh".
    await expect(upstream.afterUnauthorized(id, first)).rejects.toBeInstanceOf(
      CredentialRevokedError,
    )
    expect(await credentials.get(id)).toBeUndefined()
    // ... and it was ended at the provider too.
    expect(await refreshWorks(sandbox, set.refresh_token!)).toBe(false)
  })

  it('keeps everything when the provider answers 503 to a refresh', async () => {
    const { id, set } = await seed('alice', { expired: true })
    await fault(sandbox, { match: { method: 'POST', path: '/oauth/token' }, times: 1, status: 503 })
    const error = await upstream.accessToken(id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamUnavailableError)
    expect((error as UpstreamUnavailableError).retryAfterSeconds).toBeUndefined()
    const kept = (await stored(id))!
    expect(kept).toMatchObject({ access_token: set.access_token, refresh_token: set.refresh_token })
    // The lease was given back: the next caller refreshes at once.
    expect(kept.refresh_lease_until).toBeUndefined()
    expect(await upstream.accessToken(id)).not.toBe(set.access_token)
  })

  it('keeps everything on a 429, and passes on Retry-After', async () => {
    const { id } = await seed('alice', { expired: true })
    await fault(sandbox, {
      match: { method: 'POST', path: '/oauth/token' },
      times: 1,
      status: 429,
      retryAfter: 7,
    })
    const error = await upstream.accessToken(id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamUnavailableError)
    expect((error as UpstreamUnavailableError).retryAfterSeconds).toBe(7)
    expect(await credentials.get(id)).toBeDefined()
  })

  it('gives up at the deadline when the provider is slow, and keeps everything', async () => {
    const { id } = await seed('alice', { expired: true })
    const hasty = upstreamFor(sandbox, { store, vault, deadlineMs: 200 })
    await fault(sandbox, {
      match: { method: 'POST', path: '/oauth/token' },
      times: 1,
      delayMs: 3_000,
    })
    const before = await requestCount(sandbox)
    const error = await hasty.accessToken(id).catch((e: unknown) => e)
    // Cut off at the deadline: the provider's answer, 3 s later, would have been a new token.
    expect(error).toBeInstanceOf(UpstreamUnavailableError)
    expect((error as Error).message).toMatch(/in time/)
    expect(await credentials.get(id)).toBeDefined()
    // The sandbox logs the refresh once it has handled it: in before the next test counts its own.
    await expect
      .poll(() => refreshesSince(before), { timeout: 20_000, interval: 50 })
      .toEqual([{ method: 'POST', path: '/oauth/token', status: 200 }])
  })

  it('keeps everything when the provider cannot be reached', async () => {
    const { id } = await seed('alice', { expired: true })
    const cut = upstreamFor(sandbox, {
      store,
      vault,
      config: { tokenUrl: 'http://127.0.0.1:1/oauth/token' },
    })
    await expect(cut.accessToken(id)).rejects.toBeInstanceOf(UpstreamUnavailableError)
    expect(await credentials.get(id)).toBeDefined()
  })

  it('erases a credential sealed under a retired key and says to reconnect (CredentialRevokedError)', async () => {
    const { set } = await seed('alice')
    const id = `cred-${randomBytes(6).toString('hex')}`
    // Sealed under a key this connector no longer holds.
    const retired = new UpstreamCredentials(store, newVault())
    await retired.put({ id, subject: 'alice', scope: set.scope, secret: serializeTokenSet(set) })
    await expect(upstream.accessToken(id)).rejects.toBeInstanceOf(CredentialRevokedError)
    expect(
      await store.db.selectFrom('upstream_credentials').where('id', '=', id).select('id').execute(),
    ).toEqual([])
  })

  it('says CredentialRevokedError for a credential it does not hold', async () => {
    await expect(upstream.accessToken('no-such-credential')).rejects.toBeInstanceOf(
      CredentialRevokedError,
    )
  })

  it('revokeAndErase: the provider then refuses both tokens, and the row is gone', async () => {
    const { id, set } = await seed('erin')
    await upstream.revokeAndErase(id)
    expect(await credentials.get(id)).toBeUndefined()
    expect(await accessWorks(sandbox, set.access_token)).toBe(false)
    expect(await refreshWorks(sandbox, set.refresh_token!)).toBe(false)
    // Again: nothing to do, no error.
    await expect(upstream.revokeAndErase(id)).resolves.toBeUndefined()
  })

  it('revokeAndErase with the provider failing or down: erased here all the same, no error', async () => {
    const failing = await seed('erin')
    await fault(sandbox, {
      match: { method: 'POST', path: '/oauth/revoke' },
      times: 1,
      status: 503,
    })
    await expect(upstream.revokeAndErase(failing.id)).resolves.toBeUndefined()
    expect(await credentials.get(failing.id)).toBeUndefined()

    const down = await seed('erin')
    const cut = upstreamFor(sandbox, {
      store,
      vault,
      config: { revocationUrl: 'http://127.0.0.1:1/oauth/revoke' },
    })
    await expect(cut.revokeAndErase(down.id)).resolves.toBeUndefined()
    expect(await credentials.get(down.id)).toBeUndefined()
  })

  it('never logs a token', async () => {
    const logs = logged.lines.join('\n')
    expect(logs).toMatch(/upstream token refreshed/)
    expect(logs).not.toMatch(/sat_|srt_/)
  })
})
