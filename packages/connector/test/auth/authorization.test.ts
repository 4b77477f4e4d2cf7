import { describe, expect, it } from 'vitest'
import { AuthorizationStopped, connectorForSuite, firstAnswer } from '../support/connector.js'

/**
 * The authorization endpoint's rules, each a mistake with its expected answer. (PKCE, redirect
 * matching and audience isolation are in test/security/, each under its attack's name.)
 */

const suite = connectorForSuite()

describe('resource indicators', () => {
  it('are required: a request without a resource is refused with invalid_target', async () => {
    const client = await suite.registerClient()
    const { location } = await firstAnswer(
      suite.authorizationUrl(client, 'tasks', suite.pkce(), { resource: undefined }),
    )
    expect(location?.searchParams.get('error')).toBe('invalid_target')
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
    // Test users are Google's: the generic provider's page says nothing of them.
    expect(stopped.page).not.toContain('Test users')
    const back = /<a href="([^"]+)">Return to the app<\/a>/.exec(stopped.page)?.[1]
    expect(back).toBeTruthy()
    const returned = await person.authorize(new URL(back!.replace(/&amp;/g, '&'), suite.url))
    expect(returned.searchParams.get('error')).toBe('access_denied')
    expect(
      await suite.store.db.selectFrom('upstream_credentials').selectAll().execute(),
    ).not.toContainEqual(expect.objectContaining({ subject: 'declining-user' }))
  })
})
