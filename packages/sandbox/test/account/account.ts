import { expect } from 'vitest'
import type { sandboxForSuite } from '../support/sandbox.js'

/** The person's side of the sandbox's account pages, and the tokens they revoke there. */

type Sandbox = ReturnType<typeof sandboxForSuite>

export function sandboxAccount(sandbox: Sandbox) {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

  async function signIn(user: string, next = '/account/connections') {
    const res = await sandbox.request('POST', '/account/sign-in', {
      rawBody: form({ user, next }),
      headers: FORM,
    })
    expect(res.status).toBe(303)
    const setCookie = res.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^sandbox_session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax$/)
    return setCookie.split(';')[0]!
  }

  const connections = (cookie?: string) =>
    sandbox.request('GET', '/account/connections', { headers: cookie ? { cookie } : {} })

  const revoke = (cookie: string, client: string, headers: Record<string, string> = {}) =>
    sandbox.request('POST', '/account/connections/revoke', {
      rawBody: form({ client, Revoke: 'Revoke' }),
      headers: { ...FORM, cookie, ...headers },
    })

  async function controlTokens(user: string, client: string, scopes = ['tasks.readonly']) {
    const res = await sandbox.request('POST', '/_sandbox/tokens', {
      body: { user, scopes, client },
    })
    expect(res.status).toBe(200)
    return res.body as { access_token: string; refresh_token: string }
  }

  const works = async (tokens: { access_token: string; refresh_token: string }, client: string) => {
    const access = await sandbox.request('GET', '/oauth/userinfo', { token: tokens.access_token })
    const refresh = await sandbox.request('POST', '/oauth/token', {
      rawBody: form({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client,
      }),
      headers: FORM,
    })
    return { access: access.status === 200, refresh: refresh.status === 200 }
  }

  return { form, FORM, signIn, connections, revoke, controlTokens, works }
}
