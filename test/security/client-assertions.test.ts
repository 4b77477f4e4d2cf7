import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  CLIENT_ASSERTION_TYPE,
  connectorForSuite,
  HOSTS,
  HostSignIn,
  hostSigningKey,
  jwksPath,
  metadataDocumentsForSuite,
  publishedDocument,
  selfSignedCertificate,
  signedAssertion,
  type HostSigningKey,
  type HostWorld,
} from '@countersign/connector/testing'

/**
 * Client assertions (private_key_jwt, RFC 7523; docs/threat-model.md, "Forged or replayed client
 * assertions"). A client that signs its token requests, as ChatGPT does, is known by the keys at
 * its `jwks_uri`: an assertion signed by any other key, for another client, another audience,
 * with too long a life, an algorithm that is not a signature, or used a second time is refused
 * with `invalid_client`, and nothing is issued. The keys are fetched once and kept, and fetched
 * again for a key they do not hold (a rotation), at most once in 30 s whatever is sent.
 */

const chatgpt = HOSTS.find((host) => host.name === 'ChatGPT')!
const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])

/** The keys ChatGPT publishes: changed by a test to rotate them. */
let published: HostSigningKey[] = [await hostSigningKey()]
const world: HostWorld = {
  resource: (service) => suite.resource(service),
  documentUrl: (path) => documents.url('localhost', path),
  get signingKey() {
    return published[0]
  },
}
const documents = metadataDocumentsForSuite(tls, () => publishedDocument(chatgpt, world)!, {
  fileAt: (path) =>
    path === jwksPath(chatgpt) ? { keys: published.map((key) => key.jwk) } : undefined,
})
const suite = connectorForSuite({
  connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
})

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A client assertion of ChatGPT's signed with `key`, its claims over a valid one's. */
const assertion = (key: HostSigningKey, claims: Record<string, unknown> = {}) =>
  signedAssertion(
    key,
    { clientId: publishedDocument(chatgpt, world)!.client_id, issuer: suite.url },
    claims,
  )

/** A refresh with `clientAssertion` as the client's authentication. */
function refreshWith(refreshToken: string, clientAssertion: string) {
  return suite.request('POST', '/oauth/token', {
    form: {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: clientAssertion,
    },
  })
}

async function connected() {
  const signIn = new HostSignIn(chatgpt, world)
  const tokens = await signIn.signIn(suite.person(`assertion-${randomBytes(4).toString('hex')}`))
  return { signIn, refreshToken: tokens.refresh_token! }
}

async function expectRefused(refreshToken: string, clientAssertion: string, what: string) {
  const before = await suite.holdings()
  const res = await refreshWith(refreshToken, clientAssertion)
  expect(res.status, what).toBe(401)
  expect(res.body.error, what).toBe('invalid_client')
  expect(res.body.access_token, what).toBeUndefined()
  expect(await suite.holdings(), what).toEqual(before)
}

describe('client assertions (private_key_jwt)', () => {
  it('a valid assertion refreshes; the audience may be the issuer or the token endpoint', async () => {
    const { refreshToken } = await connected()
    const first = await refreshWith(refreshToken, await assertion(published[0]!))
    expect(first.status).toBe(200)
    const second = await refreshWith(
      first.body.refresh_token,
      await assertion(published[0]!, { aud: `${suite.url}/oauth/token` }),
    )
    expect(second.status).toBe(200)
  })

  it('an assertion that is forged, for another client or audience, or too long-lived is refused', async () => {
    const { refreshToken } = await connected()
    const key = published[0]!
    const stranger = await hostSigningKey()
    const now = Math.floor(Date.now() / 1000)
    const cases: [string, Promise<string>][] = [
      ['signed by another key under the same kid', assertion({ ...stranger, jwk: key.jwk })],
      ['another issuer', assertion(key, { iss: 'https://attacker.example/client.json' })],
      ['the MCP endpoint as audience', assertion(key, { aud: suite.resource('tasks') })],
      ['another server as audience', assertion(key, { aud: 'https://other.example' })],
      ['expired', assertion(key, { iat: now - 600, exp: now - 300 })],
      ['no expiry', assertion(key, { exp: undefined })],
      ['no jti', assertion(key, { jti: undefined })],
      ['living a day', assertion(key, { exp: now + 24 * 60 * 60 })],
    ]
    for (const [what, made] of cases) await expectRefused(refreshToken, await made, what)

    // Algorithms that are not a signature by the client's key.
    const clientId = publishedDocument(chatgpt, world)!.client_id
    const claims = b64({ iss: clientId, sub: clientId, aud: suite.url, exp: now + 60, jti: 'x1' })
    await expectRefused(refreshToken, `${b64({ alg: 'none' })}.${claims}.`, 'alg none')
    await expectRefused(
      refreshToken,
      `${b64({ alg: 'HS256', kid: key.jwk.kid })}.${claims}.${Buffer.from('forged').toString('base64url')}`,
      'HS256',
    )

    // The refresh token was never spent by the refusals.
    expect((await refreshWith(refreshToken, await assertion(key))).status).toBe(200)
  })

  it('an assertion is used once: its replay is refused', async () => {
    const { refreshToken } = await connected()
    const once = await assertion(published[0]!)
    const first = await refreshWith(refreshToken, once)
    expect(first.status).toBe(200)
    await expectRefused(first.body.refresh_token, once, 'the same assertion again')
  })

  it('a client that signs cannot present itself as a public client', async () => {
    const { refreshToken, signIn } = await connected()
    const res = await suite.request('POST', '/oauth/token', {
      form: {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: signIn.client.client_id,
      },
    })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe('invalid_client')
  })

  it('the keys are fetched once, and again once for a key rotated in', async () => {
    const { refreshToken } = await connected()
    const path = jwksPath(chatgpt)
    const fetched = documents.fetchesOf(path)
    let current = refreshToken
    for (let i = 0; i < 3; i += 1) {
      const res = await refreshWith(current, await assertion(published[0]!))
      expect(res.status).toBe(200)
      current = res.body.refresh_token
    }
    expect(documents.fetchesOf(path), 'fetched for each request').toBe(fetched)

    // ChatGPT rotates its key: the first assertion under the new kid fetches the keys again.
    const rotated = await hostSigningKey()
    published = [rotated]
    const res = await refreshWith(current, await assertion(rotated))
    expect(res.status).toBe(200)
    expect(documents.fetchesOf(path)).toBe(fetched + 1)

    // Assertions under kids that nobody publishes make no more fetches.
    for (let i = 0; i < 5; i += 1) {
      const stranger = await hostSigningKey()
      await expectRefused(res.body.refresh_token, await assertion(stranger), 'an unknown kid')
    }
    expect(documents.fetchesOf(path)).toBe(fetched + 1)
  })
})
