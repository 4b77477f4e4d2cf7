import { describe, expect, it } from 'vitest'
import { connectorForSuite } from '../support/connector.js'

/**
 * Dynamic client registration (RFC 7591): open, with the redirect URI rules of docs/design.md, "The
 * authorization server".
 */

const suite = connectorForSuite()

const register = (metadata: Record<string, unknown>) =>
  suite.request('POST', '/oauth/register', {
    json: { token_endpoint_auth_method: 'none', ...metadata },
  })

describe('registration', () => {
  it('is open: no initial access token needed', async () => {
    const res = await register({ redirect_uris: ['https://assistant.example/callback'] })
    expect(res.status).toBe(201)
    expect(res.body.client_id).toBeTruthy()
    expect(res.body.grant_types).toEqual(['authorization_code', 'refresh_token'])
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it.each([
    'https://assistant.example/callback',
    'http://127.0.0.1:33418/callback',
    'http://localhost:9999/oauth/callback',
    'http://[::1]:8000/cb',
  ])('accepts %s', async (uri) => {
    const res = await register({ redirect_uris: [uri] })
    expect(res.status, res.text).toBe(201)
  })

  it.each([
    'http://assistant.example/callback',
    'http://192.168.1.10/callback',
    'http://127.0.0.1.nip.io/callback',
    'com.example.app:/oauth/callback',
    'javascript:alert(1)',
    'https://assistant.example/callback#fragment',
    'not a uri',
  ])('refuses %s', async (uri) => {
    const res = await register({ redirect_uris: [uri] })
    expect(res.status).toBe(400)
    expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain(res.body.error)
  })

  it('refuses a list with one bad redirect URI among good ones', async () => {
    const res = await register({
      redirect_uris: ['https://assistant.example/callback', 'http://assistant.example/callback'],
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_redirect_uri')
    expect(res.body.error_description).toMatch(/https, or http on a loopback address/)
  })

  it("accepts a scope of the services' scopes (as MCP clients send it), and does not keep it", async () => {
    const res = await register({
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      application_type: 'native',
      scope: 'tasks.readonly tasks',
    })
    expect(res.status, res.text).toBe(201)
    expect(res.body.scope).toBeUndefined()
  })

  it("refuses a scope that is not one of the services' scopes", async () => {
    for (const scope of ['openid', 'tasks email', 'admin']) {
      const res = await register({ redirect_uris: ['https://a.example/cb'], scope })
      expect(res.status, scope).toBe(400)
      expect(res.body.error).toBe('invalid_client_metadata')
      expect(res.body.error_description).toMatch(/is not a scope of this server/)
    }
  })

  it('offers no grant but the authorization code and refresh token', async () => {
    for (const grant_types of [
      ['client_credentials'],
      ['implicit'],
      ['urn:ietf:params:oauth:grant-type:device_code'],
    ]) {
      const res = await register({ redirect_uris: ['https://a.example/cb'], grant_types })
      expect(res.status, grant_types[0]).toBe(400)
    }
    const res = await register({
      redirect_uris: ['https://a.example/cb'],
      response_types: ['token'],
    })
    expect(res.status).toBe(400)
  })

  it('refuses client authentication that would need the secret in the clear', async () => {
    const res = await register({
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'client_secret_jwt',
    })
    expect(res.status).toBe(400)
  })
})

describe('confidential clients', () => {
  it('get a secret, authenticate with it, and are refused with a wrong one', async () => {
    const client = await suite.registerClient({ token_endpoint_auth_method: 'client_secret_basic' })
    expect(client.client_secret).toBeTruthy()
    const { tokens } = await suite.connect({ client })
    expect((await suite.mcp('tasks', tokens.access_token)).status).toBe(200)

    const wrong = await suite.refresh({ ...client, client_secret: 'wrong' }, tokens.refresh_token)
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toBe('invalid_client')

    // The stored digest is not a secret that works.
    const row = await suite.store.db
      .selectFrom('oauth_records')
      .select('payload')
      .where('kind', '=', 'Client')
      .execute()
    const stored = row
      .map((r) => JSON.parse(r.payload))
      .find((p) => p.client_id === client.client_id)
    expect(stored.client_secret).toMatch(/^sha256:/)
    const withDigest = await suite.refresh(
      { ...client, client_secret: stored.client_secret },
      tokens.refresh_token,
    )
    expect(withDigest.body.error).toBe('invalid_client')

    const right = await suite.refresh(client, tokens.refresh_token)
    expect(right.status).toBe(200)
  })

  it('never get their stored digest back when reading their registration', async () => {
    const client = await suite.registerClient({ token_endpoint_auth_method: 'client_secret_basic' })
    const { registration_client_uri, registration_access_token } = client.registration
    const res = await suite.request('GET', registration_client_uri, {
      token: registration_access_token,
    })
    expect(res.status).toBe(200)
    expect(res.body.client_id).toBe(client.client_id)
    expect(res.body.client_secret).toBeUndefined()
  })

  it('with client_secret_post work too', async () => {
    const client = await suite.registerClient({ token_endpoint_auth_method: 'client_secret_post' })
    const pkce = suite.pkce()
    const returned = await suite
      .person('poster')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const res = await suite.request('POST', '/oauth/token', {
      form: {
        grant_type: 'authorization_code',
        code: returned.searchParams.get('code')!,
        redirect_uri: client.redirect_uri,
        code_verifier: pkce.verifier,
        client_id: client.client_id,
        client_secret: client.client_secret!,
      },
    })
    expect(res.status).toBe(200)
  })
})
