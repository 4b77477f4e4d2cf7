import { createECDH, randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { DEVICES_PER_PERSON, PushDevices } from '../../src/push/devices.js'
import { pushKeys } from '../../src/push/push-keys.js'
import { rotateSealedValues } from '../../src/vault/rotation.js'
import { Vault } from '../../src/vault/vault.js'
import { describeEachEngine } from '../support/engines.js'

/**
 * What the connector keeps to reach a person's devices (src/push/): its VAPID key pair, made
 * once and the same for every replica, and each device's subscription, sealed, bound to its
 * person, one row a device; on both engines, and through a key rotation.
 */

const key = () => randomBytes(32).toString('base64')
const vaultOf = (keys: string) =>
  Vault.fromEnvironment({ vaultKey: keys, dataDir: '/nonexistent' }).vault

function subscription(host = 'fcm.googleapis.com') {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    endpoint: `https://${host}/fcm/send/${randomBytes(12).toString('hex')}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  }
}

describeEachEngine('push keys and devices', (engine) => {
  it('one VAPID key pair, made by the first store that asks, the same for the next; its private half sealed', async () => {
    const location = await engine.newLocation()
    const vault = vaultOf(key())
    const [first, second] = [await engine.openStore(location), await engine.openStore(location)]
    const [a, b] = await Promise.all([pushKeys(first, vault), pushKeys(second, vault)])
    expect(a).toEqual(b)
    expect(Buffer.from(a.publicKey, 'base64url')).toHaveLength(65)
    const row = await first.db.selectFrom('push_keys').selectAll().executeTakeFirstOrThrow()
    expect(row.sealed).not.toContain(a.privateKey)
  })

  it('a key pair sealed under a key this vault does not hold is made anew, and the new one kept', async () => {
    const location = await engine.newLocation()
    const store = await engine.openStore(location)
    const lost = await pushKeys(store, vaultOf(key()))
    const vault = vaultOf(key())
    const made = await pushKeys(store, vault)
    expect(made.publicKey).not.toBe(lost.publicKey)
    expect(await pushKeys(store, vault)).toEqual(made)
  })

  it('a device is its person’s: listed, reached and removed by them alone; its endpoint never stored in the clear', async () => {
    const store = await engine.openStore()
    const devices = new PushDevices(store, vaultOf(key()))
    const phone = subscription()
    const id = await devices.add('anna', phone, 'Chrome on Android')
    expect(await devices.list('anna')).toEqual([
      { id, label: 'Chrome on Android', createdAt: expect.any(Number) },
    ])
    expect((await devices.toReach('anna')).map((one) => one.subscription)).toEqual([phone])
    expect(await devices.list('ben')).toEqual([])
    expect(await devices.remove('ben', id)).toBe(false)
    const rows = await store.db.selectFrom('push_devices').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(phone.endpoint.split('/').pop())
    expect(JSON.stringify(rows)).not.toContain(phone.keys.auth)
    expect(await devices.remove('anna', id)).toBe(true)
    expect(await devices.toReach('anna')).toEqual([])
  })

  it('the same browser turned on by another person is theirs alone from then on', async () => {
    const store = await engine.openStore()
    const devices = new PushDevices(store, vaultOf(key()))
    const shared = subscription()
    await devices.add('carla', shared, 'Firefox on Linux')
    await devices.add('dan', shared, 'Firefox on Linux')
    expect(await devices.toReach('carla')).toEqual([])
    expect((await devices.toReach('dan')).map((one) => one.subscription)).toEqual([shared])
  })

  it(`at most ${DEVICES_PER_PERSON} devices a person: the oldest goes`, async () => {
    const store = await engine.openStore()
    let clock = 1_000
    const devices = new PushDevices(store, vaultOf(key()), () => clock++)
    const ids: string[] = []
    for (let i = 0; i <= DEVICES_PER_PERSON; i++)
      ids.push(await devices.add('erin', subscription(), `Device ${i}`))
    const kept = (await devices.list('erin')).map((one) => one.id)
    expect(kept).toHaveLength(DEVICES_PER_PERSON)
    expect(kept).not.toContain(ids[0])
  })

  it('a key rotation re-seals the push key and the devices, which still open under the new key alone', async () => {
    const location = await engine.newLocation()
    const store = await engine.openStore(location)
    const [oldKey, newKey] = [key(), key()]
    const before = vaultOf(oldKey)
    const keys = await pushKeys(store, before)
    const phone = subscription()
    await new PushDevices(store, before).add('fay', phone, 'Safari on iOS')

    const both = vaultOf(`${newKey},${oldKey}`)
    const report = await rotateSealedValues(store, both)
    expect(report).toMatchObject({ resealed: 2, failed: [], remaining: 0 })
    const after = vaultOf(newKey)
    expect(await pushKeys(store, after)).toEqual(keys)
    expect(
      (await new PushDevices(store, after).toReach('fay')).map((one) => one.subscription),
    ).toEqual([phone])
  })
})
