import { createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto'
import { CodeChallengeMethod, OAuth2Client } from 'google-auth-library'
import * as oauth from 'oauth4webapi'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { consentForm, postForm } from '../auth/person.js'
import { GOOGLE_SCOPE, rejection, tasksClient } from './clients.js'

/**
 * Google's OAuth at the sandbox's Google origin, driven by google-auth-library's OAuth2Client
 * (every endpoint overridden, so it never calls Google) and by oauth4webapi, the connector's
 * OAuth client.
 */

const sandbox = sandboxForSuite()

const CLIENT_ID = 'countersign-test.apps.googleusercontent.com'
const REDIRECT_URI = 'http://127.0.0.1:9/upstream/callback'

function googleOAuthClient(clientId = CLIENT_ID) {
  const g = sandbox.googleUrl
  return new OAuth2Client({
    clientId,
    clientSecret: 'not-checked',
    redirectUri: REDIRECT_URI,
    endpoints: {
      oauth2AuthBaseUrl: `${g}/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${g}/token`,
      oauth2RevokeUrl: `${g}/revoke`,
      oauth2FederatedSignonPemCertsUrl: `${g}/oauth2/v1/certs`,
      oauth2FederatedSignonJwkCertsUrl: `${g}/oauth2/v3/certs`,
      tokenInfoUrl: `${g}/tokeninfo`,
    },
    issuers: [g],
  })
}

/** A person goes through the consent page the client's authorization URL opens. */
async function authorize(
  client: OAuth2Client,
  user: string,
  { scopes = ['openid', GOOGLE_SCOPE('tasks')], offline = true, deny = false } = {},
) {
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
  const state = randomBytes(8).toString('hex')
  const nonce = randomBytes(8).toString('hex')
  const url = client.generateAuthUrl({
    ...(offline && { access_type: 'offline' }),
    prompt: 'consent',
    scope: scopes,
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: CodeChallengeMethod.S256,
  })
  const page = await consentForm(new URL(url))
  expect(page.res.status).toBe(200)
  expect(page.action!.origin).toBe(sandbox.googleUrl)
  expect(page.action!.pathname).toBe('/o/oauth2/v2/auth')
  const decision = await postForm(page.action!, deny ? { Deny: 'Deny' } : { user, Allow: 'Allow' })
  expect(decision.status).toBe(303)
  const callback = new URL(decision.headers.get('location')!)
  expect(callback.origin + callback.pathname).toBe(REDIRECT_URI)
  return { callback, codeVerifier, state, nonce }
}

/** Signs in `user` for `scopes` and exchanges the code: the client then holds the tokens. */
async function connect(client: OAuth2Client, user: string, options = {}) {
  const { callback, codeVerifier } = await authorize(client, user, options)
  const { tokens } = await client.getToken({
    code: callback.searchParams.get('code')!,
    codeVerifier,
  })
  client.setCredentials(tokens)
  return tokens
}

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString())

/** A raw form post to G's token endpoint, to see exactly what it answers. */
const tokenPost = (fields: Record<string, string>) =>
  sandbox.googleRequest('POST', '/token', {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })

const refreshWith = (refreshToken: string, clientId = CLIENT_ID) =>
  tokenPost({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId })

const canList = async (token: string) => {
  const res = await sandbox.googleRequest('GET', '/tasks/v1/users/@me/lists', { token })
  return res.status
}

describe("Google's OAuth at G, driven by google-auth-library", () => {
  it('discovery: issuer G and Google-shaped endpoints', async () => {
    const res = await sandbox.googleRequest('GET', '/.well-known/openid-configuration')
    const g = sandbox.googleUrl
    expect(res.body).toMatchObject({
      issuer: g,
      authorization_endpoint: `${g}/o/oauth2/v2/auth`,
      token_endpoint: `${g}/token`,
      revocation_endpoint: `${g}/revoke`,
      userinfo_endpoint: `${g}/v1/userinfo`,
      jwks_uri: `${g}/oauth2/v3/certs`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
    })
    expect(res.body.scopes_supported).toContain(GOOGLE_SCOPE('tasks'))
    expect(res.body.scopes_supported).toContain('openid')
  })

  it("consent, Google's callback, code exchange with an ID token that verifies, refresh", async () => {
    const client = googleOAuthClient()
    const { callback, codeVerifier, state, nonce } = await authorize(client, 'go-alice')
    expect(callback.searchParams.get('state')).toBe(state)
    expect(callback.searchParams.get('iss')).toBe(sandbox.googleUrl)
    expect(callback.searchParams.get('scope')).toBe(`openid ${GOOGLE_SCOPE('tasks')}`)
    expect(callback.searchParams.get('authuser')).toBe('0')
    expect(callback.searchParams.get('prompt')).toBe('consent')

    const { tokens } = await client.getToken({
      code: callback.searchParams.get('code')!,
      codeVerifier,
    })
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: `openid ${GOOGLE_SCOPE('tasks')}` })
    expect(tokens.refresh_token).toBeTruthy()
    expect(tokens.expiry_date).toBeGreaterThan(Date.now())

    // The ID token: RS256, issued by G to this client for this person, the nonce echoed.
    const [header, payload, signature] = tokens.id_token!.split('.')
    expect(decode(header!)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    const claims = decode(payload!)
    expect(claims).toMatchObject({
      iss: sandbox.googleUrl,
      aud: CLIENT_ID,
      azp: CLIENT_ID,
      sub: 'go-alice',
      nonce,
    })
    expect(claims.exp - claims.iat).toBe(3600)
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60)
    // Its signature, checked against the published JWK Set...
    const jwks = await sandbox.googleRequest('GET', '/oauth2/v3/certs')
    const jwk = jwks.body.keys.find((k: { kid: string }) => k.kid === decode(header!).kid)
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' })
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' })
    const signed = Buffer.from(`${header}.${payload}`)
    expect(verify('sha256', signed, key, Buffer.from(signature!, 'base64url'))).toBe(true)
    // ...and by google-auth-library itself, with the keys it fetches from G.
    const ticket = await client.verifyIdToken({ idToken: tokens.id_token!, audience: CLIENT_ID })
    expect(ticket.getPayload()).toMatchObject({ sub: 'go-alice', iss: sandbox.googleUrl })

    // The access token works on Google's APIs and userinfo.
    client.setCredentials(tokens)
    const lists = await tasksClient(sandbox, tokens.access_token!).tasklists.list()
    expect(lists.status).toBe(200)
    const me = await sandbox.googleRequest('GET', '/v1/userinfo', { token: tokens.access_token! })
    expect(me.body).toEqual({ sub: 'go-alice' })

    // A refresh through the library (the access token has expired), then what G answers.
    client.setCredentials({ ...tokens, expiry_date: Date.now() - 1000 })
    const { token: renewed } = await client.getAccessToken()
    expect(renewed).toBeTruthy()
    expect(renewed).not.toBe(tokens.access_token)
    expect(client.credentials.refresh_token).toBe(tokens.refresh_token)
    expect(await canList(renewed!)).toBe(200)
    const raw = await refreshWith(tokens.refresh_token!)
    expect(raw.status).toBe(200)
    expect(raw.body).not.toHaveProperty('refresh_token')
    expect(decode(raw.body.id_token.split('.')[1]).sub).toBe('go-alice')
  })

  it('Deny comes back as access_denied with state and iss', async () => {
    const { callback, state } = await authorize(googleOAuthClient(), 'go-bob', { deny: true })
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({
      error: 'access_denied',
      state,
      iss: sandbox.googleUrl,
    })
    expect(callback.searchParams.has('code')).toBe(false)
  })

  it('no refresh token without access_type=offline; no ID token and no userinfo without openid', async () => {
    const online = await connect(googleOAuthClient(), 'go-carol', { offline: false })
    expect(online.refresh_token).toBeFalsy()
    expect(online.id_token).toBeTruthy()

    const noOpenid = await connect(googleOAuthClient(), 'go-carol', {
      scopes: [GOOGLE_SCOPE('tasks.readonly')],
    })
    expect(noOpenid.id_token).toBeFalsy()
    expect(noOpenid.refresh_token).toBeTruthy()
    const me = await sandbox.googleRequest('GET', '/v1/userinfo', {
      token: noOpenid.access_token!,
    })
    expect(me.status).toBe(403)
    expect(me.body.error).toMatchObject({ status: 'PERMISSION_DENIED' })
    expect(me.body.error.message).toContain('openid')
  })

  it("a scope in the generic dialect's spelling is not one of Google's", async () => {
    const client = googleOAuthClient()
    const { codeChallenge } = await client.generateCodeVerifierAsync()
    const url = client.generateAuthUrl({
      scope: ['https://sandbox.countersign.test/auth/tasks'],
      state: 's1',
      code_challenge: codeChallenge,
      code_challenge_method: CodeChallengeMethod.S256,
    })
    const res = await fetch(url, { redirect: 'manual' })
    expect(res.status).toBe(302)
    const callback = new URL(res.headers.get('location')!)
    expect(callback.searchParams.get('error')).toBe('invalid_scope')
    expect(callback.searchParams.get('error_description')).toContain(GOOGLE_SCOPE('tasks'))
  })

  it('revokeToken ends every token the person holds for that client, and nothing else', async () => {
    const client = googleOAuthClient()
    const first = await connect(client, 'go-dave')
    // Another grant of the same person and client, one of another person, one of another client.
    const control = async (user: string, clientId: string) =>
      (
        await sandbox.request('POST', '/_sandbox/tokens', {
          body: { user, scopes: ['tasks'], client: clientId },
        })
      ).body as { access_token: string; refresh_token: string }
    const second = await control('go-dave', CLIENT_ID)
    const otherPerson = await control('go-erin', CLIENT_ID)
    const otherClient = await control('go-dave', 'another-app')

    await client.revokeToken(first.access_token!) // POST /revoke?token=..., no body

    for (const token of [first.access_token!, second.access_token]) {
      const error = await rejection(tasksClient(sandbox, token).tasklists.list())
      expect(error.status).toBe(401)
      expect(error.cause).toMatchObject({ status: 'UNAUTHENTICATED' })
    }
    for (const refresh of [first.refresh_token!, second.refresh_token]) {
      const res = await refreshWith(refresh)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: 'invalid_grant',
        error_description: 'Token has been expired or revoked.',
      })
    }
    // The library surfaces the same refusal when it tries to refresh.
    client.setCredentials({ ...first, expiry_date: Date.now() - 1000 })
    const refused = await rejection(client.getAccessToken())
    expect(refused.status).toBe(400)
    expect(refused.response!.data).toMatchObject({ error: 'invalid_grant' })

    expect(await canList(otherPerson.access_token)).toBe(200)
    expect(await canList(otherClient.access_token)).toBe(200)
    expect((await refreshWith(otherClient.refresh_token, 'another-app')).status).toBe(200)
  })

  it('/revoke takes the token in a form body too; the generic dialect still ends only its grant', async () => {
    const control = async () =>
      (
        await sandbox.request('POST', '/_sandbox/tokens', {
          body: { user: 'go-frank', scopes: ['tasks'], client: 'form-app' },
        })
      ).body as { access_token: string; refresh_token: string }
    const [a, b] = [await control(), await control()]
    const seed = await sandbox.request('POST', '/oauth/revoke', {
      rawBody: new URLSearchParams({ token: a.refresh_token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(seed.status).toBe(200)
    expect(await canList(a.access_token)).toBe(401)
    expect(await canList(b.access_token)).toBe(200)

    const google = await sandbox.googleRequest('POST', '/revoke', {
      rawBody: new URLSearchParams({ token: b.refresh_token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(google.status).toBe(200)
    expect(await canList(b.access_token)).toBe(401)
  })

  it("oauth4webapi, the connector's client, accepts G's discovery, callback and ID token", async () => {
    const insecure = { [oauth.allowInsecureRequests]: true } as const
    const issuer = new URL(sandbox.googleUrl)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }),
    )
    const client: oauth.Client = { client_id: CLIENT_ID }
    const { callback, codeVerifier, state, nonce } = await authorize(googleOAuthClient(), 'go-gina')
    const params = oauth.validateAuthResponse(as, client, callback, state)
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost('not-checked'),
      params,
      REDIRECT_URI,
      codeVerifier,
      insecure,
    )
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    })
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      iss: sandbox.googleUrl,
      aud: CLIENT_ID,
      sub: 'go-gina',
    })
    expect(tokens.refresh_token).toBeTruthy()
  })
})
