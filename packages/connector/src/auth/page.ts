import type { Context } from 'hono'
import { html } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'

type Body = HtmlEscapedString | Promise<HtmlEscapedString>

/**
 * The connector's own pages (consent, errors): plain HTML that works without JavaScript, never
 * framed, never cached, sending no referrer (their URLs name interactions). Values interpolated
 * with `html` are escaped. No `form-action`: a consent form's answer redirects to the provider.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
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

const document = (title: string, body: Body) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Countersign</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 40rem;
            margin: 2rem auto;
            padding: 0 1rem;
            color: #1b1b1b;
          }
          header {
            font-size: 0.85rem;
            color: #666;
            border-bottom: 1px solid #ddd;
            margin-bottom: 1.5rem;
          }
          button {
            font: inherit;
            padding: 0.35rem 1rem;
            margin-right: 0.5rem;
          }
        </style>
      </head>
      <body>
        <header>Countersign: connects your assistant to your account, one service at a time</header>
        ${body}
      </body>
    </html>`
