import type { Context } from 'hono'
import { html } from 'hono/html'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { choiceForm, type ChoiceForm } from './choice-page.js'
import {
  devicesList,
  notificationsOffer,
  type DeviceView,
  type NotificationsOffer,
} from './devices-section.js'
import { endingForm, page, personLinks, time, type PageStatus } from './page.js'

/**
 * The connections page: signed out, what it is and a button to sign in through the provider;
 * signed in, each assistant connected to the person's account with a Disconnect button, and the
 * devices that show their notifications, each with Remove. Plain forms; only turning
 * notifications on needs a script. Every form carries its CSRF token.
 */

export const CONNECTIONS_PATH = '/connections'

/** The page where the person changes what one of their connections covers. */
export const coveragePath = (grantId: string) =>
  `${CONNECTIONS_PATH}/${encodeURIComponent(grantId)}/coverage`

export function signedOutPage(
  c: Context,
  { providerName, csrf, message, status = 200 }: SignedOutView,
) {
  return page(
    c,
    'Your connected assistants',
    html`<section class="card">
      <h1>Your connected assistants</h1>
      ${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
      <p>
        This page lists the assistants you allowed to use your account through this connector, one
        line per assistant and service, and lets you disconnect any of them. Disconnecting ends the
        assistant's access at once, and the connector deletes what it held for it.
      </p>
      <p>Sign in with your provider account to see them.</p>
      <form method="post" action="${CONNECTIONS_PATH}/sign-in">
        <input type="hidden" name="csrf" value="${csrf}" />
        <div class="actions">
          <button name="SignIn" value="SignIn">Sign in with ${providerName}</button>
        </div>
      </form>
    </section>`,
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
      ${message ? html`<p class="status" role="status">${message}</p>` : ''}
      ${
        connections.length === 0
          ? html`<p class="card">No assistant is connected.</p>`
          : html`<ul class="plain">
              ${connections.map((connection) => html`<li>${connectionItem(connection, csrf)}</li>`)}
            </ul>`
      }
      <p class="note">
        Assistants never see your password or your provider's token. Disconnecting here is the same
        as revoking the assistant's access from the assistant itself.
      </p>
      ${view.notifications ? notificationsOffer(view.notifications) : ''}
      ${devicesList(view.devices ?? [], csrf)}
      <footer>
        <form method="post" action="${CONNECTIONS_PATH}/sign-out">
          <p>
            Signed in as <strong>${subject}</strong>.
            <input type="hidden" name="csrf" value="${csrf}" />
            <button name="SignOut" value="SignOut">Sign out</button>
          </p>
        </form>
        ${personLinks}
      </footer>`,
  )
}

/** One of the person's connections, as the page shows it (account/connections.ts). */
export interface ConnectionView {
  grantId: string
  clientName: string
  /** Where its authorization sent the person back (`localhost:54321`), or where it may. */
  returnsTo: readonly string[]
  service: ServiceName
  /** Each permission of the grant, in the person's words. */
  permissions: readonly string[]
  /** When the person allowed it (epoch milliseconds). */
  since: number
  coverage: CoverageView
}

/** What a grant covers (auth/coverage.ts), as far as the page says it: every one, or how many. */
export type CoverageView =
  { readonly all: true } | { readonly all: false; readonly ids: ReadonlySet<string> }

export interface SignedInView {
  subject: string
  connections: ConnectionView[]
  csrf: string
  message?: string
  /** The button that turns notifications on for this device; none without push. */
  notifications?: NotificationsOffer
  /** The devices that show the person's notifications. */
  devices?: readonly DeviceView[]
}

function connectionItem(connection: ConnectionView, csrf: string) {
  const hosts = connection.returnsTo.join(', ')
  return html`<article class="card">
    <h3>${connection.clientName}</h3>
    <p class="meta">
      Uses your <strong>${SERVICES[connection.service].title}</strong>${
        hosts ? html`, returns to ${hosts}` : ''
      };
      connected since ${time(connection.since)}.
    </p>
    ${
      connection.permissions.length
        ? html`<p>It can:</p>
            <ul>
              ${connection.permissions.map((permission) => html`<li>${permission}</li>`)}
            </ul>`
        : ''
    }
    <p>
      It may use ${coverageWords(connection.service, connection.coverage)}.
      <a href="${coveragePath(connection.grantId)}">Change what it may use</a>
    </p>
    ${endingForm(
      `${CONNECTIONS_PATH}/disconnect`,
      csrf,
      { name: 'grant', value: connection.grantId },
      'Disconnect',
    )}
  </article>`
}

/** "every task list, including new ones", or "2 chosen sites". */
export function coverageWords(service: ServiceName, coverage: CoverageView): string {
  const { noun, nouns } = SERVICES[service].resource
  if (coverage.all) return `every ${noun}, including new ones`
  const count = coverage.ids.size
  return count === 0 ? `no ${noun}` : `${count} chosen ${count === 1 ? noun : nouns}`
}

/** The choice of what one connection covers, as at consent, with Save. */
export function coveragePage(
  c: Context,
  view: { clientName: string; service: ServiceName; form: ChoiceForm },
  { message, status = 200 }: { message?: string; status?: PageStatus } = {},
) {
  const { resource } = SERVICES[view.service]
  return page(
    c,
    `What ${view.clientName} may use`,
    html`<section class="card">
        <h1>Which ${resource.nouns} may <em>${view.clientName}</em> use?</h1>
        ${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
        <p class="lead">
          From its next request on, <strong>${view.clientName}</strong> can use only the
          ${resource.nouns} you allow here. It does not need to connect again.
        </p>
        ${choiceForm(view.form)}
      </section>
      <p><a href="${CONNECTIONS_PATH}">Back to your connected assistants</a></p>`,
    status,
  )
}
