import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { hashSecret } from '../../src/core/secrets.js'
import { sandboxForSuite } from '../support/sandbox.js'
import {
  allow,
  authorizeUrl,
  consentForm,
  exchange,
  freshCode,
  pkcePair,
  postForm,
  REDIRECT_URI,
  tokenRequest,
  validParams,
} from './person.js'

const sandbox = sandboxForSuite()

const userinfo = (token: string) => sandbox.request('GET', '/oauth/userinfo', { token })

/** The error redirect of an authorization request, as the client would receive it. */
async function refusedAt(url: URL) {
  const res = await fetch(url, { redirect: 'manual' })
  expect(res.status).toBe(302)
  return new URL(res.headers.get('location')!)
}

describe('attacks on the sandbox OAuth server, each with its exact answer', () => {
  it('wrong PKCE verifier: invalid_grant (and the code stays usable by its rightful client)', async () => {
    const got = await freshCode(sandbox)
    const wrong = await exchange(sandbox, got, { code_verifier: pkcePair().verifier })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe('invalid_grant')
    expect(wrong.body.error_description).toContain('code_verifier')
    const right = await exchange(sandbox, got)
    expect(right.status).toBe(200)
  })

  it('PKCE downgrade: code_challenge_method=plain is refused with invalid_request, and no code is issued', async () => {
    const { verifier } = pkcePair()
    const params = validParams(verifier, { code_challenge_method: 'plain' })
    const refused = await refusedAt(authorizeUrl(sandbox, params))
    expect(refused.origin + refused.pathname).toBe(REDIRECT_URI)
    expect(refused.searchParams.get('error')).toBe('invalid_request')
    expect(refused.searchParams.get('error_description')).toContain('S256')
    expect(refused.searchParams.get('state')).toBe(params.state)
    expect(refused.searchParams.get('iss')).toBe(sandbox.url)
    // Posting the decision directly does not get around it.
    const post = await postForm(authorizeUrl(sandbox, params), { user: 'mallory', Allow: 'Allow' })
    expect(post.status).toBe(303)
    const location = new URL(post.headers.get('location')!)
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.has('code')).toBe(false)
  })

  it('PKCE missing: no code_challenge (or no method, which would mean plain) is refused with invalid_request', async () => {
    const { challenge } = pkcePair()
    for (const params of [
      validParams(challenge, { code_challenge: undefined, code_challenge_method: undefined }),
      validParams(challenge, { code_challenge: undefined }),
      validParams(challenge, { code_challenge_method: undefined }),
      validParams('too-short', {}),
    ]) {
      const refused = await refusedAt(authorizeUrl(sandbox, params))
      expect(refused.searchParams.get('error')).toBe('invalid_request')
      expect(refused.searchParams.get('state')).toBe(params.state)
      expect(refused.searchParams.has('code')).toBe(false)
    }
  })

  it('PKCE missing at the token endpoint: no code_verifier is invalid_request', async () => {
    const got = await freshCode(sandbox)
    const res = await tokenRequest(sandbox, {
      grant_type: 'authorization_code',
      code: got.code,
      redirect_uri: REDIRECT_URI,
      client_id: got.params.client_id,
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: 'Missing required parameter: code_verifier.',
    })
  })

  it("code replay: invalid_grant, and the first exchange's access and refresh tokens die", async () => {
    const got = await freshCode(sandbox)
    const first = await exchange(sandbox, got)
    expect(first.status).toBe(200)
    expect((await userinfo(first.body.access_token)).status).toBe(200)
    const replay = await exchange(sandbox, got)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    expect((await userinfo(first.body.access_token)).status).toBe(401)
    const refresh = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: got.params.client_id,
    })
    expect(refresh.body.error).toBe('invalid_grant')
  })

  it('code replay racing the first exchange: exactly one succeeds, and its tokens are revoked', async () => {
    const got = await freshCode(sandbox)
    const results = await Promise.all([exchange(sandbox, got), exchange(sandbox, got)])
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    expect(results.find((r) => r.status !== 200)!.body.error).toBe('invalid_grant')
    expect((await userinfo(ok[0]!.body.access_token)).status).toBe(401)
  })

  it('redirect_uri mismatch at the token endpoint: invalid_grant', async () => {
    const got = await freshCode(sandbox)
    for (const redirect_uri of [
      REDIRECT_URI + '/',
      REDIRECT_URI + '?x=1',
      'https://evil.example/oauth/callback',
    ]) {
      const res = await exchange(sandbox, got, { redirect_uri })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('invalid_grant')
    }
  })

  it('code issued to another client_id: invalid_grant (in the body or via HTTP Basic)', async () => {
    const got = await freshCode(sandbox)
    const inBody = await exchange(sandbox, got, { client_id: 'Other App' })
    expect(inBody.status).toBe(400)
    expect(inBody.body.error).toBe('invalid_grant')
    const viaBasic = await tokenRequest(
      sandbox,
      {
        grant_type: 'authorization_code',
        code: got.code,
        redirect_uri: REDIRECT_URI,
        code_verifier: got.verifier,
      },
      { headers: { authorization: 'Basic ' + Buffer.from('Other+App:secret').toString('base64') } },
    )
    expect(viaBasic.body.error).toBe('invalid_grant')
  })

  it('expired code: invalid_grant', async () => {
    const got = await freshCode(sandbox)
    await sandbox.db
      .updateTable('oauth_codes')
      .set({ expires_at: Date.now() - 1 })
      .where('code_hash', '=', hashSecret(got.code))
      .execute()
    const res = await exchange(sandbox, got)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_grant')
    expect(res.body.error_description).toContain('expired')
  })

  it('unknown or forged code: invalid_grant', async () => {
    const got = await freshCode(sandbox)
    const res = await exchange(sandbox, got, { code: got.code + 'x' })
    expect(res.body.error).toBe('invalid_grant')
  })

  it('an invalid redirect_uri or client_id never gets a redirect, even with Allow', async () => {
    const { challenge } = pkcePair()
    const badRedirects = [
      undefined,
      '',
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://app.example/cb',
      '/relative/callback',
      'app.example/cb',
      'https://app.example/cb#fragment',
      'https://user:pass@app.example/cb',
      'https://app.example/c b',
      'https://' + 'a'.repeat(2100) + '.example/',
    ]
    const cases = [
      ...badRedirects.map((redirect_uri) => validParams(challenge, { redirect_uri })),
      // Even when the rest of the request is broken too (which would otherwise be redirected).
      ...badRedirects.map((redirect_uri) =>
        validParams(challenge, { redirect_uri, code_challenge_method: 'plain' }),
      ),
      validParams(challenge, { client_id: undefined }),
      validParams(challenge, { client_id: '' }),
      validParams(challenge, { client_id: 'bad\u0000id' }),
      validParams(challenge, { client_id: 'x'.repeat(201) }),
    ]
    for (const params of cases) {
      const url = authorizeUrl(sandbox, params)
      const shown = await fetch(url, { redirect: 'manual' })
      expect(shown.status, url.search).toBe(400)
      expect(shown.headers.get('location')).toBeNull()
      expect(shown.headers.get('content-type')).toContain('text/html')
      expect(await shown.text()).toContain('not valid')
      const posted = await postForm(url, { user: 'alice', Allow: 'Allow' })
      expect(posted.status).toBe(400)
      expect(posted.headers.get('location')).toBeNull()
    }
    // A repeated redirect_uri is ambiguous: no redirect either.
    const twice = authorizeUrl(sandbox, validParams(challenge))
    twice.searchParams.append('redirect_uri', 'https://evil.example/cb')
    const res = await fetch(twice, { redirect: 'manual' })
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
  })

  it('Deny: access_denied with the state and iss, and no code', async () => {
    const { challenge } = pkcePair()
    const params = validParams(challenge)
    const { action } = await consentForm(authorizeUrl(sandbox, params))
    const res = await postForm(action!, { user: 'alice', Deny: 'Deny' })
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!)
    expect(location.origin + location.pathname).toBe(REDIRECT_URI)
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('state')).toBe(params.state)
    expect(location.searchParams.get('iss')).toBe(sandbox.url)
    expect(location.searchParams.has('code')).toBe(false)
  })

  it('token endpoint answers carry Cache-Control: no-store and Pragma: no-cache, errors included', async () => {
    const got = await freshCode(sandbox)
    const ok = await exchange(sandbox, got)
    const refreshed = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: ok.body.refresh_token,
      client_id: got.params.client_id,
    })
    const failed = await exchange(sandbox, got, { code: 'nope' })
    const badClient = await tokenRequest(
      sandbox,
      { grant_type: 'refresh_token' },
      { headers: { authorization: 'Basic !!' } },
    )
    for (const res of [ok, refreshed, failed, badClient]) {
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('pragma')).toBe('no-cache')
    }
    expect([ok.status, refreshed.status, failed.status, badClient.status]).toEqual([
      200, 200, 400, 401,
    ])
  })

  it('a refresh cannot widen the grant (invalid_scope), nor be used by another client (invalid_grant)', async () => {
    const got = await freshCode(sandbox)
    const tokens = (await exchange(sandbox, got)).body
    const wider = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: got.params.client_id,
      scope: 'tasks.readonly tasks',
    })
    expect(wider.status).toBe(400)
    expect(wider.body.error).toBe('invalid_scope')
    const stolen = await tokenRequest(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: 'Other App',
    })
    expect(stolen.body.error).toBe('invalid_grant')
  })

  it('markup in client_id, state or scope is escaped on the consent page', async () => {
    const { challenge } = pkcePair()
    const params = validParams(challenge, {
      client_id: '<script>alert(1)</script>',
      state: '"><img src=x onerror=alert(1)>',
    })
    const { res, html, action } = await consentForm(authorizeUrl(sandbox, params))
    expect(res.status).toBe(200)
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(action!.searchParams.get('state')).toBe(params.state)
    const done = await postForm(action!, { user: 'alice', Allow: 'Allow' })
    expect(new URL(done.headers.get('location')!).searchParams.get('state')).toBe(params.state)
  })

  it('the store holds no plain-text code, token or session (every table dumped and searched)', async () => {
    const got = await freshCode(sandbox, {}, 'storecheck')
    const { cookie } = await allow(sandbox, validParams(pkcePair().challenge), 'storecheck')
    const session = /sandbox_session=([^;]+)/.exec(cookie ?? '')![1]!
    const first = (await exchange(sandbox, got)).body
    const refreshed = (
      await tokenRequest(sandbox, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: got.params.client_id,
      })
    ).body
    const control = (
      await sandbox.request('POST', '/_sandbox/tokens', {
        body: { user: 'storecheck', scopes: ['tasks'] },
      })
    ).body

    const secrets = [
      got.code,
      first.access_token,
      first.refresh_token,
      refreshed.access_token,
      session,
      control.access_token,
      control.refresh_token,
    ]
    for (const s of secrets) expect(typeof s).toBe('string')

    const tables = await sql<{
      name: string
    }>`select name from sqlite_master where type = 'table'`.execute(sandbox.db)
    expect(tables.rows.length).toBeGreaterThanOrEqual(8)
    let dump = ''
    for (const { name } of tables.rows) {
      const rows = await sql.raw(`select * from "${name}"`).execute(sandbox.db)
      dump += JSON.stringify(rows.rows)
    }
    for (const s of secrets) {
      expect(dump).not.toContain(s)
      // A token without its prefix must not be there either.
      expect(dump).not.toContain(s.slice(s.indexOf('_') + 1))
    }
    // What the store holds instead: the hashes.
    expect(dump).toContain(hashSecret(got.code))
    expect(dump).toContain(hashSecret(session))
  })
})
