/**
 * Search Console's two kinds of site, and which URLs belong to one: a URL-prefix site
 * (`https://www.example.com/`) holds the URLs that start with it; a domain property
 * (`sc-domain:example.com`) holds every URL on the domain and its subdomains, http or https.
 * Used to check arguments before anything is sent, and to say what a site covers.
 */

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i

function httpUrl(text: string): URL | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** What is wrong with a siteUrl, in words that say what to write instead; undefined if fine. */
export function siteUrlProblem(value: string): string | undefined {
  const example =
    'such as https://www.example.com/ or sc-domain:example.com; list_sites gives the person’s sites'
  if (value === '') return `siteUrl must not be empty: give a site ${example}`
  if (/\p{Cc}|\s/u.test(value))
    return `siteUrl cannot contain spaces or control characters: give a site ${example}`
  if (value.startsWith('sc-domain:')) {
    const domain = value.slice('sc-domain:'.length)
    if (HOSTNAME.test(domain)) return undefined
    return `siteUrl "${value}": after sc-domain: comes a domain name only, such as sc-domain:example.com (no https://, no path, no trailing slash)`
  }
  const url = httpUrl(value)
  if (url) {
    if (url.search || url.hash || value.includes('?') || value.includes('#'))
      return `siteUrl "${value}" must not have a query or fragment: a URL-prefix site is a scheme, a host and a path ending in "/"`
    if (!value.endsWith('/'))
      return `siteUrl "${value}" lacks its trailing slash: URL-prefix sites end with "/", so write "${value}/"`
    return undefined
  }
  if (HOSTNAME.test(value))
    return `siteUrl "${value}" is neither kind of site: write "sc-domain:${value.replace(/^www\./, '')}" for a domain property, or "https://${value}/" for a URL-prefix site`
  return `siteUrl "${value.slice(0, 80)}" is not a site: give one ${example}`
}

/** Whether `url` is a URL of the site (both already well formed). */
export function isOnSite(siteUrl: string, url: string): boolean {
  const page = httpUrl(url)
  if (!page) return false
  if (siteUrl.startsWith('sc-domain:')) {
    const domain = siteUrl.slice('sc-domain:'.length).toLowerCase()
    return page.hostname === domain || page.hostname.endsWith(`.${domain}`)
  }
  const site = httpUrl(siteUrl)
  return site !== undefined && page.href.startsWith(site.href)
}

/** What URLs a site holds, for messages and for the person approving a change. */
export function siteCovers(siteUrl: string): string {
  if (siteUrl.startsWith('sc-domain:')) {
    const domain = siteUrl.slice('sc-domain:'.length)
    return `every address on ${domain} and its subdomains`
  }
  return `addresses starting with ${siteUrl}`
}

/** A URL field of a site's: what is wrong with it, or undefined. */
export function urlProblem(field: string, value: string): string | undefined {
  if (!httpUrl(value)) {
    // A page as a search table shows it, after its pageOrigin.
    const path = value.startsWith('/') ? ': put the table’s pageOrigin before a path' : ''
    return `${field} must be a full http or https URL, such as https://www.example.com/page; got "${value.slice(0, 80)}"${path}`
  }
  if (/\p{Cc}|\s/u.test(value))
    return `${field} cannot contain spaces or control characters: percent-encode them`
  return undefined
}
