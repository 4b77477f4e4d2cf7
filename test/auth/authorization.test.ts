import { describe, expect, it } from 'vitest'
import { AuthorizationStopped, connectorForSuite } from '../support/connector.js'

/** The authorization endpoint's rules, each a named attack or mistake with its expected answer. */

const suite = connectorForSuite()

/** The first answer of the authorization endpoint to a request, without following anything. */
async function firstAnswer(url: URL) {
  const res = await fetch(url, { redirect: 'manual' })
  const location = res.headers.get('location')
  return {
    status: res.status,
    location: location ? new URL(location, url) : undefined,
    text: await res.text(),
  }
}

describe('PKCE', () => {
  it('is required: a request without a code challenge is refused at the redirect URI', async () => {
    const client = await suite.registerClient()
    const url = suite.authorizationUrl(client, 'tasks', suite.pkce(), {
      code_challenge: undefined,
      code_challenge_method: undefined,
    })
    const { location } = await firstAnswer(url)
    expect(location?.origin + location!.pathname).toBe(client.redirect_uri)
    expect(location?.searchParams.get('error')).toBe('invalid_request')
    expect(location?.searchParams.get('error_description')).toMatch(/PKCE/i)
    expect(location?.searchParams.get('iss')).toBe(suite.url)
  })

  it('is S256 only: the plain method is refused (no downgrade)', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const url = suite.authorizationUrl(client, 'tasks', pkce, {
      code_challenge: pkce.verifier,
      code_challenge_method: 'plain',
    })
    const { location } = await firstAnswer(url)
    expect(location?.searchParams.get('error')).toBe('invalid_request')
    expect(location?.searchParams.get('error_description')).toMatch(/code_challenge_method/)
  })

  it('binds the code to the verifier: a missing or wrong verifier gets invalid_grant', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const returned = await suite
      .person('pkce-user')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const code = returned.searchParams.get('code')!
    const missing = await suite.token(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirect_uri,
    })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toBe('invalid_grant')

    const wrong = await suite.exchangeCode(client, code, suite.pkce())
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe('invalid_grant')
  })
})

describe('redirect URIs', () => {
  it('are matched exactly: any other URI is refused on a page, never redirected to', async () => {
    const client = await suite.registerClient()
    const registered = new URL(client.redirect_uri)
    const others = [
      `${client.redirect_uri}/more`,
      `${client.redirect_uri}?extra=1`,
      `${registered.protocol}//${registered.hostname}:${Number(registered.port) + 1}${registered.pathname}`,
      client.redirect_uri.replace('127.0.0.1', 'localhost'),
      'https://attacker.example/callback',
    ]
    for (const redirectUri of others) {
      const { status, location, text } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: redirectUri }),
      )
      expect(status, redirectUri).toBe(400)
      expect(location, redirectUri).toBeUndefined()
      expect(text).toContain('redirect_uri')
    }
  })

  it('must be sent, even by a client with a single one', async () => {
    const client = await suite.registerClient()
    const { status, location } = await firstAnswer(
      suite.authorizationUrl(client, 'tasks', suite.pkce(), { redirect_uri: undefined }),
    )
    expect(status).toBe(400)
    expect(location).toBeUndefined()
  })

  it('must match at the token endpoint too', async () => {
    const client = await suite.registerClient({
      redirect_uris: ['http://127.0.0.1:41000/a', 'http://127.0.0.1:41000/b'],
    })
    const pkce = suite.pkce()
    const returned = await suite
      .person('redirect-user')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const res = await suite.exchangeCode(client, returned.searchParams.get('code')!, pkce, {
      redirect_uri: 'http://127.0.0.1:41000/b',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_grant')
  })
})

describe('resource indicators', () => {
  it('are required: a request without a resource is refused with invalid_target', async () => {
    const client = await suite.registerClient()
    const { location } = await firstAnswer(
      suite.authorizationUrl(client, 'tasks', suite.pkce(), { resource: undefined }),
    )
    expect(location?.searchParams.get('error')).toBe('invalid_target')
  })

  it('name exactly one of the three services', async () => {
    const client = await suite.registerClient()
    for (const resource of [
      [suite.resource('tasks'), suite.resource('search')],
      `${suite.url}/other/mcp`,
      'https://elsewhere.example/tasks/mcp',
      `${suite.url}/tasks/mcp/`,
    ]) {
      const { location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { resource }),
      )
      expect(location?.searchParams.get('error'), String(resource)).toBe('invalid_target')
    }
  })

  it("refuse another service's scope", async () => {
    const client = await suite.registerClient()
    for (const scope of [
      'webmasters.readonly',
      'tasks analytics.readonly',
      'openid tasks',
      'email',
    ]) {
      const { location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { scope }),
      )
      expect(location?.searchParams.get('error'), scope).toBe('invalid_scope')
    }
  })

  it('give a token for its one service, with the scopes asked for (all of them when none)', async () => {
    const readOnly = await suite.connect({ service: 'tasks', scope: 'tasks.readonly' })
    expect(readOnly.tokens.scope).toBe('tasks.readonly')
    const everything = await suite.connect({ service: 'search' })
    expect(everything.tokens.scope.split(' ').sort()).toEqual(['webmasters', 'webmasters.readonly'])
  })

  it('refuse a token request for another resource than the grant', async () => {
    const { client, tokens } = await suite.connect({ service: 'tasks' })
    const res = await suite.refresh(client, tokens.refresh_token, {
      resource: suite.resource('search'),
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_target')
  })
})

describe('the authorization response', () => {
  it('names the issuer (RFC 9207) and echoes the state', async () => {
    const client = await suite.registerClient()
    const url = suite.authorizationUrl(client, 'tasks', suite.pkce(), { state: 'xyz-123' })
    const returned = await suite.person('iss-user').authorize(url)
    expect(returned.searchParams.get('iss')).toBe(suite.url)
    expect(returned.searchParams.get('state')).toBe('xyz-123')
    expect(returned.searchParams.get('code')).toBeTruthy()
  })

  it('is access_denied when the person denies on the consent page', async () => {
    const client = await suite.registerClient()
    const person = suite.person('denying-user')
    const returned = await person.authorize(suite.authorizationUrl(client, 'tasks', suite.pkce()), {
      consent: 'Deny',
    })
    expect(person.seen).toEqual(['consent'])
    expect(returned.searchParams.get('error')).toBe('access_denied')
    expect(returned.searchParams.get('iss')).toBe(suite.url)
  })

  it("is access_denied when the person declines on the provider's page, after a page that says so", async () => {
    const client = await suite.registerClient()
    const person = suite.person('declining-user')
    const stopped = await person
      .authorize(suite.authorizationUrl(client, 'tasks', suite.pkce()), { provider: 'Deny' })
      .then(
        () => expect.fail('the person should have stopped on a page'),
        (error: unknown) => error as AuthorizationStopped,
      )
    expect(stopped).toBeInstanceOf(AuthorizationStopped)
    expect(stopped.status).toBe(400)
    expect(stopped.url).toContain('/upstream/callback')
    expect(stopped.page).toContain('You declined on the provider&#39;s page')
    const back = /<a href="([^"]+)">Return to the app<\/a>/.exec(stopped.page)?.[1]
    expect(back).toBeTruthy()
    const returned = await person.authorize(new URL(back!.replace(/&amp;/g, '&'), suite.url))
    expect(returned.searchParams.get('error')).toBe('access_denied')
    expect(
      await suite.store.db.selectFrom('upstream_credentials').selectAll().execute(),
    ).not.toContainEqual(expect.objectContaining({ subject: 'declining-user' }))
  })
})
