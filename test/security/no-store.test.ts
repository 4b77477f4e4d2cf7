import { describe, expect, it } from 'vitest'
import { connectorForSuite } from '@countersign/connector/testing'

/**
 * `no-store` on token responses (docs/threat-model.md, "no-store on token responses"): nothing that
 * carries a token, a client secret or an error about one may be kept by a cache (RFC 6749 §5.1, RFC
 * 7591 §3.2.1).
 */

const suite = connectorForSuite()

describe('no-store on token responses', () => {
  it('the code exchange and the refresh answer with no-store, a bearer token for an hour and a refresh token', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const returned = await suite
      .person('no-store')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const res = await suite.exchangeCode(client, returned.searchParams.get('code')!, pkce)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    expect(res.body.refresh_token).toBeTruthy()

    const refreshed = await suite.refresh(client, res.body.refresh_token)
    expect(refreshed.status).toBe(200)
    expect(refreshed.headers.get('cache-control')).toBe('no-store')
  })

  it("the token endpoint's errors carry no-store too", async () => {
    const client = await suite.registerClient()
    const confidential = await suite.registerClient({
      token_endpoint_auth_method: 'client_secret_basic',
    })
    const answers = [
      await suite.refresh(client, 'not-a-refresh-token'),
      await suite.token(client, { grant_type: 'password', username: 'a', password: 'b' }),
      await suite.refresh({ ...confidential, client_secret: 'wrong' }, 'not-a-refresh-token'),
    ]
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'invalid_grant'],
      [400, 'unsupported_grant_type'],
      [401, 'invalid_client'],
    ])
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store')
  })

  it('the registration answer, which carries the client secret, has no-store', async () => {
    const res = await suite.request('POST', '/oauth/register', {
      json: {
        redirect_uris: ['https://assistant.example/callback'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body.client_secret).toBeTruthy()
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})
