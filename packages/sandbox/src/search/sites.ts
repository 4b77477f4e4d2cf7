import { userAssets } from '../account/users.js'
import { forbidden, invalidArgument } from '../http/errors.js'

/**
 * Sites as Search Console names them: a URL-prefix property (`https://www.x.example/`, every
 * address that starts with it) or a domain property (`sc-domain:x.example`, every address on
 * that domain and its subdomains, over http or https). A user owns the two sites of
 * `userAssets`; anything else, existing or not, is a site they have no permission for, which the
 * real API answers with 403 (it never says whether someone else's site exists).
 */

export type Site =
  | { kind: 'prefix'; siteUrl: string; prefix: URL }
  | { kind: 'domain'; siteUrl: string; domain: string }

export const PERMISSION_LEVEL = 'siteOwner'

/** The sites a user owns, in the order list_sites gives them. */
export const ownedSites = (user: string): string[] => userAssets(user).sites

/** A site the user owns, or the real API's 403 for any other. */
export function ownedSite(user: string, siteUrl: string): Site {
  if (!ownedSites(user).includes(siteUrl)) {
    const hint = /^https?:\/\/[^/]+$/i.test(siteUrl)
      ? ` (URL-prefix sites end with "/": did you mean "${siteUrl}/"?)`
      : ''
    throw forbidden(
      `User does not have sufficient permission for site '${siteUrl.slice(0, 200)}'${hint}. List the sites this user owns with GET /sites.`,
    )
  }
  if (siteUrl.startsWith('sc-domain:'))
    return { kind: 'domain', siteUrl, domain: siteUrl.slice('sc-domain:'.length) }
  return { kind: 'prefix', siteUrl, prefix: new URL(siteUrl) }
}

/** An absolute http(s) URL, or undefined. */
function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}

/** Whether an absolute URL belongs to the site: starts with its prefix, or is on its domain. */
function isOnSite(site: Site, text: string): boolean {
  const url = httpUrl(text)
  if (!url) return false
  if (site.kind === 'domain')
    return url.hostname === site.domain || url.hostname.endsWith(`.${site.domain}`)
  return url.href.startsWith(site.prefix.href)
}

/** What a URL of the site looks like, for messages. */
const siteScope = (site: Site) =>
  site.kind === 'domain'
    ? `on ${site.domain} or one of its subdomains (such as https://www.${site.domain}/...)`
    : `starting with ${site.siteUrl}`

/** The URL of `field` as one of the site's, or a 400 saying what the site covers. */
export function urlOnSite(site: Site, field: string, text: string): string {
  if (!httpUrl(text))
    throw invalidArgument(
      `${field} "${text.slice(0, 200)}" is not an absolute http or https URL: give the full address, such as https://www.example.com/page.`,
    )
  if (!isOnSite(site, text))
    throw invalidArgument(
      `${field} "${text.slice(0, 200)}" is not part of the property ${site.siteUrl}: it must be a URL ${siteScope(site)}.`,
    )
  return text
}
