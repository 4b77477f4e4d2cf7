import { randomBytes } from 'node:crypto'
import { pino } from 'pino'
import { expect, it } from 'vitest'
import { CoverageSeal, onlyThese } from '../../src/auth/coverage.js'
import { Grants } from '../../src/auth/grants.js'
import type { Store } from '../../src/store/open.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import { SealedValueError } from '../../src/vault/errors.js'
import { rotateCredentials, rotateSealedValues } from '../../src/vault/rotation.js'
import { Vault } from '../../src/vault/vault.js'
import { describeEachEngine } from '../support/engines.js'

const newKey = () => randomBytes(32).toString('base64')

describeEachEngine('key rotation', (engine) => {
  /** A fresh store (rotation covers the whole table) and vaults over two keys. */
  async function setUp() {
    const location = await engine.newLocation()
    const store = await engine.openStore(location)
    const [oldKey, newerKey] = [newKey(), newKey()]
    const vault = (vaultKey: string) =>
      Vault.fromEnvironment({ vaultKey, dataDir: location.dataDir }).vault
    return {
      store,
      oldOnly: vault(oldKey),
      rotated: vault(`${newerKey},${oldKey}`),
      newOnly: vault(newerKey),
    }
  }

  const secretOf = (index: number) => `token-${index}`
  const keyIds = async (store: Store) =>
    new Set(
      (await store.db.selectFrom('upstream_credentials').select('key_id').execute()).map(
        (r) => r.key_id,
      ),
    )

  it('re-seals every credential under the new key, in batches, so the old key can go', async () => {
    const { store, oldOnly, rotated, newOnly } = await setUp()
    const before = new UpstreamCredentials(store, oldOnly, () => 1)
    for (let index = 0; index < 250; index++) {
      await before.put({
        id: `c${index}`,
        subject: `s${index}`,
        scope: 'tasks',
        secret: secretOf(index),
      })
    }

    const report = await rotateCredentials(store, rotated, { batchSize: 40 })

    expect(report).toEqual({ resealed: 250, failed: [], remaining: 0 })
    expect(await keyIds(store)).toEqual(new Set([newOnly.keyId]))
    const after = new UpstreamCredentials(store, newOnly)
    for (const index of [0, 39, 40, 123, 249]) {
      expect(await after.get(`c${index}`)).toMatchObject({ secret: secretOf(index), updatedAt: 1 })
      await expect(before.get(`c${index}`)).rejects.toThrow(SealedValueError)
    }
  })

  it('is idempotent: a second run finds nothing to do', async () => {
    const { store, oldOnly, rotated } = await setUp()
    await new UpstreamCredentials(store, oldOnly).put({
      id: 'c',
      subject: 's',
      scope: 't',
      secret: 'x',
    })
    expect(await rotateCredentials(store, rotated)).toMatchObject({ resealed: 1, remaining: 0 })
    const sealed = await store.db.selectFrom('upstream_credentials').select('ciphertext').execute()
    expect(await rotateCredentials(store, rotated)).toEqual({
      resealed: 0,
      failed: [],
      remaining: 0,
    })
    expect(
      await store.db.selectFrom('upstream_credentials').select('ciphertext').execute(),
    ).toEqual(sealed)
  })

  it('reports, by id, credentials under a key the vault no longer holds, and re-seals the rest', async () => {
    const { store, oldOnly, rotated, newOnly } = await setUp()
    const lost = Vault.fromEnvironment({ vaultKey: newKey(), dataDir: '/nonexistent' }).vault
    await new UpstreamCredentials(store, lost).put({
      id: 'lost',
      subject: 's',
      scope: 't',
      secret: 'gone',
    })
    await new UpstreamCredentials(store, oldOnly).put({
      id: 'kept',
      subject: 's',
      scope: 't',
      secret: 'here',
    })

    const report = await rotateCredentials(store, rotated)

    expect(report.resealed).toBe(1)
    expect(report.remaining).toBe(1)
    expect(report.failed).toEqual([
      { id: 'lost', keyId: lost.keyId, reason: expect.stringContaining('does not hold') },
    ])
    expect(JSON.stringify(report)).not.toContain('gone')
    expect(await new UpstreamCredentials(store, newOnly).get('kept')).toMatchObject({
      secret: 'here',
    })
  })

  it('re-seals what each grant covers too: it still opens, as the same ids, under the new key alone', async () => {
    const { store, oldOnly, rotated, newOnly } = await setUp()
    await new UpstreamCredentials(store, oldOnly, () => 1).put({
      id: 'c1',
      subject: 's1',
      scope: 'tasks',
      secret: 'token',
    })
    const grants = new Grants(store, { revokeAndErase: async () => {} }, pino({ level: 'silent' }))
    const link = {
      credentialId: 'c1',
      account: 's1',
      clientId: 'client',
      service: 'tasks' as const,
    }
    const chosen = onlyThese(['list-a', 'list-b'], 'list-a')
    await grants.link(
      { grantId: 'g-chosen', ...link },
      new CoverageSeal(oldOnly).seal('g-chosen', chosen),
    )
    await grants.link({ grantId: 'g-all', ...link })

    const report = await rotateSealedValues(store, rotated)

    // The credential and one coverage: a grant of every one has nothing sealed.
    expect(report).toEqual({ resealed: 2, failed: [], remaining: 0 })
    const stored = (await grants.linkOf('g-chosen'))!.coverage
    expect(new CoverageSeal(newOnly).open('g-chosen', stored)).toEqual(chosen)
    expect((await grants.linkOf('g-all'))!.coverage).toBeNull()
    expect(await rotateSealedValues(store, rotated)).toEqual({
      resealed: 0,
      failed: [],
      remaining: 0,
    })
  })
})
