import { describe, expect, it } from 'vitest'
import { connectorForSuite, firstAnswer } from '@countersign/connector/testing'

/**
 * Exact redirect matching (docs/threat-model.md, "Redirect URI manipulation"): a code only ever
 * goes to a redirect URI the client registered, character for character. Any other URI gets a 400
 * page and no redirect, so an attacker's URI never receives a code or even an error. The one
 * latitude is RFC 8252 §7.3's: a native client's loopback IP redirect URI may use any port.
 */

const suite = connectorForSuite()

describe('exact redirect matching', () => {
  it('any other redirect URI is refused on a page, never redirected to, and nothing is issued', async () => {
    const client = await suite.registerClient()
    const registered = new URL(client.redirect_uri)
    const others = [
      `${client.redirect_uri}/more`,
      `${client.redirect_uri}/`,
      `${client.redirect_uri}?extra=1`,
      `${client.redirect_uri}#fragment`,
      client.redirect_uri.toUpperCase(),
      `${registered.protocol}//${registered.hostname}:${Number(registered.port) + 1}${registered.pathname}`,
      client.redirect_uri.replace('127.0.0.1', 'localhost'),
      client.redirect_uri.replace('http:', 'https:'),
      'https://attacker.example/callback',
    ]
    const before = await suite.holdings()
    for (const redirectUri of others) {
      const { status, location, text, headers } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: redirectUri }),
      )
      expect(status, redirectUri).toBe(400)
      expect(location, redirectUri).toBeUndefined()
      expect(headers.get('content-type')).toMatch(/^text\/html/)
      expect(text).toContain('invalid_redirect_uri')
    }
    expect(await suite.holdings()).toEqual(before)
  })

  it('the redirect URI must be sent, even by a client with a single one', async () => {
    const client = await suite.registerClient()
    const before = await suite.holdings()
    const { status, location, text } = await firstAnswer(
      suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: undefined }),
    )
    expect(status).toBe(400)
    expect(location).toBeUndefined()
    expect(text).toContain('redirect_uri')
    expect(await suite.holdings()).toEqual(before)
  })

  it('the token endpoint refuses a code with another redirect URI than it was issued for: invalid_grant', async () => {
    const client = await suite.registerClient({
      redirect_uris: ['http://127.0.0.1:41000/a', 'http://127.0.0.1:41000/b'],
    })
    const pkce = suite.pkce()
    const returned = await suite
      .person('redirect-user')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const before = await suite.holdings()
    const res = await suite.exchangeCode(client, returned.searchParams.get('code')!, pkce, {
      redirect_uri: 'http://127.0.0.1:41000/b',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_grant')
    expect(res.body.access_token).toBeUndefined()
    const after = await suite.holdings()
    expect(after.AccessToken ?? 0).toBe(before.AccessToken ?? 0)
    expect(after.RefreshToken ?? 0).toBe(before.RefreshToken ?? 0)
  })

  it("a native client's loopback IP redirect URI may change its port only (RFC 8252 §7.3)", async () => {
    const client = await suite.registerClient({
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:41500/callback'],
    })
    const port = await firstAnswer(
      suite.authorizationUrl(client, 'tasks', suite.pkce(), {
        redirect_uri: 'http://127.0.0.1:52123/callback',
      }),
    )
    expect(port.status).toBe(303)
    expect(port.location!.pathname).toMatch(/^\/consent\//)
    for (const redirectUri of [
      'http://127.0.0.1:52123/other',
      'http://localhost:41500/callback',
      'http://127.0.0.1:41500/callback?x=1',
    ]) {
      const { status, location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: redirectUri }),
      )
      expect(status, redirectUri).toBe(400)
      expect(location, redirectUri).toBeUndefined()
    }
  })
})
