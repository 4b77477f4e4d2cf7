import type { Context } from 'hono'
import { html } from 'hono/html'
import { SERVICES, type ServiceName } from '../services/catalog.js'
import { choiceForm, type ChoiceForm } from './choice-page.js'
import { page, type PageStatus } from './page.js'

export interface ConsentRequest {
  uid: string
  /** The client's name, or its id when it gave none. */
  clientName: string
  clientId: string
  /** For a client named by a metadata document, the host that publishes it (`claude.ai`). */
  publishedBy?: string
  /** Where the person is sent back, whatever they choose. */
  redirectHost: string
  service: ServiceName
  scopes: string[]
  csrf: string
}

/**
 * The connector's consent page: who asks (the client, and the host it sends the person back to),
 * for which service, and each permission in words. A plain form posting to the same URL: the
 * button pressed, `Allow` or `Deny`, and the CSRF token bound to this authorization.
 */
export function consentPage(
  c: Context,
  request: ConsentRequest,
  { message, status = 200 }: { message?: string; status?: PageStatus } = {},
) {
  const service = SERVICES[request.service]
  const permissions = service.scopes.filter((scope) => request.scopes.includes(scope.name))
  const named = request.clientName !== request.clientId
  return page(
    c,
    `Allow access to ${service.title}?`,
    html`<section class="card">
        <h1>Allow <em>${request.clientName}</em> to use your ${service.title}?</h1>
        ${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
        <p class="lead">
          The app <strong>${request.clientName}</strong>
          ${
            request.publishedBy
              ? html`<small>(published by <strong>${request.publishedBy}</strong>)</small>`
              : named
                ? html`<small>(<code>${request.clientId}</code>)</small>`
                : ''
          }
          asks for access to
          <strong>${service.title}</strong> in your account. It will be able to:
        </p>
        <ul>
          ${permissions.map((scope) => html`<li>${scope.description}</li>`)}
        </ul>
        <p>
          If you allow, your provider asks you to sign in and confirm. Whatever you choose, you are
          then sent back to <strong>${request.redirectHost}</strong>.
        </p>
        <form method="post" action="/consent/${request.uid}">
          <input type="hidden" name="csrf" value="${request.csrf}" />
          <div class="actions">
            <button name="Allow" value="Allow">Allow</button>
            <button name="Deny" value="Deny">Deny</button>
          </div>
        </form>
      </section>
      <p class="note">
        The app never sees your password or your provider's token, and every change it asks to make
        waits for your approval. You can take access back at any time, from the app, from your
        provider's list of connected apps, or on
        <a href="/connections">your connected assistants</a>.
      </p>`,
    status,
  )
}

/**
 * The second page of an authorization, after the provider's sign-in: what the grant covers of
 * the person's lists, sites or properties (choice-page.ts), with `Allow` and `Deny`.
 */
export function coverageChoicePage(
  c: Context,
  request: Pick<ConsentRequest, 'clientName' | 'service'>,
  form: ChoiceForm,
  { message, status = 200 }: { message?: string; status?: PageStatus } = {},
) {
  const { resource } = SERVICES[request.service]
  return page(
    c,
    `Choose what ${request.clientName} may use`,
    html`<section class="card">
        <h1>Which ${resource.nouns} may <em>${request.clientName}</em> use?</h1>
        ${message ? html`<p class="alert" role="alert">${message}</p>` : ''}
        <p class="lead">
          You are signed in. <strong>${request.clientName}</strong> can use only the
          ${resource.nouns} you allow here, and none you add later unless you choose every one.
        </p>
        ${choiceForm(form)}
      </section>
      <p class="note">
        You can change this at any time on
        <a href="/connections">your connected assistants</a>, without connecting again.
      </p>`,
    status,
  )
}
