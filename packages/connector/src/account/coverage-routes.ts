import type { Context, Hono } from 'hono'
import {
  FORM_PROBLEM_MESSAGE,
  FORM_PROBLEM_STATUS,
  formBound,
  formFromOwnPage,
} from '../auth/form-post.js'
import { choiceFormAt, offeredIds, readChoice } from '../auth/posted-choice.js'
import type { ChoiceForm } from '../pages/choice-page.js'
import {
  CONNECTIONS_PATH,
  coveragePage,
  coveragePath,
  coverageWords,
} from '../pages/connections-page.js'
import type { PageStatus } from '../pages/page.js'
import type { AccountPage } from './page-context.js'

type ChoiceState = Pick<ChoiceForm, 'access' | 'chosen'>

/** What one of the signed-in person's grants may use, read live, and Save to change it. */
export function coverageRoutes(app: Hono, page: AccountPage): void {
  app.get(`${CONNECTIONS_PATH}/:grant/coverage`, async (c) => {
    const at = await coverageOf(c, page)
    if (at instanceof Response) return at
    const { link, clientName, form } = at
    const now = link.coverage
    return coveragePage(c, {
      clientName,
      service: link.service,
      form: form(
        now.all ? { access: 'all', chosen: new Set() } : { access: 'chosen', chosen: now.ids },
      ),
    })
  })

  app.post(`${CONNECTIONS_PATH}/:grant/coverage`, async (c) => {
    const at = await coverageOf(c, page)
    if (at instanceof Response) return at
    const { session, link, clientName, read, form } = at
    const { parts } = page
    const again = (message: string, state: ChoiceState, status: PageStatus = 400) =>
      coveragePage(c, { clientName, service: link.service, form: form(state) }, { message, status })
    // What this page drew of the person's items is all its form can name.
    const offered = offeredIds(read.offer)
    const posted = await formFromOwnPage(c, parts.config.publicUrl, formBound('resource', offered))
    if (typeof posted === 'string')
      return again(
        FORM_PROBLEM_MESSAGE[posted],
        { access: 'chosen', chosen: new Set() },
        FORM_PROBLEM_STATUS[posted],
      )
    if (
      !parts.forms.connections.check(`coverage ${session.id} ${link.grantId}`, posted.get('csrf'))
    )
      return page.refused(c, page.outOfDate)
    if (!posted.has('Save'))
      return again('Choose, then press Save.', { access: 'chosen', chosen: new Set() })
    const chosen = readChoice(link.service, posted, read.offer)
    if ('problem' in chosen) return again(chosen.problem, chosen)
    if ((await page.connections.cover(link, chosen.coverage)) === 'not found')
      return page.refused(c, page.noSuchConnection, 404)
    parts.log.info(
      { service: link.service, coverage: chosen.coverage.all ? 'all' : 'chosen' },
      'grant coverage changed',
    )
    const saved = `Saved: ${clientName} may now use ${coverageWords(link.service, chosen.coverage)}.`
    return c.redirect(`${CONNECTIONS_PATH}?${new URLSearchParams({ saved })}`, 303)
  })
}

/** The signed-in person's grant of the URL, and what may be chosen for it; else the answer. */
async function coverageOf(c: Context, page: AccountPage) {
  const { parts, connections } = page
  const session = await page.sessions.current(c)
  if (!session) return page.refused(c, page.signedOutNow, 403)
  const link = await connections.one(session.subject, c.req.param('grant') ?? '')
  if (!link) return page.refused(c, page.noSuchConnection, 404)
  const clientName = (await connections.of(session.subject)).find(
    (one) => one.grantId === link.grantId,
  )!.clientName
  const read = await parts.offers.read(link.service, link.credentialId, link.account)
  const form = (state: ChoiceState): ChoiceForm => {
    const csrf = parts.forms.connections.issue(`coverage ${session.id} ${link.grantId}`)
    const at = { service: link.service, path: coveragePath(link.grantId), csrf, read }
    return choiceFormAt(c, { ...at, buttons: ['Save'] }, state)
  }
  return { session, link, clientName, read, form }
}
