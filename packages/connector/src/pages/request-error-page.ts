import { html } from 'hono/html'
import { pageText } from './page.js'

/**
 * The page of an authorization request that cannot go on (oidc-provider's `renderError`): the
 * person arrived from an app, and nothing goes back to it. What they can do depends on why: an
 * app whose sign-in document this server could not fetch may work in a minute, and the operator
 * can check the server's outbound access; any other refusal is for the app's developer.
 */
export function requestErrorPage(
  out: { error: string; error_description?: string },
  /** The host whose document could not be fetched, and why, when that is what happened. */
  unreached?: { host: string; reason: string },
): Promise<string> {
  if (unreached) {
    return pageText(
      'App not reachable',
      html`<section class="card">
        <h1>This server could not reach the app</h1>
        <p>
          To sign you in, this server fetches the app's sign-in document from
          <strong>${unreached.host}</strong>, and could not (${unreached.reason}). Nothing was sent
          back to the app that sent you here.
        </p>
        <p>
          Try again in a minute from your assistant. If it keeps happening, the operator of this
          server can check that it may reach ${unreached.host} over https (its outbound access).
        </p>
      </section>`,
    )
  }
  return pageText(
    'Request not valid',
    html`<section class="card">
      <h1>This request cannot be completed</h1>
      <p><strong>${out.error}</strong>: ${out.error_description ?? ''}</p>
      <p>
        Nothing was sent back to the app that sent you here. Go back to your assistant and connect
        again; if this keeps happening, tell the app's developer.
      </p>
    </section>`,
  )
}
