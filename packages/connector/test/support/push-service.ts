import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
// @ts-expect-error: http_ece ships no types; it is the library web-push encrypts with.
import ece from 'http_ece'

/**
 * A push service on loopback, as a browser's vendor runs one (RFC 8030), for the tests: it
 * checks each message's VAPID signature (RFC 8292) as a push service does, and decrypts its
 * payload (RFC 8291) with the keys of the device it was sent to, as that device's browser does.
 * Its devices are made here: each has its own ECDH key pair and secret, and an endpoint at this
 * service.
 */

export interface Delivered {
  device: string
  payload: string
  /** The body as the push service holds it: encrypted. */
  sealed: Buffer
  ttl: number
  urgency: string | undefined
  topic: string | undefined
  /** The signer's public key, base64url (the `k` of the Authorization header). */
  signer: string
  /** The claims of the VAPID token. */
  claims: { aud: string; exp: number; sub: string }
}

export interface TestDevice {
  id: string
  /** What `PushSubscription.toJSON()` gives the page. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
}

export class PushService {
  readonly delivered: Delivered[] = []
  /** Requests refused, with why: a bad signature, an unknown device. */
  readonly refused: { device: string; why: string }[] = []
  readonly #devices = new Map<string, { ecdh: ECDH; auth: Buffer; gone: boolean }>()
  #server: Server | undefined
  #port = 0

  constructor(private readonly tls: { cert: string; key: string }) {}

  async start(): Promise<this> {
    this.#server = createServer(this.tls, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const { status, why } = this.#receive(req.url ?? '', req.headers, Buffer.concat(chunks))
        res.writeHead(status, { 'content-type': 'text/plain' }).end(why ?? '')
      })
    })
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve))
    this.#port = (this.#server.address() as AddressInfo).port
    return this
  }

  get origin() {
    return `https://127.0.0.1:${this.#port}`
  }

  /** A new device, subscribed at this service. */
  device(): TestDevice {
    const id = randomBytes(8).toString('hex')
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const auth = randomBytes(16)
    this.#devices.set(id, { ecdh, auth, gone: false })
    return {
      id,
      subscription: {
        endpoint: `${this.origin}/push/${id}`,
        expirationTime: null,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: auth.toString('base64url'),
        },
      },
    }
  }

  /** The device unsubscribes: its endpoint answers 410 from now on. */
  unsubscribe(id: string) {
    this.#devices.get(id)!.gone = true
  }

  #receive(path: string, headers: Record<string, string | string[] | undefined>, body: Buffer) {
    const id = /^\/push\/([0-9a-f]+)$/.exec(path)?.[1] ?? ''
    const device = this.#devices.get(id)
    const refuse = (status: number, why: string) => {
      this.refused.push({ device: id, why })
      return { status, why }
    }
    if (!device) return refuse(404, 'no such subscription')
    if (device.gone) return refuse(410, 'unsubscribed')
    const vapid = /^vapid t=([^,]+), k=(.+)$/.exec(String(headers.authorization ?? ''))
    if (!vapid) return refuse(401, 'no VAPID authorization')
    const [, token, signer] = vapid
    const claims = verifiedClaims(token!, signer!)
    if (!claims) return refuse(403, 'the VAPID signature does not verify')
    if (claims.aud !== this.origin) return refuse(403, `the token is for ${claims.aud}`)
    if (claims.exp * 1000 < Date.now() || claims.exp * 1000 > Date.now() + 24 * 3600_000)
      return refuse(403, 'the token expires outside the next 24 hours')
    if (headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'not aes128gcm')
    const payload = ece
      .decrypt(body, {
        version: 'aes128gcm',
        privateKey: device.ecdh,
        authSecret: device.auth.toString('base64url'),
      })
      .toString('utf8')
    this.delivered.push({
      device: id,
      payload,
      sealed: body,
      ttl: Number(headers.ttl),
      urgency: headers.urgency as string | undefined,
      topic: headers.topic as string | undefined,
      signer: signer!,
      claims,
    })
    return { status: 201, why: undefined }
  }

  async close() {
    this.#server?.closeAllConnections()
    await new Promise((resolve) => this.#server?.close(resolve))
  }
}

/** The claims of an ES256 JWT signed by the P-256 key `signer` (uncompressed, base64url). */
function verifiedClaims(token: string, signer: string) {
  const [header, claims, signature] = token.split('.')
  if (!header || !claims || !signature) return undefined
  const point = Buffer.from(signer, 'base64url')
  if (point.length !== 65 || point[0] !== 4) return undefined
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!ok || JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256')
    return undefined
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as Delivered['claims']
}
