import type { Context } from 'hono'
import { html } from 'hono/html'
import { page, type PageStatus } from './page.js'

/** Something the person cannot fix on this page: explained, with what to do next. */
export function problemPage(
  c: Context,
  title: string,
  message: string,
  status: PageStatus,
  continueTo?: { href: string; label: string },
) {
  return page(
    c,
    title,
    html`<section class="card">
      <h1>${title}</h1>
      <p>${message}</p>
      ${continueTo ? html`<p><a href="${continueTo.href}">${continueTo.label}</a></p>` : ''}
    </section>`,
    status,
  )
}
