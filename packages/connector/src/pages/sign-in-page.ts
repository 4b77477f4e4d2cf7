import type { Context } from 'hono'
import { html } from 'hono/html'
import { page, type PageStatus } from './page.js'

/**
 * The sign-in in front of the approval and activity pages: the page's heading and one button
 * that sends the person to the provider, and back (account/sign-in.ts).
 */

export interface SignInView {
  /** Where the sign-in form posts. */
  action: string
  heading: string
  providerName: string
  csrf: string
  message?: string
  status?: PageStatus
}

/** Not signed in: nothing of any change is shown until the person proves who they are. */
export function signInPage(c: Context, view: SignInView) {
  return page(
    c,
    'Sign in',
    html`<section class="card">
      <h1>${view.heading}</h1>
      ${view.message ? html`<p class="alert" role="alert">${view.message}</p>` : ''}
      <p>
        Sign in with your provider account to see it. You come back to this page afterwards, and
        nothing changes unless you approve it.
      </p>
      <form method="post" action="${view.action}">
        <input type="hidden" name="csrf" value="${view.csrf}" />
        <div class="actions">
          <button name="SignIn" value="SignIn">Sign in with ${view.providerName}</button>
        </div>
      </form>
    </section>`,
    view.status,
  )
}
