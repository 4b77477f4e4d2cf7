import { errors } from 'oidc-provider'
import { describe, expect, it } from 'vitest'
import {
  claimRecordOnce,
  digest,
  purgeExpiredRecords,
  storeAdapter,
  type AdapterHooks,
} from '../../src/auth/adapter.js'
import type { Store } from '../../src/store/open.js'
import { describeEachEngine } from '../support/engines.js'

/** oidc-provider's storage on both engines: what it keeps, and single use across replicas. */

function recordingHooks() {
  const destroyed: string[] = []
  const expired: string[] = []
  const hooks: AdapterHooks = {
    grantDestroyed: async (id) => void destroyed.push(id),
    grantExpired: async (id) => void expired.push(id),
  }
  return { hooks, destroyed, expired }
}

const rows = (store: Store) => store.db.selectFrom('oauth_records').selectAll().execute()

describeEachEngine('the authorization server adapter', (engine) => {
  it('finds what it stored by the id, keeping only its digest', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const adapter = storeAdapter(store, recordingHooks().hooks)('AccessToken')
    await adapter.upsert(
      'token-value-1',
      { jti: 'token-value-1', grantId: 'g1', scope: 'tasks', exp: 99 },
      600,
    )
    expect(await adapter.find('token-value-1')).toEqual({
      jti: 'token-value-1',
      grantId: 'g1',
      scope: 'tasks',
      exp: 99,
    })
    expect(await adapter.find('token-value-2')).toBeUndefined()
    const [row] = await rows(store)
    expect(row).toMatchObject({ kind: 'AccessToken', id: digest('token-value-1'), grant_id: 'g1' })
    expect(JSON.stringify(row)).not.toContain('token-value-1')
    expect(row!.expires_at).toBeGreaterThan(Date.now())
  })

  it('keeps models apart: the same id under another kind is another record', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const adapters = storeAdapter(store, recordingHooks().hooks)
    await adapters('AccessToken').upsert('same', { kind: 'a' })
    expect(await adapters('RefreshToken').find('same')).toBeUndefined()
  })

  it('finds a session by its uid, stored as a digest', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const sessions = storeAdapter(store, recordingHooks().hooks)('Session')
    await sessions.upsert(
      'cookie-value',
      { jti: 'cookie-value', uid: 'session-uid', accountId: 'alice' },
      60,
    )
    const found = await sessions.findByUid('session-uid')
    expect(found).toMatchObject({ accountId: 'alice' })
    expect(found?.jti).toBeUndefined()
    const [row] = await rows(store)
    expect(row!.uid).toBe(digest('session-uid'))
    expect(JSON.stringify(row)).not.toContain('cookie-value')
  })

  it('stores client secrets and session cookies in interactions as digests', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const adapters = storeAdapter(store, recordingHooks().hooks)
    await adapters('Client').upsert('client-1', {
      client_id: 'client-1',
      client_secret: 'very-secret',
    })
    expect((await adapters('Client').find('client-1'))?.client_secret).toMatch(/^sha256:/)
    await adapters('Interaction').upsert(
      'uid-1',
      { jti: 'uid-1', session: { accountId: 'alice', cookie: 'session-cookie' } },
      60,
    )
    const dump = JSON.stringify(await rows(store))
    expect(dump).not.toContain('very-secret')
    expect(dump).not.toContain('session-cookie')
  })

  it('consumes once: a second use is a replay that ends the grant', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { hooks, destroyed } = recordingHooks()
    const codes = storeAdapter(store, hooks)('AuthorizationCode')
    await codes.upsert('code-1', { jti: 'code-1', grantId: 'grant-1' }, 60)
    await codes.consume('code-1')
    expect((await codes.find('code-1'))?.consumed).toEqual(expect.any(Number))
    const replay = await codes.consume('code-1').catch((error: unknown) => error)
    expect(replay).toBeInstanceOf(errors.OIDCProviderError)
    expect((replay as { error: string }).error).toBe('invalid_grant')
    expect(destroyed).toEqual(['grant-1'])
  })

  it('lets exactly one of concurrent consumers through, on any replica', async () => {
    const location = await engine.newLocation()
    const replicas = [await engine.openStore(location), await engine.openStore(location)]
    const { hooks } = recordingHooks()
    await storeAdapter(
      replicas[0]!,
      hooks,
    )('RefreshToken').upsert('rt', { jti: 'rt', grantId: 'g' }, 60)
    for (let round = 0; round < 5; round += 1) {
      const id = `rt-${round}`
      await storeAdapter(
        replicas[0]!,
        hooks,
      )('RefreshToken').upsert(id, { jti: id, grantId: 'g' }, 60)
      const results = await Promise.allSettled(
        [0, 1, 0, 1].map((i) => storeAdapter(replicas[i]!, hooks)('RefreshToken').consume(id)),
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    }
  })

  it('claims a value once across replicas (a client assertion jti), keeping its digest', async () => {
    const location = await engine.newLocation()
    const replicas = [await engine.openStore(location), await engine.openStore(location)]
    const expiresAt = Date.now() + 60_000
    for (let round = 0; round < 5; round += 1) {
      const value = `https://client.example/client.json jti-${round}`
      const claims = await Promise.all(
        [0, 1, 0, 1].map((i) => claimRecordOnce(replicas[i]!, 'ReplayDetection', value, expiresAt)),
      )
      expect(claims.filter(Boolean)).toHaveLength(1)
    }
    const stored = await rows(replicas[0]!)
    expect(stored).toHaveLength(5)
    expect(stored[0]).toMatchObject({ kind: 'ReplayDetection', expires_at: expiresAt })
    expect(JSON.stringify(stored)).not.toContain('jti-')
  })

  it('destroys a record; destroying a grant tells the hook', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { hooks, destroyed } = recordingHooks()
    const adapters = storeAdapter(store, hooks)
    await adapters('Grant').upsert('grant-9', { jti: 'grant-9', accountId: 'a' }, 60)
    await adapters('AccessToken').upsert('at', { jti: 'at', grantId: 'grant-9' }, 60)
    await adapters('AccessToken').destroy('at')
    expect(destroyed).toEqual([])
    await adapters('Grant').destroy('grant-9')
    expect(destroyed).toEqual(['grant-9'])
    expect(await rows(store)).toEqual([])
  })

  it('revokes by grant: every record of the grant, of every kind, and nothing else', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const adapters = storeAdapter(store, recordingHooks().hooks)
    await adapters('Grant').upsert('g-a', { jti: 'g-a' }, 60)
    await adapters('AccessToken').upsert('at-a', { jti: 'at-a', grantId: 'g-a' }, 60)
    await adapters('RefreshToken').upsert('rt-a', { jti: 'rt-a', grantId: 'g-a' }, 60)
    await adapters('AuthorizationCode').upsert('c-a', { jti: 'c-a', grantId: 'g-a' }, 60)
    await adapters('AccessToken').upsert('at-b', { jti: 'at-b', grantId: 'g-b' }, 60)
    await adapters('AccessToken').revokeByGrantId('g-a')
    const left = await rows(store)
    expect(left.map((r) => r.id)).toEqual([digest('at-b')])
  })

  it('purges expired records, ending expired grants through the hook', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const { hooks, expired } = recordingHooks()
    const adapters = storeAdapter(store, hooks, { purgeIntervalMs: Infinity })
    await adapters('Client').upsert('c', { client_id: 'c' })
    await adapters('AccessToken').upsert('old', { jti: 'old' }, 1)
    await adapters('AccessToken').upsert('new', { jti: 'new' }, 3600)
    await adapters('Grant').upsert('old-grant', { jti: 'old-grant' }, 1)
    await purgeExpiredRecords(store, hooks, Date.now() + 10_000)
    expect(expired).toEqual(['old-grant'])
    const kinds = (await rows(store)).map((r) => `${r.kind}:${r.id}`).sort()
    expect(kinds).toEqual(
      [
        `AccessToken:${digest('new')}`,
        `Client:${digest('c')}`,
        `Grant:${digest('old-grant')}`,
      ].sort(),
    )
  })

  it('keeps a record consumed when it is saved again', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const codes = storeAdapter(store, recordingHooks().hooks)('AuthorizationCode')
    await codes.upsert('c', { jti: 'c' }, 60)
    await codes.consume('c')
    await codes.upsert('c', { jti: 'c', more: 1 }, 60)
    expect(await codes.find('c')).toMatchObject({ more: 1, consumed: expect.any(Number) })
  })
})

describe('digest', () => {
  it('is SHA-256, base64url', () => {
    expect(digest('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  })
})
