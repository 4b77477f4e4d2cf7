import type { Context } from 'hono'
import { html } from 'hono/html'
import { CROSS_SITE_MESSAGE, isCrossSitePost } from '../account/cross-site.js'
import { currentUser, signInForm } from '../account/session.js'
import type { SandboxEnv } from '../core/state.js'
import { page } from '../http/page.js'

/**
 * A button of the web view that changes the person's own data (complete, unassign). It acts
 * only on a post from the sandbox's own pages (the session cookie is SameSite=Lax, and a
 * foreign `Sec-Fetch-Site` or `Origin` is refused) and only for the signed-in person; else it
 * does nothing and says why, with the way back to `back`.
 */
export async function personAction(
  c: Context<SandboxEnv>,
  back: string,
  act: (user: string) => Promise<Response>,
): Promise<Response> {
  if (isCrossSitePost(c))
    return page(
      c,
      'Nothing was changed',
      html`<h1>Nothing was changed</h1>
        <p>${CROSS_SITE_MESSAGE}</p>`,
      400,
    )
  const user = await currentUser(c)
  if (!user)
    return page(
      c,
      'Sign in',
      html`<h1>Sign in</h1>
        <p>You are not signed in any more, so nothing was changed. Sign in, then try again.</p>
        ${signInForm(back)}`,
      400,
    )
  return act(user)
}
