import type { Context } from 'hono'
import { html } from 'hono/html'
import { ownedAssets } from '../account/assets.js'
import { currentUser } from '../account/session.js'
import { signedInAs, signInPage } from '../account/signed-in.js'
import { accountsOf } from '../admin/accounts.js'
import type { SandboxEnv } from '../core/state.js'
import { page } from '../http/page.js'

const HERE = '/web/sites'
const TITLE = 'Your sites and analytics properties'

/**
 * `GET /web/sites`: the signed-in person's Search Console sites and analytics property ids, added
 * ones too, so they know which `siteUrl` and which `propertiesId` to give the search and
 * analytics tools.
 */
export async function showAssets(c: Context<SandboxEnv>) {
  const user = await currentUser(c)
  if (!user) return signInPage(c, HERE, 'Sign in to see your sites and analytics properties.')
  const { db } = c.var.sandbox
  const [{ sites, properties }, accounts] = await Promise.all([
    ownedAssets(db, user),
    accountsOf(db, user),
  ])
  // Each property by the name and account a person knows it by, in the order the API lists.
  const named = new Map(
    accounts.flatMap((account) =>
      account.properties.map((p) => [p.id, `${p.displayName} (account ${account.displayName})`]),
    ),
  )
  return page(
    c,
    TITLE,
    html`${signedInAs(user)}
      <h1>${TITLE}</h1>
      <section>
        <h2>Sites (search performance)</h2>
        <p>Give one of these as <code>siteUrl</code>, exactly as written.</p>
        <ul class="sites">
          ${sites.map((site) => html`<li><code class="site">${site}</code></li>`)}
        </ul>
      </section>
      <section>
        <h2>Analytics properties</h2>
        <p>Give one of these ids as <code>propertiesId</code>.</p>
        <ul class="properties">
          ${properties.map(
            (id) =>
              html`<li>
                ${named.get(id)}: <code class="property">${id}</code> (properties/${id})
              </li>`,
          )}
        </ul>
      </section>
      <p><a href="/web/tasks">See your tasks</a></p>`,
  )
}
