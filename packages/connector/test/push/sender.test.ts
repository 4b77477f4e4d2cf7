import { createECDH, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSubscription } from '../../src/push/subscriptions.js'
import { newVapidKeys, PushSender, type PushSenderOptions } from '../../src/push/sender.js'
import { selfSignedCertificate } from '../support/certificate.js'
import { PushService } from '../support/push-service.js'

/**
 * One push message to one device (src/push/sender.ts), through a push service on loopback that
 * checks the VAPID signature as a push service does and decrypts the payload with the device's
 * keys as its browser does; and the subscriptions the connector refuses to send to.
 */

const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const vapid = newVapidKeys()
let service: PushService
const senders: PushSender[] = []

beforeAll(async () => {
  service = await new PushService(tls).start()
})
afterAll(async () => {
  await Promise.all(senders.map((sender) => sender.close()))
  await service.close()
})

const sender = (options: Partial<PushSenderOptions> = {}) => {
  const made = new PushSender({
    vapid,
    contact: 'https://countersign.example',
    allowLoopback: true,
    extraCa: tls.cert,
    ...options,
  })
  senders.push(made)
  return made
}

const message = { payload: '{"approval":"a1"}', ttlSeconds: 600, topic: 'approval-a1' }

describe('a push message', () => {
  it('reaches the device signed by the connector’s key, and only the device can read it', async () => {
    const device = service.device()
    expect(await sender().send(device.subscription, message)).toBe('sent')
    const [delivered] = service.delivered.filter((one) => one.device === device.id)
    expect(delivered).toMatchObject({
      payload: message.payload,
      ttl: 600,
      urgency: 'high',
      topic: 'approval-a1',
      signer: vapid.publicKey,
      claims: { aud: service.origin, sub: 'https://countersign.example' },
    })
    // What the push service holds is not the payload.
    expect(delivered!.sealed.includes(Buffer.from('approval'))).toBe(false)
  })

  it('signed by another key, the push service refuses it', async () => {
    const device = service.device()
    const other = sender({ vapid: { ...newVapidKeys(), publicKey: vapid.publicKey } })
    expect(await other.send(device.subscription, message)).toBe('failed')
    expect(service.refused).toContainEqual({
      device: device.id,
      why: 'the VAPID signature does not verify',
    })
  })

  it('to a device that unsubscribed: gone, so it is forgotten', async () => {
    const device = service.device()
    service.unsubscribe(device.id)
    expect(await sender().send(device.subscription, message)).toBe('gone')
  })

  it('to this machine, outside development: refused, and nothing is sent', async () => {
    const before = service.delivered.length + service.refused.length
    const device = service.device()
    const strict = sender({ allowLoopback: false })
    // By address, and by a name that resolves to it when the connection is made.
    expect(await strict.send(device.subscription, message)).toBe('refused')
    const byName = {
      ...device.subscription,
      endpoint: device.subscription.endpoint.replace('127.0.0.1', 'localhost'),
    }
    expect(await strict.send(byName, message)).toBe('refused')
    expect(service.delivered.length + service.refused.length).toBe(before)
  })
})

describe('a subscription the connector takes', () => {
  const keys = deviceKeys()

  it.each([
    ['http://push.example.com/x', /must be an https URL/],
    ['https://user:pw@push.example.com/x', /must not carry a user name/],
    ['https://10.0.0.7/push', /private network/],
    ['https://169.254.169.254/latest', /private network/],
    ['https://[fd00::1]/push', /private network/],
    ['https://[::ffff:127.0.0.1]/push', /private network/],
    ['not a url', /not a URL/],
    ['https://push.example.com/' + 'x'.repeat(1100), /at most 1,024 characters/],
  ])('refuses %.40s', (endpoint, why) => {
    const checked = checkSubscription({ endpoint, keys }, {})
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.reason).toMatch(why)
  })

  it('refuses keys that are not a device’s', () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc'
    for (const bad of [
      { p256dh: 'short', auth: keys.auth },
      { p256dh: keys.p256dh, auth: Buffer.alloc(8).toString('base64url') },
      { p256dh: keys.p256dh },
    ]) {
      const checked = checkSubscription({ endpoint, keys: bad }, {})
      expect(checked.ok, JSON.stringify(bad)).toBe(false)
    }
  })

  it('takes a push service of the configured list only, a host or every host under a domain', () => {
    const services = ['fcm.googleapis.com', '.notify.windows.com']
    const at = (endpoint: string) => checkSubscription({ endpoint, keys }, { services })
    expect(at('https://fcm.googleapis.com/fcm/send/abc').ok).toBe(true)
    expect(at('https://wns2-par02p.notify.windows.com/w/?token=x').ok).toBe(true)
    const other = at('https://updates.push.services.mozilla.com/wpush/v2/x')
    expect(other).toEqual({
      ok: false,
      reason:
        'This server sends notifications only through fcm.googleapis.com, .notify.windows.com; this browser’s push service (updates.push.services.mozilla.com) is not one of them.',
    })
    expect(at('https://notify.windows.com.evil.example/x').ok).toBe(false)
  })
})

/** A real device's keys, for the shapes the check takes. */
function deviceKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  }
}
