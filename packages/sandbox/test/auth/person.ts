import { createHash, randomBytes } from 'node:crypto'
import { DEFAULT_SCOPE_PREFIX } from '../../src/core/config.js'
import type { sandboxForSuite } from '../support/sandbox.js'

/** The person's side of the authorization flow, and the client's plumbing, for the tests. */

type Sandbox = ReturnType<typeof sandboxForSuite>

export const PREFIX = DEFAULT_SCOPE_PREFIX
export const REDIRECT_URI = 'https://app.example/oauth/callback'

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** An authorization request URL; `undefined` leaves a parameter out. */
export function authorizeUrl(sandbox: Sandbox, params: Record<string, string | undefined>) {
  const url = new URL('/oauth/authorize', sandbox.url)
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value)
  }
  return url
}

export function validParams(challenge: string, extra: Record<string, string | undefined> = {}) {
  return {
    response_type: 'code',
    client_id: 'Test App',
    redirect_uri: REDIRECT_URI,
    scope: `${PREFIX}tasks.readonly`,
    state: 'st-' + randomBytes(6).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  }
}

/** Fetches the consent page and returns it with its form's action. */
export async function consentForm(url: URL, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: 'manual', headers })
  const html = await res.text()
  const match = /<form method="post" action="([^"]*)"/.exec(html)
  const action = match ? new URL(unescapeHtml(match[1]!), url) : undefined
  return { res, html, action }
}

/** Posts the person's form fields to a form action, following no redirects. */
export function postForm(
  url: URL | string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  })
}

/** Signs in as `user` and allows the request; returns the redirect's Location as a URL. */
export async function allow(
  sandbox: Sandbox,
  params: Record<string, string | undefined>,
  user = 'alice',
) {
  const { action } = await consentForm(authorizeUrl(sandbox, params))
  if (!action) throw new Error('no consent form')
  const res = await postForm(action, { user, Allow: 'Allow' })
  if (res.status !== 303) throw new Error(`expected 303, got ${res.status}: ${await res.text()}`)
  return { location: new URL(res.headers.get('location')!), cookie: res.headers.get('set-cookie') }
}

/** A fresh code for `params` (defaults: Test App, REDIRECT_URI, tasks.readonly). */
export async function freshCode(
  sandbox: Sandbox,
  extra: Record<string, string | undefined> = {},
  user = 'alice',
) {
  const { verifier, challenge } = pkcePair()
  const params = validParams(challenge, extra)
  const { location } = await allow(sandbox, params, user)
  const code = location.searchParams.get('code')
  if (!code) throw new Error(`no code in ${location}`)
  return { code, verifier, params }
}

/** A form post to the token or revocation endpoint. */
export function tokenRequest(
  sandbox: Sandbox,
  fields: Record<string, string>,
  { path = '/oauth/token', headers = {} }: { path?: string; headers?: Record<string, string> } = {},
) {
  return sandbox.request('POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  })
}

/** Exchanges a code as the client that asked for it. */
export function exchange(
  sandbox: Sandbox,
  got: Awaited<ReturnType<typeof freshCode>>,
  override: Record<string, string> = {},
) {
  return tokenRequest(sandbox, {
    grant_type: 'authorization_code',
    code: got.code,
    redirect_uri: got.params.redirect_uri,
    client_id: got.params.client_id,
    code_verifier: got.verifier,
    ...override,
  })
}

export const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The value of the form field `name` in a page, unescaped. */
export function fieldValue(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*\\sname="${name}"[^>]*>`).exec(html)?.[0]
  const value = input && /\svalue="([^"]*)"/.exec(input)?.[1]
  return value === undefined ? undefined : unescapeHtml(value)
}
