import type { Context } from 'hono'
import { html } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'

type Body = HtmlEscapedString | Promise<HtmlEscapedString>

/**
 * A whole server-rendered page: plain HTML that works without JavaScript, never framed,
 * never cached. Values interpolated with `html` are escaped.
 */
export function page(c: Context, title: string, body: Body, status: 200 | 400 | 404 | 410 = 200) {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
  )
  c.header('X-Frame-Options', 'DENY')
  c.header('Cache-Control', 'no-store')
  c.header('Referrer-Policy', 'no-referrer')
  return c.html(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${title} · Sandbox provider</title>
          <style>
            body {
              font:
                16px/1.5 system-ui,
                sans-serif;
              max-width: 44rem;
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
            button.small {
              font-size: 0.85rem;
              padding: 0.1rem 0.6rem;
              margin: 0 0 0 0.25rem;
            }
            form.done-form {
              display: inline;
            }
            input[type='text'] {
              font: inherit;
              padding: 0.3rem;
            }
            .done {
              text-decoration: line-through;
              color: #777;
            }
            .target {
              background: #fff7cc;
            }
            ul.tasks {
              list-style: none;
              padding-left: 0;
            }
            ul.tasks li {
              margin: 0.25rem 0;
            }
            ul.tasks ul.tasks {
              padding-left: 1.5rem;
            }
          </style>
        </head>
        <body>
          <header>Sandbox provider: a local emulator for development and tests</header>
          ${body}
        </body>
      </html>`,
    status,
  )
}
