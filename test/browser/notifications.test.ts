import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BROWSER_WAIT,
  CHROMIUM,
  CHROMIUM_ARGS,
  checkPage,
  realBrowserAvailable,
} from '../support/browser.js'
import {
  approvalFlow,
  assistantV1,
  connectorForSuite,
  deliveredTo,
  pushedApproval,
  PushService,
  selfSignedCertificate,
  taskFixtures,
  textOf,
  type TestDevice,
} from '@countersign/connector/testing'

/**
 * Notifications on the person's device in a real browser (packages/connector/src/pages/
 * push-scripts.ts), Debian's Chromium driven by playwright-core with a profile of its own (an
 * incognito window keeps no service worker): the person turns them on from the approvals page,
 * a change from a client that cannot ask waits, the worker shows it with the change's own words,
 * and its Approve makes the change in that same call.
 *
 * What headless Chromium cannot do here, and what stands in for it:
 * - Its push service is Google's, out of reach (only loopback resolves): `pushManager.subscribe`
 *   never answers. The page's script is driven as far as it goes (permission, the worker registered,
 *   the subscribe), and the page's clock is moved past the script's bound on the subscribe, so
 *   the page says so. The device is then registered with a subscription at a push service on
 *   loopback, posted with the page's own cookie and CSRF token as the script posts it.
 * - What that push service is sent is handed to the worker through the DevTools protocol
 *   (`ServiceWorker.deliverPushMessage`), the way Chromium's push service would hand it over.
 * - Nothing clicks a notification's action: the worker is dispatched a `notificationclick` of
 *   its own notification with the action Approve. Such an event is untrusted, so its
 *   `waitUntil` throws; the worker's decision is already under way by then (it is the
 *   argument), and what it does is checked: the change made, the notification replaced.
 *
 * Screenshots are kept in .tmp/screenshots, for people to look at (never compared by pixel).
 */
const browserAvailable = realBrowserAvailable('the real-browser tests of notifications')

const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const suite = connectorForSuite({
  connector: { push: { allowLoopback: true }, extraCa: tls.cert, approvalWaitSeconds: 30 },
})
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

/** What the worker's registration shows, as plain data. */
interface Shown {
  title: string
  body: string
  tag: string
  requireInteraction: boolean
  actions: { action: string; title: string }[]
  data: { id?: string; csrf?: string } | null
}

/** The worker's global, as far as this file uses it (the DOM library has no worker types). */
interface WorkerScope {
  registration: ServiceWorkerRegistration
  dispatchEvent(event: Event): boolean
  NotificationEvent: new (
    type: 'notificationclick',
    init: { notification: Notification; action: string },
  ) => Event
}

/** A person's Chromium with a profile of its own, notifications allowed for the connector. */
async function personsChromium() {
  const profile = await mkdtemp(join(tmpdir(), 'countersign-notifications-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // Only loopback resolves, so Chromium's push service is out of reach on every machine,
    // with internet or without: the page meets the same unanswered subscribe everywhere.
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  })
  await context.grantPermissions(['notifications'], { origin: suite.url })
  const page = context.pages()[0] ?? (await context.newPage())
  const close = async () => {
    await context.close()
    await rm(profile, { recursive: true, force: true })
  }
  return { context, page, close }
}

/** Signs in on the connector's approvals page through the provider, as `user`. */
async function signInOnApprovals(page: Page, user: string) {
  await page.goto(`${suite.url}/approvals`)
  await page.getByRole('button', { name: /^Sign in with/ }).click()
  await page.waitForURL(`${suite.providerPage}**`)
  await page.locator('input[name="user"]').fill(user)
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL(`${suite.url}/approvals`)
}

/** The service worker registrations Chromium reports for the connector's origin. */
async function registrations(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page)
  const ids = new Map<string, string>()
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    for (const one of registrations)
      if (one.isDeleted) ids.delete(one.scopeURL)
      else ids.set(one.scopeURL, one.registrationId)
  })
  await cdp.send('ServiceWorker.enable')
  return { cdp, of: (scope: string) => ids.get(scope) }
}

/**
 * Presses "Turn on notifications" on the page, and moves the page's clock on until its script
 * says something: the subscribe, which Chromium's unreachable push service never answers, is
 * bounded. (The clock is the page's own, installed before it loaded; the worker's is real.)
 */
async function turnOnFromThePage(page: Page) {
  const button = page.getByRole('button', { name: 'Turn on notifications' })
  const status = page.locator('[data-push-status]')
  await button.click()
  await expect
    .poll(async () => {
      await page.clock.runFor(5_000)
      return status.innerText()
    }, BROWSER_WAIT)
    .not.toBe('')
  return { button, status: await status.innerText() }
}

/** Registers a device of `service`'s for the signed-in person, posted as the page's script does. */
async function registerDevice(page: Page, service: PushService): Promise<TestDevice> {
  const device = service.device()
  const answer = await page.evaluate(async (subscription) => {
    const button = document.querySelector<HTMLElement>('[data-push-key]')!
    const body = new URLSearchParams({
      csrf: button.dataset.csrf!,
      subscription: JSON.stringify(subscription),
    })
    const res = await fetch('/connections/devices', {
      method: 'POST',
      body,
      credentials: 'same-origin',
    })
    return { status: res.status, body: (await res.json()) as { message: string } }
  }, device.subscription)
  expect(answer.status, answer.body.message).toBe(200)
  return device
}

describe.skipIf(!browserAvailable)('notifications on the person’s device (Chromium)', () => {
  const pushService = new PushService(tls)
  beforeAll(() => pushService.start())
  afterAll(() => pushService.close())

  let people = 0
  /** A person connected as Claude, with a list to add to, signed in in their own Chromium. */
  async function personInChromium() {
    const user = `notified-${++people}`
    const { tokens } = await flow.connected(user, 'Claude', suite.person(user))
    const list = await seed(user, 1)
    const chrome = await personsChromium()
    await signInOnApprovals(chrome.page, user)
    await chrome.page.clock.install()
    await chrome.page.reload()
    return { user, token: tokens.access_token as string, ...list, ...chrome }
  }

  it('turned on from the approvals page, a waiting change is shown by the worker and approved from its notification', async () => {
    const p = await personInChromium()
    try {
      const { context, page } = p
      const workers = await registrations(context, page)
      const { button, status } = await turnOnFromThePage(page)
      // No push service answers here: the page says so, and the button can be pressed again.
      expect(status).toBe(
        'This browser’s push service did not answer, so notifications are not on. Check this device’s connection and try again. You can still approve here.',
      )
      expect(await button.isEnabled()).toBe(true)
      // The script registered the connector's worker, for the whole origin.
      await expect.poll(() => workers.of(`${suite.url}/`), BROWSER_WAIT).toBeDefined()
      const [worker] = context.serviceWorkers()
      expect(worker!.url()).toBe(`${suite.url}/service-worker.js`)
      const phone = await registerDevice(page, pushService)

      // A change from a client that cannot ask: the call waits for the device.
      const assistant = await assistantV1(suite.resource('tasks'), p.token)
      const { next } = await upstreamCalls()
      const calling = assistant.call('create_task', { tasklist: p.tasklist, title: 'Buy oat milk' })
      const [delivered] = await deliveredTo(pushService, phone)
      const id = pushedApproval(delivered!)

      // What the push service carries, handed to the worker as Chromium's push service would.
      await workers.cdp.send('ServiceWorker.deliverPushMessage', {
        origin: suite.url,
        registrationId: workers.of(`${suite.url}/`)!,
        data: delivered!.payload,
      })
      const shown = () =>
        worker!.evaluate(async () =>
          (await (self as unknown as WorkerScope).registration.getNotifications()).map(
            (n): Shown => ({
              title: n.title,
              body: n.body,
              tag: n.tag,
              requireInteraction: n.requireInteraction,
              actions: [...((n as { actions?: Shown['actions'] }).actions ?? [])].map(
                ({ action, title }) => ({ action, title }),
              ),
              data: n.data as Shown['data'],
            }),
          ),
        )
      await expect.poll(async () => (await shown()).length, BROWSER_WAIT).toBe(1)
      const [notification] = await shown()
      // The worker read the change's words with the browser's own session.
      expect(notification).toMatchObject({
        title: 'Add task "Buy oat milk" to list "Groceries"?',
        tag: id,
        requireInteraction: true,
        actions: [
          { action: 'approve', title: 'Approve' },
          { action: 'decline', title: 'Decline' },
        ],
        data: { id },
      })
      expect(notification!.body).toMatch(/^Claude asks, in your Tasks\. Until .+ UTC\.$/)
      expect(notification!.data!.csrf).toMatch(/^[\w-]{20,}$/)
      // Nothing was sent to the provider while the person had not decided.
      expect((await upstreamCalls(next)).writes).toEqual([])

      // Approve, on the worker's own notification.
      await worker!.evaluate(async (tag) => {
        const scope = self as unknown as WorkerScope
        const [own] = await scope.registration.getNotifications({ tag })
        scope.dispatchEvent(
          new scope.NotificationEvent('notificationclick', {
            notification: own!,
            action: 'approve',
          }),
        )
      }, id)
      const result = await calling
      expect(result.isError ?? false, textOf(result)).toBe(false)
      expect(result.structuredContent).toMatchObject({ title: 'Buy oat milk' })
      const { writes } = await upstreamCalls(next)
      expect(writes.map((w) => `${w.method} ${w.status}`)).toEqual(['POST 200'])
      const tasks = await suite.sandboxRequest('GET', `/tasks/v1/lists/${p.tasklist}/tasks`, {
        token: p.providerToken,
      })
      expect((tasks.body.items as { title: string }[]).map((t) => t.title)).toContain(
        'Buy oat milk',
      )
      // The notification is replaced by the word that it was approved.
      await expect
        .poll(async () => (await shown()).map((n) => `${n.tag} ${n.title}`), BROWSER_WAIT)
        .toEqual([`${id} Approved`])
      await assistant.close()
    } finally {
      await p.close()
    }
  })

  it('the notifications card, a waiting change and the devices list, at 360 px and 1280 px, light and dark', async () => {
    const p = await personInChromium()
    try {
      const { page } = p
      const problems: string[] = []
      const inBothSchemes = async (name: string) => {
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme })
          await checkPage(page, `notifications-${name}-${colorScheme}`, problems)
        }
      }
      // As an installed app opens (its start_url), with the page's word after pressing.
      await turnOnFromThePage(page)
      await inBothSchemes('approvals')

      // With a device, a change from a client that cannot ask waits on the same page.
      const phone = await registerDevice(page, pushService)
      await registerDevice(page, pushService)
      const assistant = await assistantV1(suite.resource('tasks'), p.token)
      const calling = assistant.call('create_task', { tasklist: p.tasklist, title: 'Buy oat milk' })
      const id = pushedApproval((await deliveredTo(pushService, phone))[0]!)
      await page.reload()
      expect(await page.locator('main').innerText()).toContain(
        'Add task "Buy oat milk" to list "Groceries"?',
      )
      await inBothSchemes('approvals-waiting')

      await page.goto(`${suite.url}/connections`)
      expect(await page.locator('main').innerText()).toContain(
        'Devices that show notifications (2)',
      )
      await inBothSchemes('connections')
      expect(problems).toEqual([])

      // Declined on its page, the waiting call ends.
      await page.goto(`${suite.url}/approvals/${id}`)
      await page.getByRole('button', { name: 'Decline', exact: true }).click()
      expect(textOf(await calling)).toMatch(/declined/i)
      await assistant.close()
    } finally {
      await p.close()
    }
  }, 60_000)
})
