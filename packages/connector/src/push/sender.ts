import { rootCertificates } from 'node:tls'
import { Agent, type Dispatcher } from 'undici'
import webpush from 'web-push'
import { errorCode } from '../http/outbound.js'
import { NO_PUSH_ADDRESS, pushLookup } from './addresses.js'
import { endpointRefusal, type PushPolicy, type PushSubscription } from './subscriptions.js'

/**
 * Sends one push message to one device (RFC 8030), signed with the connector's VAPID key (RFC
 * 8292) and encrypted to the device's keys (RFC 8291, aes128gcm): `web-push` makes the request,
 * and the connector sends it itself, so that it goes only to a public address (checked when
 * the connection is made), follows no redirect, and reads at most a few KB of the answer within
 * a few seconds. The push service sees who to wake and when, never what the message says.
 */

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

export interface PushMessage {
  /** What the device's service worker receives, encrypted. */
  payload: string
  /** How long the push service keeps it for a device that is away, in seconds. */
  ttlSeconds: number
  /** A later message of the same topic replaces this one at the push service (≤ 32 characters). */
  topic?: string
}

/** `gone`: the push service no longer knows the device (it unsubscribed): forget it. */
export type PushOutcome = 'sent' | 'gone' | 'refused' | 'failed'

export interface PushSenderOptions extends PushPolicy {
  vapid: VapidKeys
  /** Who runs this server, for the push service (RFC 8292 `sub`): an https URL or a mailto:. */
  contact: string
  /** PEM certificates trusted besides the system's, for a push service on loopback (tests). */
  extraCa?: string
  /** Each send's bound, connection included; 5 s unless told. */
  timeoutMs?: number
}

const ANSWER_BYTES = 4096

export class PushSender {
  readonly #dispatcher: Dispatcher
  readonly #timeoutMs: number

  constructor(private readonly options: PushSenderOptions) {
    this.#timeoutMs = options.timeoutMs ?? 5_000
    this.#dispatcher = new Agent({
      connect: {
        lookup: pushLookup(options.allowLoopback === true),
        timeout: this.#timeoutMs,
        ...(options.extraCa && { ca: [...rootCertificates, options.extraCa] }),
      },
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    })
  }

  async send(subscription: PushSubscription, message: PushMessage): Promise<PushOutcome> {
    if (endpointRefusal(subscription.endpoint, this.options) !== undefined) return 'refused'
    const details = webpush.generateRequestDetails(subscription, message.payload, {
      vapidDetails: { subject: this.options.contact, ...this.options.vapid },
      TTL: message.ttlSeconds,
      urgency: 'high',
      ...(message.topic && { topic: message.topic }),
      contentEncoding: 'aes128gcm',
    })
    const url = new URL(details.endpoint)
    try {
      const answer = await this.#dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: details.body ?? undefined,
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
      await drain(answer.body)
      if (answer.statusCode === 404 || answer.statusCode === 410) return 'gone'
      return answer.statusCode >= 200 && answer.statusCode < 300 ? 'sent' : 'failed'
    } catch (error) {
      return errorCode(error) === NO_PUSH_ADDRESS ? 'refused' : 'failed'
    }
  }

  close(): Promise<void> {
    return this.#dispatcher.close()
  }
}

/** Reads at most ANSWER_BYTES of an answer nobody needs, then lets the rest go. */
async function drain(body: Dispatcher.ResponseData['body']) {
  let read = 0
  for await (const chunk of body) {
    read += (chunk as Buffer).length
    if (read > ANSWER_BYTES) {
      body.destroy()
      return
    }
  }
}

/** A new key pair for the connector's VAPID signature (P-256), base64url. */
export const newVapidKeys = (): VapidKeys => webpush.generateVAPIDKeys()
