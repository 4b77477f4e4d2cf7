import { isLoopbackAddress, isLoopbackHostname } from '../config/loopback.js'
import { guardedLookup } from '../http/outbound.js'
import { rootCertificates } from 'node:tls'

/**
 * How oidc-provider fetches client ID metadata documents (and any other URL a client names).
 *
 * oidc-provider does the hard part itself and this keeps it: https only, a 2.5 s deadline, body
 * size limits, no redirects, and a connection to any special-use address (loopback, private,
 * link-local...) is cut as soon as it is made, whatever the name resolved to (SSRF).
 *
 * For local development, `allowLoopbackClientMetadata` lets an MCP client on the same machine
 * serve its document from a loopback https server: only a URL whose host is a loopback address or
 * `localhost` is then fetched through a dispatcher that connects to loopback addresses and nothing
 * else, trusting `extraCa` besides the system's roots (a development certificate). Every other
 * URL, private addresses included, still goes through oidc-provider's own protection.
 */

export interface ClientMetadataFetchOptions {
  allowLoopbackClientMetadata: boolean
  extraCa?: string
}

type FetchOptions = RequestInit & { dispatcher?: unknown }

export function clientMetadataFetch({
  allowLoopbackClientMetadata,
  extraCa,
}: ClientMetadataFetchOptions) {
  if (!allowLoopbackClientMetadata) {
    return (url: URL | string, options: FetchOptions) => fetch(url, options)
  }
  let loopback: unknown
  return (url: URL | string, options: FetchOptions) => {
    if (isLoopbackHostname(new URL(url).hostname)) {
      loopback ??= loopbackDispatcher(extraCa)
      return fetch(url, { ...options, dispatcher: loopback } as RequestInit)
    }
    return fetch(url, options)
  }
}

/**
 * An undici Agent (Node's own, as oidc-provider takes it, since fetch only accepts dispatchers of
 * the undici it bundles) whose connections resolve names to loopback addresses only.
 */
function loopbackDispatcher(extraCa: string | undefined): unknown {
  // Touching Response loads Node's bundled undici, which installs the global dispatcher.
  void Response
  const global = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')]
  const Agent = (global as { constructor: new (options: unknown) => unknown }).constructor
  return new Agent({
    connect: {
      ca: extraCa ? [...rootCertificates, extraCa] : undefined,
      lookup: loopbackOnlyLookup,
    },
  })
}

/** Loopback addresses only; a name that resolves elsewhere is not found. */
const loopbackOnlyLookup = guardedLookup(isLoopbackAddress, {
  code: 'ENOTFOUND',
  message: (hostname) => `${hostname} does not resolve to a loopback address`,
})
