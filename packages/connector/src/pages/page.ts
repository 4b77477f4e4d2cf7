import type { Context } from 'hono'
import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import { MANIFEST_PATH, SAFARI_ICON, TAB_ICON, THEME_COLORS } from './app-manifest.js'
import { PAGE_STYLE } from './page-style.js'

type Body = HtmlEscapedString | Promise<HtmlEscapedString>

/**
 * The connector's own pages (consent, approvals, activity, connections, errors), one family:
 * plain HTML that works without JavaScript (whose one script turns notifications on: push-scripts.ts), never framed, never cached, sending no referrer
 * (their URLs name interactions). Values interpolated with `html` are escaped. No `form-action`:
 * a consent form's answer redirects to the provider.
 *
 * The look (docs/decisions.md, "The person's pages"): one column that fits a 360 px phone without
 * sideways scrolling (long ids and URLs wrap), the system's fonts and its light or dark scheme,
 * each decision a card with its one primary action filled and the other quiet, a deletion in the
 * colour of danger, and keyboard focus always visible. Buttons are styled by their names, so
 * the forms stay as plain as a script posting them expects.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self'; manifest-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
}

export type PageStatus = 200 | 400 | 403 | 404 | 409 | 410 | 413 | 500 | 501 | 502 | 503

export function page(c: Context, title: string, body: Body, status: PageStatus = 200) {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value)
  return c.html(document(title, body), status)
}

/** The whole document, for responses written outside Hono (oidc-provider's error pages). */
export async function pageText(title: string, body: Body): Promise<string> {
  return String(await document(title, body))
}

/** "2025-03-01 14:05 UTC": the same on every replica, whatever its time zone. */
export const when = (epochMs: number) =>
  `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`

/** A moment as the pages show it: readable, and machine-readable in `datetime`. */
export const time = (epochMs: number) =>
  html`<time datetime="${new Date(epochMs).toISOString()}">${when(epochMs)}</time>`

/**
 * A form of one button that ends something of the person's (Disconnect, Remove), in the colour
 * of danger: its CSRF token and the one field naming what it ends.
 */
export const endingForm = (
  action: string,
  csrf: string,
  field: { name: string; value: string },
  button: string,
) =>
  html`<form class="danger" method="post" action="${action}">
    <input type="hidden" name="csrf" value="${csrf}" />
    <input type="hidden" name="${field.name}" value="${field.value}" />
    <div class="actions">
      <button name="${button}" value="${button}">${button}</button>
    </div>
  </form>`

/** The links every signed-in page of the person's offers at its foot. */
export const personLinks = html`<nav aria-label="Your account">
  <a href="/approvals">Waiting for you</a> <a href="/activity">Activity</a>
  <a href="/connections">Connected assistants</a>
</nav>`

const document = (title: string, body: Body) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta
          name="theme-color"
          content="${THEME_COLORS.light}"
          media="(prefers-color-scheme: light)"
        />
        <meta
          name="theme-color"
          content="${THEME_COLORS.dark}"
          media="(prefers-color-scheme: dark)"
        />
        <title>${title} · Countersign</title>
        <link rel="manifest" href="${MANIFEST_PATH}" />
        <link rel="icon" href="${TAB_ICON}" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="${SAFARI_ICON}" />
        <style>
          ${raw(PAGE_STYLE)}
        </style>
      </head>
      <body>
        <header class="brand">
          <p>
            <strong>Countersign</strong> <span>Your assistant acts only with your approval</span>
          </p>
        </header>
        <main>${body}</main>
      </body>
    </html>`
