import type { Hono } from 'hono'
import { CONNECTIONS_PATH } from '../pages/connections-page.js'
import type { AccountPage } from './page-context.js'

/** Ending one of the signed-in person's grants: its upstream token revoked and erased. */
export function disconnectRoutes(app: Hono, page: AccountPage): void {
  app.post(`${CONNECTIONS_PATH}/disconnect`, async (c) => {
    const form = await page.formOf(c)
    if (form instanceof Response) return form
    const session = await page.sessions.current(c)
    if (!session) return page.refused(c, page.signedOutNow, 403)
    if (!page.sessionTokenIsGood(session, form.get('csrf'))) {
      return page.refused(c, page.outOfDate)
    }
    const grantId = form.get('grant') ?? ''
    const outcome = grantId
      ? await page.connections.disconnect(session.subject, grantId)
      : 'not found'
    if (outcome === 'not found') return page.refused(c, page.noSuchConnection, 404)
    page.parts.log.info('assistant disconnected from the connections page')
    return c.redirect(CONNECTIONS_PATH, 303)
  })
}
