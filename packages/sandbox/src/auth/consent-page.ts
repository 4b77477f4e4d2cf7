import type { Context } from 'hono'
import { html } from 'hono/html'
import type { SandboxEnv } from '../core/state.js'
import { page } from '../http/page.js'
import type { AuthorizeRequest } from './authorize-request.js'
import { scopeInWords } from './scope-words.js'
import { fullScope } from './scopes.js'

/**
 * The sign-in and consent page: a plain form that works without JavaScript. It posts back to
 * the same URL (the request's parameters ride in the query string), so a post carries only the
 * person's fields: `user`, and the button pressed, `Allow` or `Deny`.
 */
export function consentPage(
  c: Context<SandboxEnv>,
  request: AuthorizeRequest,
  { user = '', message }: { user?: string; message?: string } = {},
  status: 200 | 400 = 200,
) {
  const { scopePrefix: prefix, oauth } = c.var.dialect
  const host = new URL(request.redirectUri).host
  return page(
    c,
    'Sign in and allow access',
    html`<h1>Allow <em>${request.clientId}</em> to use your account?</h1>
      <form method="post" action="${oauth.authorizePath}?${request.query}">
        ${message ? html`<p role="alert"><strong>${message}</strong></p>` : ''}
        <p>
          <label for="user">Sign in as (user name)</label><br />
          <input
            type="text"
            id="user"
            name="user"
            value="${user}"
            autocomplete="username"
            maxlength="64"
          />
        </p>
        <p>The app <strong>${request.clientId}</strong> asks to:</p>
        <ul>
          ${request.scopes.map(
            (s) =>
              html`<li>
                ${scopeInWords(s)} <small><code>${fullScope(s, prefix)}</code></small>
              </li>`,
          )}
        </ul>
        <p>Whatever you choose, you will be sent back to <strong>${host}</strong>.</p>
        <p>
          <button name="Allow" value="Allow">Allow</button>
          <button name="Deny" value="Deny">Deny</button>
        </p>
      </form>
      <p>
        <small
          >This is a development provider: you may sign in under any user name. You can take access
          back at any time on
          <a href="${c.var.sandbox.config.publicUrl}/account/connections">your connections page</a
          >.</small
        >
      </p>`,
    status,
  )
}

/** A request that cannot be answered at its redirect_uri: explained here, never redirected. */
export function brokenRequestPage(c: Context<SandboxEnv>, message: string) {
  return page(
    c,
    'Sign-in request not valid',
    html`<h1>This sign-in request is not valid</h1>
      <p>${message}</p>
      <p>
        The app that sent you here built a broken request, so nothing was sent back to it. Tell the
        app's developer, or go back and try again.
      </p>`,
    400,
  )
}
