import type { Context } from 'hono'
import { html } from 'hono/html'
import { CROSS_SITE_MESSAGE, isCrossSitePost } from '../account/cross-site.js'
import { currentUser, signInForm } from '../account/session.js'
import { listConnections, revokeClient } from '../auth/grants.js'
import { scopeInWords } from '../auth/scope-words.js'
import { fullScope } from '../auth/scopes.js'
import type { SandboxEnv } from '../core/state.js'
import { FormError, readForm } from '../http/form.js'
import { page } from '../http/page.js'

const HERE = '/account/connections'
const TITLE = 'Apps with access to your account'

/** `GET /account/connections`: the person's third-party apps, each with a Revoke button. */
export async function showConnections(c: Context<SandboxEnv>) {
  const user = await currentUser(c)
  if (!user) {
    return page(
      c,
      'Sign in',
      html`<h1>Sign in</h1>
        <p>Sign in to see the apps that have access to your account.</p>
        ${signInForm(HERE)}`,
    )
  }
  const { db, config } = c.var.sandbox
  const apps = await listConnections(db, user)
  const list = apps.length
    ? html`<ul>
        ${apps.map(
          (app) =>
            html`<li>
              <h2>${app.client}</h2>
              <p>
                Has access since <time datetime="${app.since}">${readableTime(app.since)}</time>. It
                may:
              </p>
              <ul>
                ${app.scopes.map(
                  (s) =>
                    html`<li>
                      ${scopeInWords(s)}
                      <small><code>${fullScope(s, config.scopePrefix)}</code></small>
                    </li>`,
                )}
              </ul>
              <form method="post" action="${HERE}/revoke">
                <input type="hidden" name="client" value="${app.client}" />
                <button name="Revoke" value="Revoke">Revoke</button>
              </form>
            </li>`,
        )}
      </ul>`
    : html`<p>No apps have access to your account.</p>`
  return page(
    c,
    TITLE,
    html`<form method="post" action="/account/sign-out">
        Signed in as <strong>${user}</strong>.
        <button name="SignOut" value="Sign out">Sign out</button>
      </form>
      <h1>${TITLE}</h1>
      ${list}`,
  )
}

/** `POST /account/connections/revoke`: ends every grant the person gave one app, at once. */
export async function revokeConnection(c: Context<SandboxEnv>) {
  if (isCrossSitePost(c)) return page(c, TITLE, html`<p>${CROSS_SITE_MESSAGE}</p>`, 400)
  const user = await currentUser(c)
  if (!user) {
    return page(
      c,
      'Sign in',
      html`<h1>Sign in</h1>
        <p>You are not signed in any more. Sign in, then revoke the app again.</p>
        ${signInForm(HERE)}`,
      400,
    )
  }
  let client: string | null
  try {
    client = (await readForm(c)).get('client')
  } catch (err) {
    if (!(err instanceof FormError)) throw err
    return page(
      c,
      TITLE,
      html`<p>${err.message}</p>
        <p><a href="${HERE}">Back</a></p>`,
      400,
    )
  }
  if (!client) {
    return page(
      c,
      TITLE,
      html`<p>Say which app to revoke: the form needs a <code>client</code> field.</p>
        <p><a href="${HERE}">Back to your apps</a></p>`,
      400,
    )
  }
  // Revoking an app that no longer has access is not an error: the outcome is the same.
  await revokeClient(c.var.sandbox.db, user, client)
  return c.redirect(HERE, 303)
}

function readableTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}
