import { z } from 'zod'
import { ownedAssets, ownsSite } from '../account/assets.js'
import type { SandboxDb } from '../db/open.js'
import { forbidden, invalidArgument } from '../http/errors.js'

/**
 * Sites as Search Console names them: a URL-prefix property (`https://www.x.example/`, every
 * address that starts with it) or a domain property (`sc-domain:x.example`, every address on
 * that domain and its subdomains, over http or https). A user owns their two built-in sites and
 * those the control API added (account/assets.ts); anything else, existing or not, is a site
 * they have no permission for, which the real API answers with 403 (it never says whether
 * someone else's site exists).
 */

export type Site =
  | { kind: 'prefix'; siteUrl: string; prefix: URL }
  | { kind: 'domain'; siteUrl: string; domain: string }

export const PERMISSION_LEVEL = 'siteOwner'

/** The sites a user owns, in the order list_sites gives them. */
export const ownedSites = async (db: SandboxDb, user: string): Promise<string[]> =>
  (await ownedAssets(db, user)).sites

/** A site the user owns, or the real API's 403 for any other. */
export async function ownedSite(db: SandboxDb, user: string, siteUrl: string): Promise<Site> {
  if (!(await ownsSite(db, user, siteUrl))) {
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

/** A domain name in lower case, with at least two labels (punycode for other scripts). */
const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** What is wrong with a site URL as Search Console writes one, if anything. */
function siteUrlProblem(text: string): string | undefined {
  if (text.startsWith('sc-domain:')) {
    if (DOMAIN.test(text.slice('sc-domain:'.length))) return undefined
    return `"${text.slice(0, 200)}" is not a domain property: write sc-domain: and a domain name in lower case, such as sc-domain:example.com`
  }
  const url = httpUrl(text)
  if (!url)
    return `"${text.slice(0, 200)}" is neither a URL-prefix site (https://www.example.com/) nor a domain property (sc-domain:example.com)`
  if (url.username || url.password || /[?#]/.test(text))
    return `a URL-prefix site has no user name, password, query or fragment: give only the scheme, host and path, such as https://www.example.com/`
  if (!text.endsWith('/'))
    return `a URL-prefix site ends with "/": did you mean "${url.href.replace(/\/?$/, '/')}"?`
  if (url.href !== text) return `write the site as Search Console does: "${url.href}"`
  return undefined
}

/** A site to add to a user's, as Search Console writes it: a URL-prefix or a domain property. */
export const newSiteUrl = z
  .string({ error: 'give the site as a string, such as https://www.example.com/' })
  .min(1, 'give a site, such as https://www.example.com/ or sc-domain:example.com')
  .max(2048, 'must be at most 2048 characters')
  .superRefine((text, ctx) => {
    const problem = siteUrlProblem(text)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

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
