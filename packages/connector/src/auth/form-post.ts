import type { Context } from 'hono'
import { readBodyText, TOO_LARGE, type TooLarge } from '../http/request-body.js'
import type { PageStatus } from '../pages/page.js'

/**
 * What every form of the connector's own pages (consent, connections) checks before acting:
 * that the post came from one of its pages, and that its body is a small urlencoded form.
 */

/** A form that names nothing of the person's: its buttons, its CSRF token, a choice or two. */
export const MAX_FORM_BYTES = 4096

/**
 * The bound of a form that can name some of the person's items (a change waiting, a list to
 * cover), each in `field`: what the page drew of them, at most, over the usual bound. A form
 * grows with the person's data, never past what its own page could send.
 */
export function formBound(field: string, values: Iterable<string>): number {
  let bytes = MAX_FORM_BYTES
  for (const value of values) bytes += field.length + 2 + encodeURIComponent(value).length
  return bytes
}

/**
 * Whether a form post came from a page of another site. Browsers mark every request with
 * `Sec-Fetch-Site`, and send `Origin` with posts; clients that are not browsers send neither
 * (and have no cookies of the person to ride on).
 */
function isCrossSite(c: Context, publicUrl: string): boolean {
  const site = c.req.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true
  const origin = c.req.header('origin')
  // `null` is what a page with `Referrer-Policy: no-referrer` (ours) sends: Sec-Fetch-Site decides.
  if (origin === undefined || origin === 'null') return false
  return origin !== new URL(publicUrl).origin
}

/**
 * The posted form, if it is a urlencoded form of at most `maxBytes` (4 KiB unless the page's
 * items make it more: formBound). A longer one is read no further than that, declared or chunked.
 */
export async function readForm(
  c: Context,
  maxBytes = MAX_FORM_BYTES,
): Promise<URLSearchParams | 'unreadable' | 'too-large'> {
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded')) return 'unreadable'
  let text: string | TooLarge
  try {
    text = await readBodyText(c.req.raw, maxBytes)
  } catch {
    return 'unreadable' // the client stopped sending it
  }
  return text === TOO_LARGE ? 'too-large' : new URLSearchParams(text)
}

/** Why a post cannot be acted on. */
export type FormProblem = 'cross-site' | 'unreadable' | 'too-large'

/** The form of a post that may act: sent from one of the connector's pages, and readable. */
export async function formFromOwnPage(
  c: Context,
  publicUrl: string,
  maxBytes = MAX_FORM_BYTES,
): Promise<URLSearchParams | FormProblem> {
  if (isCrossSite(c, publicUrl)) return 'cross-site'
  return readForm(c, maxBytes)
}

/** What the connections and approval pages answer to a form they cannot act on. */
export const FORM_PROBLEM_MESSAGE: Record<FormProblem, string> = {
  'cross-site': 'This form was sent from another site. Use the page itself.',
  unreadable: 'The form could not be read. Try again from the page.',
  'too-large': 'The form is larger than these pages send. Try again from the page.',
}

/** The status of that answer: 413 for a body past the bound, 400 otherwise. */
export const FORM_PROBLEM_STATUS: Record<FormProblem, PageStatus> = {
  'cross-site': 400,
  unreadable: 400,
  'too-large': 413,
}

/**
 * The form of a post that may act, or the page `refuse` draws of what is wrong with it: how the
 * connections and approval pages take every form they act on.
 */
export async function formOrRefusal(
  c: Context,
  publicUrl: string,
  refuse: (c: Context, message: string, status: PageStatus) => Response | Promise<Response>,
  maxBytes = MAX_FORM_BYTES,
): Promise<URLSearchParams | Response> {
  const form = await formFromOwnPage(c, publicUrl, maxBytes)
  return typeof form === 'string'
    ? refuse(c, FORM_PROBLEM_MESSAGE[form], FORM_PROBLEM_STATUS[form])
    : form
}
