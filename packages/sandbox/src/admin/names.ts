import { userSlug } from '../account/users.js'
import type { SiteKind } from '../analytics/vocabulary.js'

/**
 * The names a person would recognize in a user's analytics accounts, all derived from the user
 * name: the business (`ana-smith` or `ana.smith@example.com` is Ana Smith), its account, and
 * each built-in property named after the site it measures, on the user's own domain.
 */

/** The user name as a person's or a business's name: its words, each capitalized. */
export function businessName(user: string): string {
  const at = user.indexOf('@')
  const local = at > 0 ? user.slice(0, at) : user
  const words = local.split(/[^A-Za-z0-9]+/).filter(Boolean)
  if (words.length === 0) return 'Sandbox User'
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ')
}

/** The account that holds the built-in properties. */
export const businessAccountName = (user: string) => `${businessName(user)} Ltd`

/** A second account, with no property in it: a person's own, never set up. */
export const personalAccountName = (user: string) => `${businessName(user)} (personal)`

/** How a person would call each kind of site, and the host it lives on beside `www`. */
const KIND_NAMES: Record<SiteKind['name'], { label: string; host: string }> = {
  shop: { label: 'Shop', host: 'shop' },
  software: { label: 'Web app', host: 'app' },
  publisher: { label: 'News', host: 'news' },
}

/**
 * A built-in property's name: the first measures the user's URL-prefix site
 * (`www.ana-smith.example – Shop`), the second another host of the same domain
 * (`app.ana-smith.example – Web app`), which the user's domain site covers.
 */
export function builtInPropertyName(user: string, index: number, kind: SiteKind): string {
  const { label, host } = KIND_NAMES[kind.name]
  return `${index === 0 ? 'www' : host}.${userSlug(user)}.example – ${label}`
}
