import { describe, expect, it } from 'vitest'
import { connectorForSuite, firstAnswer } from '@countersign/connector/testing'

/**
 * PKCE S256 only and no PKCE downgrade (docs/threat-model.md, "PKCE S256 only" and "No PKCE
 * downgrade"): every authorization request carries an S256 code challenge, and the code it yields
 * is redeemed only with the matching verifier. Each refusal issues no code and no token.
 */

const suite = connectorForSuite()

/** Counts of what a refusal must not have created. */
const issued = async () => {
  const {
    AuthorizationCode = 0,
    AccessToken = 0,
    RefreshToken = 0,
    Grant = 0,
  } = await suite.holdings()
  return { AuthorizationCode, AccessToken, RefreshToken, Grant }
}

describe('PKCE S256 only', () => {
  it('the metadata offers S256 and nothing else', async () => {
    const { body } = await suite.request('GET', '/.well-known/oauth-authorization-server')
    expect(body.code_challenge_methods_supported).toEqual(['S256'])
  })

  it('the plain method, or any other, is refused at the redirect URI with invalid_request, no code', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const before = await issued()
    for (const [method, challenge] of [
      ['plain', pkce.verifier],
      ['S512', pkce.challenge],
      ['s256', pkce.challenge],
    ]) {
      const { status, location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', pkce, {
          code_challenge: challenge,
          code_challenge_method: method,
          state: 'pkce-method',
        }),
      )
      expect(status, method).toBe(303)
      expect(location!.origin + location!.pathname).toBe(client.redirect_uri)
      expect(location!.searchParams.get('error'), method).toBe('invalid_request')
      expect(location!.searchParams.get('error_description')).toMatch(/code_challenge_method/)
      expect(location!.searchParams.get('state')).toBe('pkce-method')
      expect(location!.searchParams.get('iss')).toBe(suite.url)
      expect(location!.searchParams.has('code')).toBe(false)
    }
    expect(await issued()).toEqual(before)
  })
})

describe('no PKCE downgrade', () => {
  it('a request without a code challenge is refused at the redirect URI with invalid_request, no code', async () => {
    const client = await suite.registerClient()
    const before = await issued()
    for (const params of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: undefined },
    ]) {
      const { location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), params),
      )
      expect(location!.origin + location!.pathname).toBe(client.redirect_uri)
      expect(location!.searchParams.get('error')).toBe('invalid_request')
      expect(location!.searchParams.get('error_description')).toMatch(/PKCE|code_challenge/i)
      expect(location!.searchParams.get('iss')).toBe(suite.url)
      expect(location!.searchParams.has('code')).toBe(false)
    }
    expect(await issued()).toEqual(before)
  })

  it('a code is redeemed only with its verifier: none or a wrong one gets invalid_grant, no token', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const returned = await suite
      .person('pkce-user')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const code = returned.searchParams.get('code')!
    const before = await issued()

    const missing = await suite.token(client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirect_uri,
    })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toBe('invalid_grant')
    expect(missing.body.access_token).toBeUndefined()

    const wrong = await suite.exchangeCode(client, code, suite.pkce())
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe('invalid_grant')
    expect(wrong.body.access_token).toBeUndefined()

    const after = await issued()
    expect(after.AccessToken).toBe(before.AccessToken)
    expect(after.RefreshToken).toBe(before.RefreshToken)
  })
})
