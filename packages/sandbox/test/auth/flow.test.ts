import * as oauth from 'oauth4webapi'
import { describe, expect, it } from 'vitest'
import { providerError, sandboxForSuite } from '../support/sandbox.js'
import { consentForm, PREFIX, postForm } from './person.js'

const sandbox = sandboxForSuite()
const insecure = { [oauth.allowInsecureRequests]: true } as const

describe('the OAuth flow, driven by a real OAuth client (oauth4webapi)', () => {
  it('discovery, consent, code with PKCE, API call, userinfo, refresh, revocation', async () => {
    // Discovery: the issuer in the metadata must be exactly the one asked for.
    const issuer = new URL(sandbox.url)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    )
    expect(as.code_challenge_methods_supported).toEqual(['S256'])

    const client: oauth.Client = { client_id: 'Countersign connector' }
    const clientAuth = oauth.None()
    const redirectUri = 'http://127.0.0.1:8080/upstream/callback'
    const codeVerifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()

    const authorizationUrl = new URL(as.authorization_endpoint!)
    authorizationUrl.searchParams.set('response_type', 'code')
    authorizationUrl.searchParams.set('client_id', client.client_id)
    authorizationUrl.searchParams.set('redirect_uri', redirectUri)
    authorizationUrl.searchParams.set('scope', `${PREFIX}tasks.readonly ${PREFIX}tasks`)
    authorizationUrl.searchParams.set('state', state)
    authorizationUrl.searchParams.set(
      'code_challenge',
      await oauth.calculatePKCECodeChallenge(codeVerifier),
    )
    authorizationUrl.searchParams.set('code_challenge_method', 'S256')
    authorizationUrl.searchParams.set('access_type', 'offline')
    authorizationUrl.searchParams.set('prompt', 'consent')

    // The person: the page names the app, the redirect host and each scope in words.
    const { res: pageRes, html, action } = await consentForm(authorizationUrl)
    expect(pageRes.status).toBe(200)
    expect(pageRes.headers.get('cache-control')).toBe('no-store')
    expect(pageRes.headers.get('x-frame-options')).toBe('DENY')
    expect(html).toContain('Countersign connector')
    expect(html).toContain('127.0.0.1:8080')
    expect(html).toContain('See your task lists and tasks')
    expect(html).toContain('create, change and delete your task lists and tasks')
    expect(html).toContain('name="user"')
    expect(html).toContain('<button name="Allow" value="Allow">Allow</button>')
    expect(html).toContain('<button name="Deny" value="Deny">Deny</button>')
    const decision = await postForm(action!, { user: 'alice', Allow: 'Allow' })
    expect(decision.status).toBe(303)
    const callback = new URL(decision.headers.get('location')!)
    expect(callback.origin + callback.pathname).toBe(redirectUri)

    // Back at the client: iss and state are checked by the library.
    const params = oauth.validateAuthResponse(as, client, callback, state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        params,
        redirectUri,
        codeVerifier,
        insecure,
      ),
    )
    expect(tokens.token_type).toBe('bearer')
    expect(tokens.expires_in).toBeGreaterThan(0)
    expect(tokens.scope!.split(' ').sort()).toEqual([`${PREFIX}tasks`, `${PREFIX}tasks.readonly`])
    const refreshToken = tokens.refresh_token!
    expect(refreshToken).toBeTruthy()

    // The task API (served by the task routes) and userinfo accept the access token.
    const lists = await sandbox.request('GET', '/tasks/v1/lists', { token: tokens.access_token })
    expect(lists.status).toBe(200)
    expect(lists.body.kind).toBe('tasks#taskLists')
    const me = await sandbox.request('GET', '/oauth/userinfo', { token: tokens.access_token })
    expect(me.status).toBe(200)
    expect(me.body).toEqual({ sub: 'alice' })

    // Refresh: a new working access token; no new refresh token (the old one stays valid).
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure),
    )
    expect(refreshed.access_token).not.toBe(tokens.access_token)
    expect(refreshed.refresh_token).toBeUndefined()
    const again = await sandbox.request('GET', '/oauth/userinfo', { token: refreshed.access_token })
    expect(again.body).toEqual({ sub: 'alice' })

    // Revocation of the access token ends the whole grant.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.access_token, insecure),
    )
    for (const token of [refreshed.access_token, tokens.access_token]) {
      const dead = await sandbox.request('GET', '/oauth/userinfo', { token })
      expect(dead.status).toBe(401)
      expect(providerError(dead).status).toBe('UNAUTHENTICATED')
      expect(dead.headers.get('www-authenticate')).toContain('invalid_token')
    }
    const deadList = await sandbox.request('GET', '/tasks/v1/lists', { token: tokens.access_token })
    expect(deadList.status).toBe(401)
    expect(providerError(deadList).errors[0]!.reason).toBe('authError')
    const refreshAfter = await oauth
      .refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure)
      .then((res) => oauth.processRefreshTokenResponse(as, client, res))
      .catch((err: unknown) => err)
    expect(refreshAfter).toBeInstanceOf(oauth.ResponseBodyError)
    expect((refreshAfter as oauth.ResponseBodyError).error).toBe('invalid_grant')
  })

  it('works the same with a confidential client (client_secret_basic; the secret is not checked)', async () => {
    const issuer = new URL(sandbox.url)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    )
    const client: oauth.Client = { client_id: 'confidential:app' }
    const clientAuth = oauth.ClientSecretBasic('any secret will do')
    const redirectUri = 'https://app.example/cb?tenant=1'
    const codeVerifier = oauth.generateRandomCodeVerifier()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'tasks.readonly',
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString()
    const { action } = await consentForm(url)
    const decision = await postForm(action!, { user: 'bob', Allow: 'Allow' })
    const callback = new URL(decision.headers.get('location')!)
    expect(callback.searchParams.get('tenant')).toBe('1')
    const params = oauth.validateAuthResponse(as, client, callback, oauth.expectNoState)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        params,
        redirectUri,
        codeVerifier,
        insecure,
      ),
    )
    expect(tokens.scope).toBe(`${PREFIX}tasks.readonly`)
    const me = await sandbox.request('GET', '/oauth/userinfo', { token: tokens.access_token })
    expect(me.body).toEqual({ sub: 'bob' })
  })
})
