import { describe, expect, it } from 'vitest'
import { findToken } from '../../src/auth/grants.js'
import { providerError, sandboxForSuite } from '../support/sandbox.js'
import {
  allow,
  authorizeUrl,
  consentForm,
  exchange,
  fieldValue,
  freshCode,
  pkcePair,
  postForm,
  PREFIX,
  REDIRECT_URI,
  tokenRequest,
  validParams,
} from './person.js'

const sandbox = sandboxForSuite()

const basic = (id: string, secret: string) =>
  'Basic ' +
  Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')

describe('metadata', () => {
  it('GET /.well-known/oauth-authorization-server describes the server (RFC 8414)', async () => {
    const res = await sandbox.request('GET', '/.well-known/oauth-authorization-server')
    expect(res.status).toBe(200)
    const base = sandbox.url
    expect(res.body).toEqual({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
      scopes_supported: [
        'openid',
        ...[
          'tasks',
          'tasks.readonly',
          'webmasters',
          'webmasters.readonly',
          'analytics.readonly',
        ].map((s) => PREFIX + s),
      ],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'none',
      ],
      authorization_response_iss_parameter_supported: true,
    })
  })
})

describe('GET and POST /oauth/authorize', () => {
  const refused = async (params: Record<string, string | undefined>) => {
    const res = await fetch(authorizeUrl(sandbox, params), { redirect: 'manual' })
    expect(res.status).toBe(302)
    return new URL(res.headers.get('location')!).searchParams
  }

  it('refuses a wrong response_type, an unknown or missing scope, and repeated parameters, at the redirect_uri', async () => {
    const { challenge } = pkcePair()
    const cases: [Record<string, string | undefined>, string, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type', 'response_type'],
      [{ response_type: undefined }, 'invalid_request', 'response_type'],
      [{ scope: `${PREFIX}tasks.write` }, 'invalid_scope', 'tasks.write'],
      [{ scope: 'calendar' }, 'invalid_scope', 'calendar'],
      [{ scope: undefined }, 'invalid_scope', 'scope'],
      [{ scope: '  ' }, 'invalid_scope', 'scope'],
    ]
    for (const [extra, error, mentions] of cases) {
      const params = validParams(challenge, extra)
      const got = await refused(params)
      expect(got.get('error')).toBe(error)
      expect(got.get('error_description')).toContain(mentions)
      expect(got.get('state')).toBe(params.state)
      expect(got.get('iss')).toBe(sandbox.url)
    }
    const url = authorizeUrl(sandbox, validParams(challenge))
    url.searchParams.append('scope', 'tasks')
    const res = await fetch(url, { redirect: 'manual' })
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request')
  })

  it('accepts bare short scope names, ignores access_type, prompt and include_granted_scopes, and keeps the redirect_uri query', async () => {
    const got = await freshCode(sandbox, {
      scope: 'tasks.readonly webmasters.readonly',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      redirect_uri: 'http://localhost:9999/cb?session=a%20b',
    })
    const tokens = await exchange(sandbox, got)
    expect(tokens.status).toBe(200)
    expect(tokens.body.scope.split(' ').sort()).toEqual([
      `${PREFIX}tasks.readonly`,
      `${PREFIX}webmasters.readonly`,
    ])
    const { location } = await allow(
      sandbox,
      validParams(pkcePair().challenge, { redirect_uri: 'http://localhost:9999/cb?session=a%20b' }),
    )
    expect(location.search.startsWith('?session=a%20b&code=')).toBe(true)
  })

  it('the consent page lists each scope in words and its full identifier, and the redirect host', async () => {
    const { html, action } = await consentForm(
      authorizeUrl(
        sandbox,
        validParams(pkcePair().challenge, {
          scope: 'tasks webmasters.readonly analytics.readonly',
        }),
      ),
    )
    expect(html).toContain('See, create, change and delete your task lists and tasks')
    expect(html).toContain('See your sites&#39; search performance, sitemaps and index status')
    expect(html).toContain('See reports on your analytics properties')
    expect(html).toContain(`${PREFIX}analytics.readonly`)
    expect(html).toContain('app.example')
    expect(action!.pathname).toBe('/oauth/authorize')
    expect(action!.searchParams.get('code_challenge_method')).toBe('S256')
  })

  it('prefills the user from the sign-in cookie', async () => {
    const { cookie } = await allow(sandbox, validParams(pkcePair().challenge), 'prefilled.user')
    expect(cookie).toMatch(/^sandbox_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/)
    const session = cookie!.split(';')[0]!
    const { html } = await consentForm(authorizeUrl(sandbox, validParams(pkcePair().challenge)), {
      cookie: session,
    })
    expect(fieldValue(html, 'user')).toBe('prefilled.user')
    const { html: anonymous } = await consentForm(
      authorizeUrl(sandbox, validParams(pkcePair().challenge)),
    )
    expect(fieldValue(anonymous, 'user')).toBe('')
  })

  it('Allow with an invalid user re-renders the form with a 400 saying what to change; no redirect', async () => {
    const { action } = await consentForm(authorizeUrl(sandbox, validParams(pkcePair().challenge)))
    for (const user of ['', 'has space', 'x'.repeat(65), '<b>']) {
      const res = await postForm(action!, { user, Allow: 'Allow' })
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
      const html = await res.text()
      expect(html).toContain('Change the user name')
      expect(html).toContain('<button name="Allow" value="Allow">Allow</button>')
    }
    const neither = await postForm(action!, { user: 'alice' })
    expect(neither.status).toBe(400)
    expect(await neither.text()).toContain('Choose Allow or Deny')
    const json = await fetch(action!, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"a"}',
    })
    expect(json.status).toBe(400)
  })
})

describe('POST /oauth/token', () => {
  it('answers the code grant with Bearer tokens and full scope identifiers', async () => {
    const got = await freshCode(sandbox)
    const res = await exchange(sandbox, got)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([
      'access_token',
      'token_type',
      'expires_in',
      'refresh_token',
      'scope',
    ])
    expect(res.body.token_type).toBe('Bearer')
    expect(res.body.expires_in).toBe(3600)
    expect(res.body.scope).toBe(`${PREFIX}tasks.readonly`)
  })

  it('names missing parameters, refuses unknown grant types, repeated parameters and non-form bodies', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{}, 'invalid_request', 'grant_type'],
      [
        { grant_type: 'password', username: 'a', password: 'b' },
        'unsupported_grant_type',
        'authorization_code',
      ],
      [
        { grant_type: 'client_credentials', client_id: 'x' },
        'unsupported_grant_type',
        'refresh_token',
      ],
      [
        { grant_type: 'authorization_code' },
        'invalid_request',
        'code, redirect_uri, code_verifier, client_id',
      ],
      [
        {
          grant_type: 'authorization_code',
          code: 'c',
          redirect_uri: REDIRECT_URI,
          client_id: 'x',
          code_verifier: 'short',
        },
        'invalid_request',
        'code_verifier',
      ],
      [{ grant_type: 'refresh_token' }, 'invalid_request', 'refresh_token, client_id'],
      [
        { grant_type: 'refresh_token', client_id: 'x', refresh_token: 'unknown' },
        'invalid_grant',
        'refresh token',
      ],
    ]
    for (const [fields, error, mentions] of cases) {
      const res = await tokenRequest(sandbox, fields)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe(error)
      expect(res.body.error_description).toContain(mentions)
    }
    const twice = await sandbox.request('POST', '/oauth/token', {
      rawBody: 'grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(twice.body.error).toBe('invalid_request')
    const json = await sandbox.request('POST', '/oauth/token', {
      body: { grant_type: 'refresh_token' },
    })
    expect(json.status).toBe(400)
    expect(json.body.error).toBe('invalid_request')
    expect(json.body.error_description).toContain('application/x-www-form-urlencoded')
  })

  it('client authentication: Basic or client_secret_post accepted (secret not checked); malformed Basic is 401 invalid_client', async () => {
    const basicGot = await freshCode(sandbox, { client_id: 'Basic App:1' })
    const viaBasic = await tokenRequest(
      sandbox,
      {
        grant_type: 'authorization_code',
        code: basicGot.code,
        redirect_uri: REDIRECT_URI,
        code_verifier: basicGot.verifier,
      },
      { headers: { authorization: basic('Basic App:1', 's3cret') } },
    )
    expect(viaBasic.status).toBe(200)

    const postGot = await freshCode(sandbox)
    expect((await exchange(sandbox, postGot, { client_secret: 'whatever' })).status).toBe(200)

    for (const authorization of [
      'Basic',
      'Basic !!!',
      'Basic ' + Buffer.from('no-colon').toString('base64'),
      'Basic ' + Buffer.from(':secret').toString('base64'),
      'Basic ' + Buffer.from('%zz:x').toString('base64'),
    ]) {
      const res = await tokenRequest(
        sandbox,
        { grant_type: 'refresh_token', refresh_token: 'x' },
        { headers: { authorization } },
      )
      expect(res.status).toBe(401)
      expect(res.body.error).toBe('invalid_client')
      expect(res.headers.get('www-authenticate')).toContain('Basic')
    }
    const both = await tokenRequest(
      sandbox,
      { grant_type: 'refresh_token', refresh_token: 'x', client_secret: 'y' },
      { headers: { authorization: basic('a', 'b') } },
    )
    expect(both.status).toBe(400)
    expect(both.body.error).toBe('invalid_request')
    const differ = await tokenRequest(
      sandbox,
      { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'other' },
      { headers: { authorization: basic('a', 'b') } },
    )
    expect(differ.body.error).toBe('invalid_request')
  })

  it('refresh: a new access token, the same refresh token kept; a scope may narrow the new token', async () => {
    const got = await freshCode(sandbox, { scope: 'tasks tasks.readonly' })
    const first = (await exchange(sandbox, got)).body
    const refresh = (scope?: string) =>
      tokenRequest(sandbox, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: got.params.client_id,
        ...(scope === undefined ? {} : { scope }),
      })
    const same = await refresh()
    expect(Object.keys(same.body)).toEqual(['access_token', 'token_type', 'expires_in', 'scope'])
    expect(same.body.scope.split(' ').sort()).toEqual([`${PREFIX}tasks`, `${PREFIX}tasks.readonly`])
    const narrow = await refresh(`${PREFIX}tasks.readonly`)
    expect(narrow.status).toBe(200)
    expect(narrow.body.scope).toBe(`${PREFIX}tasks.readonly`)
    const principal = await findToken(sandbox.db, narrow.body.access_token, 'access')
    expect([...principal!.scopes]).toEqual(['tasks.readonly'])
    expect(
      (await findToken(sandbox.db, same.body.access_token, 'access'))!.scopes.has('tasks'),
    ).toBe(true)
    // The first access token is still good: refreshing does not revoke earlier tokens.
    expect(
      (await sandbox.request('GET', '/oauth/userinfo', { token: first.access_token })).status,
    ).toBe(200)
    expect((await refresh('')).body.error).toBe('invalid_scope')
    expect((await refresh('nonsense')).body.error).toBe('invalid_scope')
  })

  it('an expired access token is refused, and a refresh brings a working one', async () => {
    const got = await freshCode(sandbox)
    const first = (await exchange(sandbox, got)).body
    await sandbox.db
      .updateTable('oauth_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('kind', '=', 'access')
      .execute()
    expect(
      (await sandbox.request('GET', '/oauth/userinfo', { token: first.access_token })).status,
    ).toBe(401)
    const next = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: got.params.client_id,
    })
    expect(
      (await sandbox.request('GET', '/oauth/userinfo', { token: next.body.access_token })).status,
    ).toBe(200)
  })
})

describe('POST /oauth/revoke', () => {
  it('revoking the refresh token ends the whole grant, access tokens included', async () => {
    const got = await freshCode(sandbox)
    const tokens = (await exchange(sandbox, got)).body
    const res = await tokenRequest(
      sandbox,
      {
        token: tokens.refresh_token,
        token_type_hint: 'refresh_token',
        client_id: got.params.client_id,
      },
      { path: '/oauth/revoke' },
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(
      (await sandbox.request('GET', '/oauth/userinfo', { token: tokens.access_token })).status,
    ).toBe(401)
    const refresh = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: got.params.client_id,
    })
    expect(refresh.body.error).toBe('invalid_grant')
  })

  it('unknown tokens answer 200 (RFC 7009); a missing token is 400 invalid_request', async () => {
    const unknown = await tokenRequest(
      sandbox,
      { token: 'never-issued', token_type_hint: 'whatever' },
      { path: '/oauth/revoke' },
    )
    expect(unknown.status).toBe(200)
    const absent = await tokenRequest(
      sandbox,
      { token_type_hint: 'access_token' },
      { path: '/oauth/revoke' },
    )
    expect(absent.status).toBe(400)
    expect(absent.body).toEqual({
      error: 'invalid_request',
      error_description: 'Missing required parameter: token.',
    })
    const badBasic = await tokenRequest(
      sandbox,
      { token: 'x' },
      { path: '/oauth/revoke', headers: { authorization: 'Basic %%%' } },
    )
    expect(badBasic.status).toBe(401)
    expect(badBasic.body.error).toBe('invalid_client')
  })

  it('revokes tokens from the control API too', async () => {
    const created = (
      await sandbox.request('POST', '/_sandbox/tokens', {
        body: { user: 'ctl', scopes: ['tasks'] },
      })
    ).body
    await tokenRequest(sandbox, { token: created.access_token }, { path: '/oauth/revoke' })
    expect(
      (await sandbox.request('GET', '/oauth/userinfo', { token: created.access_token })).status,
    ).toBe(401)
  })
})

describe('GET /oauth/userinfo', () => {
  it('answers {"sub": user} for an access token of any scope; else the provider 401', async () => {
    const token = await sandbox.token('zoe', ['analytics.readonly'])
    const ok = await sandbox.request('GET', '/oauth/userinfo', { token })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ sub: 'zoe' })
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'Basic abc' },
    ]) {
      const res = await sandbox.request('GET', '/oauth/userinfo', { headers })
      expect(res.status).toBe(401)
      expect(providerError(res).errors[0]!.reason).toBe('authError')
    }
    const refresh = (
      await sandbox.request('POST', '/_sandbox/tokens', {
        body: { user: 'zoe', scopes: ['tasks'] },
      })
    ).body.refresh_token
    expect((await sandbox.request('GET', '/oauth/userinfo', { token: refresh })).status).toBe(401)
  })

  it('other paths and methods under /oauth/ fall through to the 404', async () => {
    for (const [method, path] of [
      ['GET', '/oauth/token'],
      ['GET', '/oauth/revoke'],
      ['PUT', '/oauth/authorize'],
      ['GET', '/oauth/nothing'],
      ['GET', '/oauth'],
      ['POST', '/.well-known/oauth-authorization-server'],
    ] as const) {
      const res = await sandbox.request(method, path)
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(providerError(res).status).toBe('NOT_FOUND')
    }
  })
})

describe('identity scope', () => {
  it('a token with only openid reads userinfo but no API', async () => {
    const token = await sandbox.token('iris', ['openid'])
    const me = await sandbox.request('GET', '/oauth/userinfo', { token })
    expect(me.status).toBe(200)
    expect(me.body).toEqual({ sub: 'iris' })
    const lists = await sandbox.request('GET', '/tasks/v1/lists', { token })
    expect(lists.status).toBe(403)
  })
})
