import type { Context, Hono } from 'hono'
import type { SandboxEnv } from '../core/state.js'
import { MAX_BODY_BYTES, readBodyText } from '../http/body.js'
import { errorForStatus } from '../http/errors.js'
import { rawPath } from '../http/raw-path.js'
import { enumNamesIn, enumNumbersIn } from './analytics-enums.js'
import { googleRoute, type GoogleRoute } from './paths.js'
import { withoutSystemParameters } from './system-parameters.js'

type Ctx = Context<SandboxEnv>

/**
 * Google's API paths at G, as a thin translation in front of the core the generic dialect's origin
 * serves: Google's path to the generic one, system parameters dropped, analytics enums given as
 * numbers named, `If-Match` dropped; then the answer back into Google's terms. Errors the core
 * throws pass through untouched, and the origin words them for Google.
 */
export function googleApi(core: Hono<SandboxEnv>) {
  return async (c: Ctx) => {
    const route = googleRoute(c.req.method, rawPath(c.req.url))
    requireLength(c)
    const { query, numericEnums } = withoutSystemParameters(new URL(c.req.url).searchParams)
    const url = new URL(route.genericPath, c.req.url)
    url.search = query.toString()
    const headers = new Headers(c.req.raw.headers)
    // Google is not known to honour If-Match for Tasks: there, the connector's own re-read guards
    // an approved change (docs/design.md, "The Google profile"), and this dialect must let that be
    // tested.
    headers.delete('if-match')
    headers.delete('content-length')
    const request = new Request(url, {
      method: c.req.method,
      headers,
      body: await forwardedBody(c, route),
    })
    return answer(await core.fetch(request, c.env), route, numericEnums)
  }
}

/**
 * Google refuses a POST or PUT that does not say how long its body is (docs/sandbox.md, "Paths").
 */
function requireLength(c: Ctx) {
  if (c.req.method !== 'POST' && c.req.method !== 'PUT') return
  if (c.req.header('content-length') !== undefined) return
  if (c.req.header('transfer-encoding') !== undefined) return
  throw errorForStatus(
    411,
    `${c.req.method} requests require a Content-Length header: send Content-Length: 0 when there is no body.`,
  )
}

async function forwardedBody(c: Ctx, route: GoogleRoute): Promise<string | undefined> {
  if (c.req.method === 'GET' || c.req.method === 'DELETE') return undefined
  const text = await readBodyText(c, MAX_BODY_BYTES)
  if (!route.analytics || text.trim() === '') return text
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return text // the core says what is wrong with it
  }
  try {
    return JSON.stringify(enumNamesIn(body))
  } catch (error) {
    // Nested too deep to write out again: the core refuses such nesting in its own words.
    if (error instanceof RangeError) return text
    throw error
  }
}

async function answer(res: Response, route: GoogleRoute, numericEnums: boolean) {
  // Google answers a method that returns nothing with 204 (tasks.delete, sitemaps.submit).
  if (res.status === 200 && res.body === null) return new Response(null, { status: 204 })
  if (!route.analytics || !numericEnums || !res.ok) return res
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  return Response.json(enumNumbersIn(await res.json()), { status: res.status, headers })
}
