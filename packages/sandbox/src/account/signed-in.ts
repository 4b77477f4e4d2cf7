import type { Context } from 'hono'
import { html } from 'hono/html'
import type { SandboxEnv } from '../core/state.js'
import { page } from '../http/page.js'
import { signInForm } from './session.js'

/**
 * The web view is the signed-in person's own: without a session it shows the sign-in form,
 * which comes back to `next` once the person has signed in.
 */
export function signInPage(c: Context<SandboxEnv>, next: string, why: string) {
  return page(
    c,
    'Sign in',
    html`<h1>Sign in</h1>
      <p>${why}</p>
      ${signInForm(next)}`,
  )
}

/** Who the page is for, with a way to sign out. */
export function signedInAs(user: string) {
  return html`<form method="post" action="/account/sign-out">
    Signed in as <strong>${user}</strong>.
    <button name="SignOut" value="Sign out">Sign out</button>
  </form>`
}
