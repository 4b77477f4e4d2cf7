import type { Hono } from 'hono'
import { CONNECTIONS_PATH } from '../pages/connections-page.js'
import type { AccountPage } from './page-context.js'

/** The page itself, and signing in and out of it. */
export function sessionRoutes(app: Hono, page: AccountPage): void {
  const { sessions, signIn } = page

  app.get(CONNECTIONS_PATH, async (c) => {
    const session = await sessions.current(c)
    return session ? page.signedIn(c, session) : page.signedOut(c)
  })

  app.post(`${CONNECTIONS_PATH}/sign-in`, async (c) => {
    const form = await page.formOf(c)
    if (form instanceof Response) return form
    if (!signIn.checkFormToken(c, form.get('csrf'))) {
      return page.signedOut(c, 'This form is out of date. Press Sign in again.', 400)
    }
    const target = await signIn.begin(c, CONNECTIONS_PATH)
    return c.redirect(target.toString(), 303)
  })

  app.post(`${CONNECTIONS_PATH}/sign-out`, async (c) => {
    const form = await page.formOf(c)
    if (form instanceof Response) return form
    const session = await sessions.current(c)
    if (session && !page.sessionTokenIsGood(session, form.get('csrf'))) {
      return page.refused(c, page.outOfDate)
    }
    await sessions.end(c)
    return c.redirect(CONNECTIONS_PATH, 303)
  })
}
