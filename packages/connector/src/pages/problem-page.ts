import type { Context } from 'hono'
import { html } from 'hono/html'
import { STORE_RETRY_AFTER_SECONDS } from '../store/unreachable.js'
import { page, pageText, type PageStatus } from './page.js'

/** Something the person cannot fix on this page: explained, with what to do next. */
export function problemPage(
  c: Context,
  title: string,
  message: string,
  status: PageStatus,
  continueTo?: { href: string; label: string },
) {
  return page(c, title, problemCard(title, message, continueTo), status)
}

const STORE_AWAY_TITLE = 'Try again in a moment'
const STORE_AWAY_MESSAGE =
  'This server cannot reach its database for a moment, so nothing was done or changed. Try again in a few seconds: reload this page, or go back and do it again.'

/** The store is away for a moment (store/unreachable.ts): try again, nothing was changed. */
export function storeAwayPage(c: Context) {
  c.header('Retry-After', String(STORE_RETRY_AFTER_SECONDS))
  return problemPage(c, STORE_AWAY_TITLE, STORE_AWAY_MESSAGE, 503)
}

/** The same page as text, for answers written outside Hono (oidc-provider's). */
export const storeAwayPageText = () => noticePageText(STORE_AWAY_TITLE, STORE_AWAY_MESSAGE)

/** A card of words as a whole page's text, for answers written outside Hono. */
export const noticePageText = (title: string, message: string) =>
  pageText(title, problemCard(title, message))

/** The problem's card: what happened, in words, and where to go on. */
function problemCard(title: string, message: string, continueTo?: { href: string; label: string }) {
  return html`<section class="card">
    <h1>${title}</h1>
    <p>${message}</p>
    ${continueTo ? html`<p><a href="${continueTo.href}">${continueTo.label}</a></p>` : ''}
  </section>`
}
