import { Hono } from 'hono'
import { iconUrl } from './app-manifest.js'

/**
 * The pages' only scripts, both for notifications on the person's devices; every page works
 * without them. `/push.js` turns notifications on from the button the approvals and connections
 * pages draw (its data: the server's VAPID key, where to post, the form's CSRF token).
 * `/service-worker.js` shows a pushed change: the push names only its id, and the worker reads
 * what to show, and the token that decides it, from the connector with the person's own session;
 * Approve and Decline post that decision back. A tap anywhere else opens the change's page.
 */

export const PUSH_SCRIPT_PATH = '/push.js'
export const SERVICE_WORKER_PATH = '/service-worker.js'
/** Where a device's subscription is posted, and removed from. */
export const DEVICES_PATH = '/connections/devices'
/** What a pushed change's notification shows (GET), and where its actions decide it (POST). */
export const notificationPath = (id: string) => `/approvals/${id}/notification`
/** How long the page waits for the browser's push service to subscribe it. */
export const SUBSCRIBE_BOUND_MS = 20_000

const PAGE_SCRIPT = `'use strict'
;(async () => {
  const button = document.querySelector('[data-push-key]')
  const status = document.querySelector('[data-push-status]')
  if (!button || !status) return
  const say = (words) => { status.textContent = words; status.hidden = false }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say('This browser does not show notifications from websites. On an iPhone or iPad, add this page to your Home Screen first, then open it from there.')
    return
  }
  button.hidden = false
  if (Notification.permission === 'denied') say('Notifications are blocked for this site. Allow them in your browser’s site settings, then come back.')
  const UNANSWERED = Symbol('unanswered')
  const key = Uint8Array.from(atob(button.dataset.pushKey.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      const permission = await Notification.requestPermission()
      if (permission !== 'granted') {
        say('Notifications were not allowed, so this device will not be told. You can still approve here.')
        return
      }
      const registration = await navigator.serviceWorker.register('${SERVICE_WORKER_PATH}')
      await navigator.serviceWorker.ready
      // A browser whose push service cannot be reached (a network that blocks it) may never
      // answer the subscribe: bounded, so the person is told rather than left with a dead button.
      const unanswered = new Promise((resolve) => setTimeout(resolve, ${SUBSCRIBE_BOUND_MS}, UNANSWERED))
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await Promise.race([registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), unanswered]))
      if (subscription === UNANSWERED) {
        say('This browser’s push service did not answer, so notifications are not on. Check this device’s connection and try again. You can still approve here.')
        return
      }
      const body = new URLSearchParams({ csrf: button.dataset.csrf, subscription: JSON.stringify(subscription) })
      const answer = await fetch('${DEVICES_PATH}', { method: 'POST', body, credentials: 'same-origin' })
      const said = await answer.json().catch(() => ({}))
      say(said.message ?? 'Something went wrong. Reload the page and try again.')
      if (answer.ok) button.textContent = 'Turn on again'
    } catch {
      say('This browser could not turn notifications on: it may not offer them, or they may be switched off in its settings. You can still approve here.')
    } finally {
      button.disabled = false
    }
  })
})()
`

/**
 * What a notification says when the device cannot read the change (signed out, offline): that one
 * waits, and a tap opens it. The worker shows it by itself, and the connector answers with it.
 */
export const CHANGE_WAITS = {
  title: 'A change waits for your approval',
  body: 'Open it to check what it does, then approve or decline.',
  actions: [],
} as const

const WORKER_SCRIPT = `'use strict'
const ICON = '${iconUrl('countersign-192.png')}'
const pageOf = (id) => '/approvals/' + encodeURIComponent(id)

self.addEventListener('push', (event) => {
  let id
  try { id = event.data?.json().approval } catch {}
  if (typeof id !== 'string') return
  event.waitUntil(show(id))
})

async function show(id) {
  // Signed out (or offline), the notification still says a change waits, and a tap opens it.
  let shown = ${JSON.stringify(CHANGE_WAITS)}
  try {
    const answer = await fetch(pageOf(id) + '/notification', { credentials: 'same-origin', cache: 'no-store' })
    if (answer.headers.get('content-type')?.startsWith('application/json')) shown = await answer.json()
  } catch {}
  await self.registration.showNotification(shown.title, {
    body: shown.body,
    tag: id,
    renotify: true,
    requireInteraction: shown.actions.length > 0,
    icon: ICON,
    data: { id, csrf: shown.csrf },
    actions: shown.actions,
  })
}

self.addEventListener('notificationclick', (event) => {
  const { id, csrf } = event.notification.data ?? {}
  event.notification.close()
  if (typeof id !== 'string') return
  const decision = event.action === 'approve' || event.action === 'decline' ? event.action : undefined
  event.waitUntil(decision && csrf ? decide(id, csrf, decision) : self.clients.openWindow(pageOf(id)))
})

async function decide(id, csrf, decision) {
  try {
    const body = new URLSearchParams({ csrf, decision })
    const answer = await fetch(pageOf(id) + '/notification', { method: 'POST', body, credentials: 'same-origin' })
    const said = await answer.json()
    if (answer.ok) {
      await self.registration.showNotification(said.title, { body: said.body, tag: id, icon: ICON, silent: true })
      return
    }
  } catch {}
  // Not decided here: its page says why, and decides it.
  await self.clients.openWindow(pageOf(id))
}
`

/** A new release's script is fetched again at once. */
export const SCRIPTS_CACHE = 'no-cache'

const SCRIPT_HEADERS = {
  'Content-Type': 'text/javascript; charset=utf-8',
  'Cache-Control': SCRIPTS_CACHE,
  'X-Content-Type-Options': 'nosniff',
}

export function pushScriptRoutes() {
  const app = new Hono()
  app.get(PUSH_SCRIPT_PATH, (c) => c.body(PAGE_SCRIPT, 200, SCRIPT_HEADERS))
  app.get(SERVICE_WORKER_PATH, (c) =>
    c.body(WORKER_SCRIPT, 200, {
      ...SCRIPT_HEADERS,
      // The worker's own policy: it reads and posts to the connector, nothing else.
      'Content-Security-Policy': "default-src 'none'; connect-src 'self'; img-src 'self'",
    }),
  )
  return app
}
