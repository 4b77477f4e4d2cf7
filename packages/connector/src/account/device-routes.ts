import type { Context, Hono } from 'hono'
import { formOrRefusal } from '../auth/form-post.js'
import type { PageStatus } from '../pages/page.js'
import { DEVICES_PATH } from '../pages/push-scripts.js'
import { deviceLabel } from '../push/device-label.js'
import { checkSubscription } from '../push/subscriptions.js'
import { devicesToken, type AccountPage } from './page-context.js'

/**
 * The person's devices that show notifications:
 *
 *   POST /connections/devices         this device's push subscription, from /push.js: JSON answer
 *   POST /connections/devices/remove  one of their devices, from the connections page
 *
 * The first is posted by the pages' script with a token of its own (the person's session and
 * this purpose), the second by the connections page's form with its token.
 */

export function deviceRoutes(app: Hono, page: AccountPage): void {
  const push = page.parts.push
  if (!push) return
  const said = (c: Context, message: string, status: PageStatus = 400) =>
    c.json({ message }, status)

  app.post(DEVICES_PATH, async (c) => {
    const form = await formOrRefusal(c, page.parts.config.publicUrl, said)
    if (form instanceof Response) return form
    const session = await page.sessions.current(c)
    if (!session)
      return said(c, 'You are not signed in any more. Reload the page and sign in.', 403)
    if (!page.parts.forms.connections.check(devicesToken(session), form.get('csrf')))
      return said(c, 'This page is out of date. Reload it and try again.', 403)
    let posted: unknown
    try {
      posted = JSON.parse(form.get('subscription') ?? '')
    } catch {
      return said(c, 'This device sent no subscription. Reload the page and try again.')
    }
    const checked = checkSubscription(posted, push.policy)
    if (!checked.ok) return said(c, checked.reason)
    await push.devices.add(
      session.subject,
      checked.subscription,
      deviceLabel(c.req.header('user-agent')),
    )
    page.parts.log.info('notifications turned on for a device')
    return said(
      c,
      'Notifications are on for this device. When an assistant asks to change something, it shows here.',
      200,
    )
  })

  app.post(`${DEVICES_PATH}/remove`, async (c) => {
    const form = await page.formOf(c)
    if (form instanceof Response) return form
    const session = await page.sessions.current(c)
    if (!session) return page.refused(c, page.signedOutNow, 403)
    if (!page.sessionTokenIsGood(session, form.get('csrf'))) return page.refused(c, page.outOfDate)
    const removed = await push.devices.remove(session.subject, form.get('device') ?? '')
    if (!removed)
      return page.refused(c, 'That device does not show your notifications (any more).', 404)
    page.parts.log.info('notifications turned off for a device')
    return page.signedIn(c, session, 'That device no longer shows your notifications.')
  })
}
