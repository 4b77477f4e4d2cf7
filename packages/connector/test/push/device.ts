import { expect } from 'vitest'
import type { Person } from '../support/connector.js'
import type { Delivered, PushService, TestDevice } from '../support/push-service.js'

/**
 * A person's device as the pages' script and the service worker drive it, over HTTP with the
 * person's cookies: turning notifications on from a page, and reading and deciding a pushed
 * change as the worker does.
 */

/** The Notify button's data on a page: the server's key and the post's token. */
export function notifyButtonOf(page: string): { key: string; csrf: string } {
  const button = /<button[^>]*name="Notify"[^>]*>/.exec(page)?.[0]
  if (!button) throw new Error('no Notify button on the page')
  return {
    key: /data-push-key="([^"]+)"/.exec(button)![1]!,
    csrf: /data-csrf="([^"]+)"/.exec(button)![1]!,
  }
}

/** Turns notifications on for a new device of `service`'s from `pageUrl`, as /push.js does. */
export async function turnOnNotifications(
  person: Person,
  pageUrl: string,
  service: PushService,
  userAgent = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
): Promise<TestDevice> {
  const page = await (await person.fetch('GET', pageUrl)).text()
  const { csrf } = notifyButtonOf(page)
  const device = service.device()
  const res = await person.fetch(
    'POST',
    new URL('/connections/devices', pageUrl).toString(),
    { csrf, subscription: JSON.stringify(device.subscription) },
    { 'user-agent': userAgent },
  )
  const said = (await res.json()) as { message: string }
  expect(res.status, said.message).toBe(200)
  return device
}

/** What the push service delivered to `device`, waited for (the call that sends it is in flight). */
export async function deliveredTo(
  service: PushService,
  device: TestDevice,
  count = 1,
): Promise<Delivered[]> {
  await expect
    .poll(() => service.delivered.filter((one) => one.device === device.id).length, {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(count)
  return service.delivered.filter((one) => one.device === device.id)
}

/** The change a delivered message names. */
export const pushedApproval = (delivered: Delivered) =>
  (JSON.parse(delivered.payload) as { approval: string }).approval

/** What the worker reads to show a pushed change, as `person`. */
export async function notificationOf(person: Person, origin: string, id: string) {
  const res = await person.fetch('GET', `${origin}/approvals/${id}/notification`)
  return { status: res.status, body: (await res.json()) as NotificationBody }
}

export interface NotificationBody {
  title: string
  body: string
  csrf?: string
  actions: { action: string; title: string }[]
}

/** A notification's action, posted as the worker posts it. */
export async function actOnNotification(
  person: Person,
  origin: string,
  id: string,
  decision: 'approve' | 'decline',
  csrf: string,
) {
  const res = await person.fetch('POST', `${origin}/approvals/${id}/notification`, {
    csrf,
    decision,
  })
  return { status: res.status, body: (await res.json()) as NotificationBody }
}
