import type { Context } from 'hono'

/**
 * What every form of the connector's own pages (consent, connections) checks before acting:
 * that the post came from one of its pages, and that its body is a small urlencoded form.
 */

const MAX_FORM_BYTES = 4096

/**
 * Whether a form post came from a page of another site. Browsers mark every request with
 * `Sec-Fetch-Site`, and send `Origin` with posts; clients that are not browsers send neither
 * (and have no cookies of the person to ride on).
 */
export function isCrossSite(c: Context, publicUrl: string): boolean {
  const site = c.req.header('sec-fetch-site')
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true
  const origin = c.req.header('origin')
  // `null` is what a page with `Referrer-Policy: no-referrer` (ours) sends: Sec-Fetch-Site decides.
  if (origin === undefined || origin === 'null') return false
  return origin !== new URL(publicUrl).origin
}

/** The posted form, or undefined when it is not a urlencoded form of at most 4 KiB. */
export async function readForm(c: Context): Promise<URLSearchParams | undefined> {
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > MAX_FORM_BYTES) return undefined
  const text = await c.req.text()
  return text.length > MAX_FORM_BYTES ? undefined : new URLSearchParams(text)
}

/** Why a post cannot be acted on. */
export type FormProblem = 'cross-site' | 'unreadable'

/** The form of a post that may act: sent from one of the connector's pages, and readable. */
export async function formFromOwnPage(
  c: Context,
  publicUrl: string,
): Promise<URLSearchParams | FormProblem> {
  if (isCrossSite(c, publicUrl)) return 'cross-site'
  return (await readForm(c)) ?? 'unreadable'
}

/** What the connections and approval pages answer to a form they cannot act on. */
export const FORM_PROBLEM_MESSAGE: Record<FormProblem, string> = {
  'cross-site': 'This form was sent from another site. Use the page itself.',
  unreadable: 'The form could not be read. Try again from the page.',
}
