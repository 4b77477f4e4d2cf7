import type { Context } from 'hono'
import { html } from 'hono/html'
import { SERVICE_NAMES, SERVICES } from '../services/catalog.js'
import { page, personLinks } from './page.js'

/**
 * `GET /`: what this server is, for a person who opens its address: the MCP URL of each service
 * to give an assistant, and the way to their own pages.
 */
export function homePage(c: Context, { publicUrl, providerName }: HomeView) {
  return page(
    c,
    'Connector',
    html`<section class="card">
        <h1>A connector for your assistant</h1>
        <p class="lead">
          This server lets an AI assistant work on your account at ${providerName}, one service at a
          time, with a grant you can take back whenever you like. The assistant never sees your
          password or your provider's token, and every change it asks to make waits for your
          approval.
        </p>
        <p>Give your assistant the address of the service it should use:</p>
        <dl class="summary">
          ${SERVICE_NAMES.map(
            (name) =>
              html`<div>
                <dt>${SERVICES[name].title}</dt>
                <dd><code>${publicUrl}/${name}/mcp</code></dd>
              </div>`,
          )}
        </dl>
        <p>
          It then opens a page here in your browser: you see what it asks for, sign in with
          ${providerName}, and choose what it may use.
        </p>
      </section>
      <footer>${personLinks}</footer>`,
  )
}

export interface HomeView {
  publicUrl: string
  /** "Google", or the provider's host. */
  providerName: string
}
