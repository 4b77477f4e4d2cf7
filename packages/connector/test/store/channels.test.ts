import { expect, it } from 'vitest'
import type { Store } from '../../src/store/open.js'
import { MAX_PAYLOAD_BYTES } from '../../src/store/channels.js'
import { describeEachEngine, setReachable } from '../support/engines.js'

/**
 * The store's channels between replicas (src/store/channels.ts): on PostgreSQL a message one
 * store publishes reaches every store on the database that subscribed (LISTEN and NOTIFY); on
 * SQLite, the subscribers of the one process.
 */

/** The next payload `store` hears on `name`. */
async function nextOn(store: Store, name: string) {
  let heard!: (payload: string) => void
  const next = new Promise<string>((resolve) => (heard = resolve))
  const stop = await store.channel(name).subscribe((payload) => heard(payload))
  return { next, stop }
}

describeEachEngine('channels between replicas', (engine) => {
  it('a message reaches the subscribers of its channel, and only of it', async () => {
    const store = await engine.openStore(await engine.newLocation())
    const answers = await nextOn(store, 'countersign_test_answers')
    let other = 0
    await store.channel('countersign_test_other').subscribe(() => other++)
    await store.channel('countersign_test_answers').publish('{"hello":1}')
    expect(await answers.next).toBe('{"hello":1}')
    expect(other).toBe(0)
    answers.stop()
  })

  if (engine.name === 'postgres')
    it('on PostgreSQL, from one replica to another', async () => {
      const location = await engine.newLocation()
      const [one, two] = [await engine.openStore(location), await engine.openStore(location)]
      const heard = await nextOn(two, 'countersign_test_answers')
      await one.channel('countersign_test_answers').publish('from one')
      expect(await heard.next).toBe('from one')
    })

  if (engine.name === 'postgres')
    it('on PostgreSQL, listens again once the database is back, however long it was away', async () => {
      const location = await engine.newLocation()
      const [one, two] = [await engine.openStore(location), await engine.openStore(location)]
      const heard: string[] = []
      await two.channel('countersign_test_answers').subscribe((payload) => heard.push(payload))
      await setReachable(location, false)
      // Away long enough for the first attempts to reconnect to fail.
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      await setReachable(location, true)
      await expect
        .poll(
          async () => {
            await one.channel('countersign_test_answers').publish('after the outage')
            return heard
          },
          { timeout: 15_000, interval: 500 },
        )
        .toContain('after the outage')
    })

  it('refuses a message past what NOTIFY carries, on both engines alike', async () => {
    const store = await engine.openStore(await engine.newLocation())
    await expect(
      store.channel('countersign_test_answers').publish('x'.repeat(MAX_PAYLOAD_BYTES + 1)),
    ).rejects.toThrow(/too large/)
  })
})
