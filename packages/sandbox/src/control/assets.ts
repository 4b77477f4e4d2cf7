import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { addSite, ownedAssets } from '../account/assets.js'
import { ensureUser, userName } from '../account/users.js'
import { addPropertyToAccount } from '../admin/accounts.js'
import type { SandboxEnv } from '../core/state.js'
import { readJsonObject } from '../http/body.js'
import { parseOrInvalid } from '../http/validate.js'
import { newSiteUrl } from '../search/sites.js'

type Ctx = Context<SandboxEnv>

/** Google's bound on a display name: 1 to 100 characters (in UTF-16 code units, as it counts). */
const displayName = z
  .string({ error: 'give it as a string of 1 to 100 characters' })
  .max(100, 'must be at most 100 characters')
  .refine((text) => text.trim() !== '', 'must not be empty or blank')

const siteRequest = z.object({ siteUrl: newSiteUrl }).strict()

const propertyRequest = z
  .object({
    displayName,
    /** The display name of the user's account to put it in; a new one when none has it. */
    account: displayName.optional(),
  })
  .strict()

const userOf = (c: Ctx) => parseOrInvalid(userName, c.req.param('user'), 'user')

/**
 * Control calls about what a user owns: the built-in sites and analytics properties, and those
 * added later (for tests of a person whose sites and properties change after they consented).
 * Added ones are stored, kept across restarts, and owned exactly like the built-in ones.
 */
export function assetRoutes() {
  const assets = new Hono<SandboxEnv>()

  assets.get('/users/:user', async (c) => {
    const user = userOf(c)
    await ensureUser(c.var.sandbox.db, user)
    return c.json({ user, ...(await ownedAssets(c.var.sandbox.db, user)) })
  })

  // Adding a site the user already owns changes nothing, so a test may repeat it.
  assets.post('/users/:user/sites', async (c) => {
    const user = userOf(c)
    const { siteUrl } = parseOrInvalid(siteRequest, await readJsonObject(c))
    await ensureUser(c.var.sandbox.db, user)
    await addSite(c.var.sandbox.db, user, siteUrl)
    return c.json({ user, ...(await ownedAssets(c.var.sandbox.db, user)) })
  })

  // Each call adds a property, as Google's would: two may share a display name.
  assets.post('/users/:user/properties', async (c) => {
    const user = userOf(c)
    const req = parseOrInvalid(propertyRequest, await readJsonObject(c))
    await ensureUser(c.var.sandbox.db, user)
    const id = await addPropertyToAccount(c.var.sandbox.db, user, req.displayName, req.account)
    return c.json({ property: `properties/${id}`, propertiesId: id })
  })

  return assets
}
