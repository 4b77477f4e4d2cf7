import type { Context } from 'hono'
import type { SandboxEnv } from '../core/state.js'

/*
 * Clients. The sandbox is a development provider: until the control API registers a client
 * (`POST /_sandbox/clients`), any client_id is accepted and names the app on the person's
 * connections page, and a client secret, if one is presented (HTTP Basic or client_secret in the
 * body), is accepted and NOT checked, so a connector configured for a real provider's
 * confidential client works here unchanged. What protects a code is PKCE (S256, required) and the
 * exact redirect_uri match. Once one is registered, the token and revocation endpoints answer as
 * a real provider does: an unknown client or a wrong secret is `invalid_client`.
 */

const MAX_CLIENT_ID = 200
const MAX_REDIRECT_URI = 2000

/** Why a client_id cannot be used, or undefined when it can. */
export function clientIdProblem(clientId: string | null): string | undefined {
  if (!clientId) return 'client_id is missing.'
  if (clientId.length > MAX_CLIENT_ID)
    return `client_id is longer than ${MAX_CLIENT_ID} characters.`
  if (/\p{Cc}/u.test(clientId) || clientId.trim() === '') {
    return 'client_id must be printable text.'
  }
  return undefined
}

/** Why a redirect_uri cannot be used: it must be an absolute http(s) URL without a fragment. */
export function redirectUriProblem(uri: string | null): string | undefined {
  if (!uri) return 'redirect_uri is missing.'
  if (uri.length > MAX_REDIRECT_URI)
    return `redirect_uri is longer than ${MAX_REDIRECT_URI} characters.`
  if (uri.includes('#')) return 'redirect_uri must not have a fragment (#...).'
  if (/[\s\p{Cc}]/u.test(uri)) return 'redirect_uri must not contain spaces or control characters.'
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'redirect_uri must be an absolute URL.'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'redirect_uri must be an http or https URL.'
  }
  if (url.username || url.password) return 'redirect_uri must not carry a user name or password.'
  return undefined
}

/** Adds parameters to a redirect URI, keeping its own query exactly as registered. */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.set(name, value)
  const joiner = !uri.includes('?') ? '?' : uri.endsWith('?') || uri.endsWith('&') ? '' : '&'
  return uri + joiner + query.toString()
}

type Refused = { ok: false; error: 'invalid_client' | 'invalid_request'; description: string }

/**
 * The client of a token or revocation request, its `client_id` (undefined when none was sent),
 * or why it is refused. The secret is checked only for a client registered through the control
 * API (core/registered-clients.ts).
 */
export function authenticatedClient(
  c: Context<SandboxEnv>,
  form: URLSearchParams,
): { ok: true; clientId: string | undefined } | Refused {
  const client = clientIdentity(c, form)
  if (!client.ok) return client
  const refusal = c.var.sandbox.clients.refusal(client.clientId, client.secret)
  if (refusal) return { ok: false, error: 'invalid_client', description: refusal }
  return { ok: true, clientId: client.clientId }
}

/**
 * The client_id and secret as sent: from HTTP Basic (RFC 6749 §2.3.1, each part form-encoded) or
 * from the body. Only one way may be used.
 */
function clientIdentity(
  c: Context,
  form: URLSearchParams,
): { ok: true; clientId: string | undefined; secret: string | undefined } | Refused {
  const header = c.req.header('authorization')
  const bodyId = form.get('client_id') ?? undefined
  if (header === undefined || !/^basic(\s|$)/i.test(header))
    return { ok: true, clientId: bodyId, secret: form.get('client_secret') ?? undefined }
  const basic = parseBasic(header)
  if (!basic) {
    return {
      ok: false,
      error: 'invalid_client',
      description:
        'The Authorization header is not valid HTTP Basic: base64 of "client_id:client_secret".',
    }
  }
  if (form.has('client_secret')) {
    return {
      ok: false,
      error: 'invalid_request',
      description:
        'Use one client authentication method: HTTP Basic or client_secret in the body, not both.',
    }
  }
  if (bodyId !== undefined && bodyId !== basic.clientId) {
    return {
      ok: false,
      error: 'invalid_request',
      description: 'client_id in the body differs from the one in the Authorization header.',
    }
  }
  return { ok: true, clientId: basic.clientId, secret: basic.secret }
}

function parseBasic(header: string): { clientId: string; secret: string } | undefined {
  const encoded = header.slice('basic'.length).trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) return undefined
  try {
    const formDecoded = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '))
    const clientId = formDecoded(decoded.slice(0, colon))
    const secret = formDecoded(decoded.slice(colon + 1))
    return clientIdProblem(clientId) ? undefined : { clientId, secret }
  } catch {
    return undefined
  }
}
