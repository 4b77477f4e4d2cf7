import type { Context } from 'hono'
import { html } from 'hono/html'
import { page, type PageStatus } from '../auth/page.js'
import { SERVICES } from '../services/catalog.js'
import type { Connection } from './connections.js'

/**
 * The connections page: signed out, what it is and a button to sign in through the provider;
 * signed in, each assistant connected to the person's account with a Disconnect button. Plain
 * forms, no JavaScript; every form carries its CSRF token.
 */

export const CONNECTIONS_PATH = '/connections'

export function signedOutPage(
  c: Context,
  { providerName, csrf, message, status = 200 }: SignedOutView,
) {
  return page(
    c,
    'Your connected assistants',
    html`<h1>Your connected assistants</h1>
      ${message ? html`<p role="alert"><strong>${message}</strong></p>` : ''}
      <p>
        This page lists the assistants you allowed to use your account through this connector, one
        line per assistant and service, and lets you disconnect any of them. Disconnecting ends the
        assistant's access at once, and the connector deletes what it held for it.
      </p>
      <p>Sign in with your provider account to see them.</p>
      <form method="post" action="${CONNECTIONS_PATH}/sign-in">
        <input type="hidden" name="csrf" value="${csrf}" />
        <p><button name="SignIn" value="SignIn">Sign in with ${providerName}</button></p>
      </form>`,
    status,
  )
}

export interface SignedOutView {
  providerName: string
  csrf: string
  message?: string
  status?: PageStatus
}

export function signedInPage(c: Context, view: SignedInView) {
  const { subject, connections, csrf, message } = view
  return page(
    c,
    'Your connected assistants',
    html`<h1>Your connected assistants</h1>
      <form method="post" action="${CONNECTIONS_PATH}/sign-out">
        <p>
          Signed in as <strong>${subject}</strong>.
          <input type="hidden" name="csrf" value="${csrf}" />
          <button name="SignOut" value="SignOut">Sign out</button>
        </p>
      </form>
      ${message ? html`<p role="status"><strong>${message}</strong></p>` : ''}
      ${
        connections.length === 0
          ? html`<p>No assistant is connected.</p>`
          : html`<ul class="connections">
              ${connections.map((connection) => connectionItem(connection, csrf))}
            </ul>`
      }
      <p>
        <small
          >Assistants never see your password or your provider's token. Disconnecting here is the
          same as revoking the assistant's access from the assistant itself.</small
        >
      </p>`,
  )
}

export interface SignedInView {
  subject: string
  connections: Connection[]
  csrf: string
  message?: string
}

function connectionItem(connection: Connection, csrf: string) {
  const hosts = connection.redirectHosts.join(', ')
  return html`<li>
    <p>
      <strong>${connection.clientName}</strong>
      ${hosts ? html`<small>(returns to ${hosts})</small>` : ''} uses your
      <strong>${SERVICES[connection.service].title}</strong>, connected since
      <time datetime="${new Date(connection.since).toISOString()}">${when(connection.since)}</time>.
    </p>
    ${
      connection.permissions.length
        ? html`<p>It can:</p>
            <ul>
              ${connection.permissions.map((permission) => html`<li>${permission}</li>`)}
            </ul>`
        : ''
    }
    <form method="post" action="${CONNECTIONS_PATH}/disconnect">
      <input type="hidden" name="csrf" value="${csrf}" />
      <input type="hidden" name="grant" value="${connection.grantId}" />
      <button name="Disconnect" value="Disconnect">Disconnect</button>
    </form>
  </li>`
}

/** "2025-03-01 14:05 UTC": the same on every replica, whatever its time zone. */
const when = (epochMs: number) =>
  `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`
