import { isIP } from 'node:net'
import { z } from 'zod'
import { isLoopbackHostname } from '../config/loopback.js'
import { isPublicAddress } from './addresses.js'

/**
 * A device's push subscription, as its browser hands it over (`PushSubscription.toJSON()`), and
 * whether the connector may send to it. What is refused says what to change, in words for the
 * person's page.
 */

export interface PushPolicy {
  /**
   * The push services' hosts a subscription may name: a host exactly, or `.example.com` for any
   * host under it. Unset: any public https host.
   */
  services?: readonly string[]
  /** Development only: a push service on this machine, for tests. */
  allowLoopback?: boolean
}

const base64url = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`)
    .refine((value) => Buffer.from(value, 'base64url').length === bytes, {
      message: `${what} must be ${bytes} bytes`,
    })

/** RFC 8291's keys: the device's P-256 public key (uncompressed) and its 16-byte secret. */
const SubscriptionShape = z.object({
  endpoint: z.string().max(1024, 'the endpoint must be at most 1,024 characters'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64url(65, 'keys.p256dh'),
    auth: base64url(16, 'keys.auth'),
  }),
})

export interface PushSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

export type SubscriptionCheck =
  { ok: true; subscription: PushSubscription } | { ok: false; reason: string }

/** The subscription the browser sent, or why the connector will not send to it. */
export function checkSubscription(value: unknown, policy: PushPolicy): SubscriptionCheck {
  const parsed = SubscriptionShape.safeParse(value)
  if (!parsed.success)
    return {
      ok: false,
      reason: `This device's subscription is not one: ${parsed.error.issues[0]!.message}.`,
    }
  const { endpoint, keys } = parsed.data
  const refusal = endpointRefusal(endpoint, policy)
  return refusal === undefined
    ? { ok: true, subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } }
    : { ok: false, reason: refusal }
}

/** Why a push may not go to `endpoint`; undefined when it may. */
export function endpointRefusal(endpoint: string, policy: PushPolicy): string | undefined {
  const url = URL.parse(endpoint)
  if (!url) return 'The push endpoint is not a URL.'
  const loopback = policy.allowLoopback === true && isLoopbackHostname(url.hostname)
  if (url.protocol !== 'https:') return 'The push endpoint must be an https URL.'
  if (url.username || url.password) return 'The push endpoint must not carry a user name.'
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  if (isIP(literal) !== 0 && !isPublicAddress(literal) && !loopback)
    return 'The push endpoint names an address on a private network.'
  if (
    policy.services &&
    !loopback &&
    !policy.services.some((host) => hostMatches(url.hostname, host))
  )
    return `This server sends notifications only through ${policy.services.join(', ')}; this browser’s push service (${url.hostname}) is not one of them.`
  return undefined
}

const hostMatches = (hostname: string, allowed: string) =>
  allowed.startsWith('.')
    ? hostname.endsWith(allowed) && hostname.length > allowed.length
    : hostname === allowed
