import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import type { Store } from '../../src/store/open.js'
import { credentialBinding, UpstreamCredentials } from '../../src/vault/credentials.js'
import { SealedValueError } from '../../src/vault/errors.js'
import { Vault } from '../../src/vault/vault.js'
import { describeEachEngine } from '../support/engines.js'

const canary = () => `canary-refresh-token-${randomBytes(12).toString('hex')}`

describeEachEngine('upstream credentials', (engine) => {
  let store: Store
  let vault: Vault
  let credentials: UpstreamCredentials
  let clock = 1_700_000_000_000
  beforeAll(async () => {
    store = await engine.openStore()
    vault = Vault.fromEnvironment({
      vaultKey: randomBytes(32).toString('hex'),
      dataDir: (await engine.location()).dataDir,
    }).vault
    credentials = new UpstreamCredentials(store, vault, () => clock)
  })

  const rowOf = (id: string) =>
    store.db
      .selectFrom('upstream_credentials')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('opens on read what it sealed on write', async () => {
    const secret = JSON.stringify({ access_token: canary(), refresh_token: canary() })
    await credentials.put({ id: 'round-trip', subject: 'ada', scope: 'tasks', secret })
    expect(await credentials.get('round-trip')).toEqual({
      id: 'round-trip',
      subject: 'ada',
      scope: 'tasks',
      secret,
      createdAt: clock,
      updatedAt: clock,
    })
    expect((await rowOf('round-trip')).key_id).toBe(vault.keyId)
  })

  it('replaces a credential on put, keeping when it was first stored', async () => {
    await credentials.put({
      id: 'replaced',
      subject: 'ada',
      scope: 'tasks.readonly',
      secret: 'first',
    })
    const created = clock
    clock += 60_000
    await credentials.put({ id: 'replaced', subject: 'ada', scope: 'tasks', secret: 'second' })
    expect(await credentials.get('replaced')).toMatchObject({
      scope: 'tasks',
      secret: 'second',
      createdAt: created,
      updatedAt: clock,
    })
  })

  it('answers undefined for an unknown credential, and erases', async () => {
    expect(await credentials.get('never-stored')).toBeUndefined()
    await credentials.put({ id: 'erased', subject: 'ada', scope: 'tasks', secret: 's' })
    expect(await credentials.erase('erased')).toBe(true)
    expect(await credentials.get('erased')).toBeUndefined()
    expect(await credentials.erase('erased')).toBe(false)
  })

  it('keeps no plaintext in the table', async () => {
    const secrets = [canary(), canary(), canary()]
    for (const [index, secret] of secrets.entries()) {
      await credentials.put({ id: `dump-${index}`, subject: 'ada', scope: 'tasks', secret })
    }
    const dump = JSON.stringify(
      await store.db.selectFrom('upstream_credentials').selectAll().execute(),
    )
    for (const secret of secrets) {
      expect(dump).not.toContain(secret)
      expect(dump).not.toContain(Buffer.from(secret).toString('base64'))
      expect(dump).not.toContain(Buffer.from(secret).toString('hex'))
    }
    if (engine.name === 'sqlite') {
      // The database file and its write-ahead log, byte for byte.
      const { dataDir } = await engine.location()
      const files = readdirSync(dataDir).filter((name) => name.startsWith('connector.db'))
      expect(files.length).toBeGreaterThan(0)
      for (const name of files) {
        const bytes = readFileSync(join(dataDir, name))
        for (const secret of secrets) expect(bytes.includes(secret)).toBe(false)
      }
    }
  })

  it('does not open a ciphertext moved to another row', async () => {
    await credentials.put({ id: 'victim', subject: 'ada', scope: 'tasks', secret: canary() })
    await credentials.put({ id: 'attacker', subject: 'eve', scope: 'tasks', secret: 'eve' })
    const { ciphertext } = await rowOf('victim')
    await store.db
      .updateTable('upstream_credentials')
      .set({ ciphertext })
      .where('id', '=', 'attacker')
      .execute()
    await expect(credentials.get('attacker')).rejects.toThrow(SealedValueError)
  })

  it('does not open a row reassigned to another person', async () => {
    await credentials.put({ id: 'reassigned', subject: 'ada', scope: 'tasks', secret: canary() })
    await store.db
      .updateTable('upstream_credentials')
      .set({ subject: 'eve' })
      .where('id', '=', 'reassigned')
      .execute()
    await expect(credentials.get('reassigned')).rejects.toThrow(SealedValueError)
  })

  it('does not open a tampered ciphertext', async () => {
    await credentials.put({ id: 'tampered', subject: 'ada', scope: 'tasks', secret: canary() })
    const { ciphertext } = await rowOf('tampered')
    const [version, keyId, iv, data, tag] = ciphertext.split('.')
    const flipped = Buffer.from(data!, 'base64url')
    flipped[0]! ^= 0x01
    await store.db
      .updateTable('upstream_credentials')
      .set({ ciphertext: [version, keyId, iv, flipped.toString('base64url'), tag].join('.') })
      .where('id', '=', 'tampered')
      .execute()
    await expect(credentials.get('tampered')).rejects.toThrow(SealedValueError)
  })

  it('reads the row on every get: what another replica erases or replaces is seen at once', async () => {
    const other = new UpstreamCredentials(store, vault, () => clock)
    await credentials.put({ id: 'shared', subject: 'ada', scope: 'tasks', secret: 'first' })
    expect((await credentials.get('shared'))?.secret).toBe('first')
    await other.put({ id: 'shared', subject: 'ada', scope: 'tasks', secret: 'second' })
    expect((await credentials.get('shared'))?.secret).toBe('second')
    // A refresh writes the row itself, sealed anew (src/upstream/stored-token-set.ts).
    await store.db
      .updateTable('upstream_credentials')
      .set({ ciphertext: vault.seal('third', credentialBinding('shared', 'ada')) })
      .where('id', '=', 'shared')
      .execute()
    expect((await credentials.get('shared'))?.secret).toBe('third')
    expect(await other.erase('shared')).toBe(true)
    expect(await credentials.get('shared')).toBeUndefined()
  })

  it('does not open a row reassigned to another person, even one it opened before', async () => {
    await credentials.put({ id: 'opened', subject: 'ada', scope: 'tasks', secret: canary() })
    expect((await credentials.get('opened'))?.subject).toBe('ada')
    await store.db
      .updateTable('upstream_credentials')
      .set({ subject: 'eve' })
      .where('id', '=', 'opened')
      .execute()
    await expect(credentials.get('opened')).rejects.toThrow(SealedValueError)
  })

  it('does not open a ciphertext moved onto a row it opened before', async () => {
    await credentials.put({ id: 'victim-2', subject: 'ada', scope: 'tasks', secret: canary() })
    await credentials.put({ id: 'attacker-2', subject: 'eve', scope: 'tasks', secret: 'eve' })
    expect((await credentials.get('attacker-2'))?.secret).toBe('eve')
    expect((await credentials.get('victim-2'))?.subject).toBe('ada')
    const { ciphertext } = await rowOf('victim-2')
    await store.db
      .updateTable('upstream_credentials')
      .set({ ciphertext })
      .where('id', '=', 'attacker-2')
      .execute()
    await expect(credentials.get('attacker-2')).rejects.toThrow(SealedValueError)
  })
})
