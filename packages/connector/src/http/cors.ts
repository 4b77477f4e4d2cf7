import type { IncomingMessage, ServerResponse } from 'node:http'
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'

/**
 * CORS on the connector's bearer endpoints: the discovery documents (authorization server and
 * protected resource metadata), registration, the token and revocation endpoints, and the three
 * MCP endpoints. A client that runs in a web page, of any origin, may call them. What such a call
 * can do is what its token allows: none of these endpoints honours anything a browser attaches by
 * itself (a cookie, HTTP authentication, a client certificate), only what the page's own script
 * sends. So the answer is `Access-Control-Allow-Origin: *`, never with
 * `Access-Control-Allow-Credentials`: a browser neither sends a preflighted request with its
 * cookies nor shows a page the answer to one.
 *
 * The person's pages (consent, `/connections`, `/approvals`, `/activity`, the authorization
 * endpoint, the provider's return) serve no CORS at all: another origin reads none of them.
 */

/** GET for the documents and an MCP event stream, POST, DELETE to end an MCP session. */
const ALLOW_METHODS = ['GET', 'POST', 'DELETE']

/**
 * What a page may send: the bearer token (or a confidential client's Basic credentials at the
 * token endpoint), a JSON body, and MCP's own headers of both revisions (2025-11-25's session
 * and protocol version and the event to resume a stream from; 2026-07-28's method and name, which
 * the SDK's client sends on every request, and its protocol version also on discovery). A header
 * outside this list fails the preflight: add it here.
 */
const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
]

/**
 * What a page may read beyond the safelisted headers: the bearer challenge (a 401's
 * `resource_metadata` starts a client's discovery), when to retry after a 429, and MCP's session
 * and protocol version.
 */
const EXPOSE_HEADERS = ['WWW-Authenticate', 'Retry-After', 'Mcp-Session-Id', 'MCP-Protocol-Version']

/** How long a browser may reuse a preflight's answer (Chromium keeps one at most two hours). */
const MAX_AGE_SECONDS = 3600

/** The policy as Hono middleware: a preflight (any OPTIONS) is answered 204 here. */
export const bearerCors: MiddlewareHandler = cors({
  origin: '*',
  allowMethods: ALLOW_METHODS,
  allowHeaders: ALLOW_HEADERS,
  exposeHeaders: EXPOSE_HEADERS,
  maxAge: MAX_AGE_SECONDS,
})

/**
 * The same, for a request that carries an `Origin` (a browser sends one on every cross-origin
 * request and preflight); any other passes untouched. For the MCP endpoints: hono/cors rebuilds
 * the answer it adds headers to, which the calls of clients outside a browser need not pay for.
 */
export const bearerCorsInBrowsers: MiddlewareHandler = (c, next) =>
  c.req.header('origin') === undefined ? next() : bearerCors(c, next)

/** The headers of every answer on a CORS path, preflights aside. */
const ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSE_HEADERS.join(','),
}

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...ANSWER_HEADERS,
  'Access-Control-Allow-Methods': ALLOW_METHODS.join(','),
  'Access-Control-Allow-Headers': ALLOW_HEADERS.join(','),
  'Access-Control-Max-Age': String(MAX_AGE_SECONDS),
}

/**
 * The same policy on oidc-provider's paths, which Node's listener serves rather than Hono: a
 * preflight (any OPTIONS) is answered here, 204, and true returned; any other answer gets the
 * headers before anything is written, so the connector's own answers in front of oidc-provider
 * (429, 413) carry them too. oidc-provider's own CORS, which covers discovery, token and
 * revocation but not registration, steps aside on an answer that already has them.
 */
export function bearerCorsOnNode(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, PREFLIGHT_HEADERS).end()
    return true
  }
  for (const [name, value] of Object.entries(ANSWER_HEADERS)) res.setHeader(name, value)
  return false
}
