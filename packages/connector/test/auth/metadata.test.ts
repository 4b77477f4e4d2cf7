import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cookieKeys, signingJwks } from '../../src/auth/keys.js'
import { Vault } from '../../src/vault/vault.js'
import { connectorForSuite } from '../support/connector.js'

const suite = connectorForSuite()

describe('authorization server metadata', () => {
  it('is the same document at both well-known paths', async () => {
    const rfc8414 = await suite.request('GET', '/.well-known/oauth-authorization-server')
    const oidc = await suite.request('GET', '/.well-known/openid-configuration')
    expect(rfc8414.status).toBe(200)
    expect(rfc8414.body).toEqual(oidc.body)
  })

  // docs/design.md, "The authorization server"
  it('says what the authorization server promises', async () => {
    const { body } = await suite.request('GET', '/.well-known/oauth-authorization-server')
    const url = suite.url
    expect(body).toMatchObject({
      issuer: url,
      authorization_endpoint: `${url}/oauth/authorize`,
      token_endpoint: `${url}/oauth/token`,
      registration_endpoint: `${url}/oauth/register`,
      revocation_endpoint: `${url}/oauth/revoke`,
      jwks_uri: `${url}/oauth/jwks`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: [
        'none',
        'client_secret_basic',
        'client_secret_post',
        'private_key_jwt',
      ],
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      scopes_supported: [
        'tasks.readonly',
        'tasks',
        'webmasters.readonly',
        'webmasters',
        'analytics.readonly',
      ],
    })
    expect([...body.grant_types_supported].sort()).toEqual(['authorization_code', 'refresh_token'])
    expect(body.introspection_endpoint).toBeUndefined()
    expect(body.userinfo_endpoint).toBeUndefined()
    expect(body.device_authorization_endpoint).toBeUndefined()
    expect(body.pushed_authorization_request_endpoint).toBeUndefined()
    expect(body.dpop_signing_alg_values_supported).toBeUndefined()
  })

  it('publishes a JWKS with a public key only', async () => {
    const { status, body } = await suite.request('GET', '/oauth/jwks')
    expect(status).toBe(200)
    expect(body.keys).toHaveLength(1)
    expect(body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' })
    expect(body.keys[0].d).toBeUndefined()
  })

  it('is served whatever Host the request names (URLs come from PUBLIC_URL)', async () => {
    const res = await fetch(`${suite.url}/.well-known/oauth-authorization-server`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    })
    const body = await res.json()
    expect(body.issuer).toBe(suite.url)
    expect(body.token_endpoint).toBe(`${suite.url}/oauth/token`)
  })
})

describe('derived keys', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'countersign-keys-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))
  const vaultOf = (vaultKey: string) => Vault.fromEnvironment({ vaultKey, dataDir: scratch }).vault

  it('are the same on every replica with the same VAULT_KEY, and differ with another', () => {
    const key = randomBytes(32).toString('base64')
    const other = randomBytes(32).toString('base64')
    expect(signingJwks(vaultOf(key))).toEqual(signingJwks(vaultOf(key)))
    expect(cookieKeys(vaultOf(key))).toEqual(cookieKeys(vaultOf(key)))
    expect(signingJwks(vaultOf(other))).not.toEqual(signingJwks(vaultOf(key)))
    expect(cookieKeys(vaultOf(other))).not.toEqual(cookieKeys(vaultOf(key)))
  })

  it('keep verifying cookies signed under the previous key while keys rotate', () => {
    const old = randomBytes(32).toString('base64')
    const next = randomBytes(32).toString('base64')
    const rotated = cookieKeys(vaultOf(`${next},${old}`))
    expect(rotated[0]).toBe(cookieKeys(vaultOf(next))[0])
    expect(rotated[1]).toBe(cookieKeys(vaultOf(old))[0])
  })

  it('never equal the vault key or each other', () => {
    const key = randomBytes(32)
    const vault = vaultOf(key.toString('base64'))
    const a = vault.deriveKey('a')
    expect(a.equals(key)).toBe(false)
    expect(a.equals(vault.deriveKey('b'))).toBe(false)
    expect(a.equals(vault.deriveKey('a'))).toBe(true)
  })
})
