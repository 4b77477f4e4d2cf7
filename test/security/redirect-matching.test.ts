import { describe, expect, it } from 'vitest'
import { connectorForSuite, firstAnswer } from '@countersign/connector/testing'

/**
 * Exact redirect matching (docs/threat-model.md, "Redirect URI manipulation"): a code only ever
 * goes to a redirect URI the client registered, character for character. Any other URI gets a 400
 * page and no redirect, so an attacker's URI never receives a code or even an error. The one
 * latitude is RFC 8252 §7.3's: a loopback redirect URI (`localhost`, `127.0.0.1`, `[::1]`) matches
 * at any port, whatever the client's `application_type`, since the hosts that run on the person's
 * machine listen on whatever port they get (docs/threat-model.md, "A program on the person's machine posing as a host").
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
      `${registered.protocol}//${registered.hostname}:${Number(registered.port) + 1}${registered.pathname}/`,
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

  it.each([
    ['a client of no stated type', {}],
    ['a native client', { application_type: 'native' }],
    ['a web client', { application_type: 'web' }],
  ])("%s's loopback redirect URI may change its port only (RFC 8252 §7.3)", async (_, kind) => {
    const client = await suite.registerClient({
      ...kind,
      redirect_uris: ['http://127.0.0.1:41500/callback', 'http://localhost/callback'],
    })
    for (const redirectUri of [
      'http://127.0.0.1:52123/callback',
      'http://127.0.0.1/callback',
      'http://localhost:52123/callback',
      'http://localhost:80/callback',
    ]) {
      const allowed = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: redirectUri }),
      )
      expect(allowed.status, redirectUri).toBe(303)
      expect(allowed.location!.pathname, redirectUri).toMatch(/^\/consent\//)
    }
    const before = await suite.holdings()
    for (const redirectUri of [
      // Another path, query, fragment, scheme or host kind.
      'http://127.0.0.1:52123/other',
      'http://127.0.0.1:52123/callback/',
      'http://127.0.0.1:41500/callback?x=1',
      'http://localhost:52123/callback#x',
      'https://localhost:52123/callback',
      'https://127.0.0.1:41500/callback',
      'http://[::1]:52123/callback',
      'http://127.0.0.2:52123/callback',
      'http://LOCALHOST:52123/callback',
      // Another host dressed as loopback.
      'http://localhost.attacker.example:52123/callback',
      'http://localhost:52123@attacker.example/callback',
      'http://localhost@attacker.example/callback',
      'http://attacker.example/callback',
      // No port that is one.
      'http://localhost:0/callback',
      'http://localhost:65536/callback',
      'http://localhost:/callback',
    ]) {
      const { status, location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: redirectUri }),
      )
      expect(status, redirectUri).toBe(400)
      expect(location, redirectUri).toBeUndefined()
    }
    expect(await suite.holdings()).toEqual(before)
  })

  it('a redirect URI that is not loopback never changes its port', async () => {
    const client = await suite.registerClient({
      application_type: 'native',
      redirect_uris: ['https://app.example/callback'],
    })
    for (const redirectUri of [
      'https://app.example:8443/callback',
      'https://app.example:443/callback',
    ]) {
      const { status, location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: redirectUri }),
      )
      expect(status, redirectUri).toBe(400)
      expect(location, redirectUri).toBeUndefined()
    }
  })

  it('a code issued at one loopback port is exchanged only with that same redirect URI', async () => {
    const client = await suite.registerClient({ redirect_uris: ['http://localhost/callback'] })
    const pkce = suite.pkce()
    const asked = 'http://localhost:53111/callback'
    const returned = await suite
      .person('loopback-port-user')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce, { redirect_uri: asked }))
    expect(returned.origin + returned.pathname).toBe(asked)
    const code = returned.searchParams.get('code')!
    const elsewhere = { ...client, redirect_uri: 'http://localhost:53112/callback' }
    const other = await suite.exchangeCode(elsewhere, code, pkce)
    expect(other.status).toBe(400)
    expect(other.body.error).toBe('invalid_grant')
  })
})
