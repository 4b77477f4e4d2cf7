import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import {
  CLIENT_ASSERTION_TYPE,
  type Client,
  connectorForSuite,
  type ConnectorHarness,
  hostSigningKey,
  metadataDocumentsForSuite,
  selfSignedCertificate,
  signedAssertion,
} from '@countersign/connector/testing'

/**
 * SSRF-safe fetching of client metadata documents (docs/threat-model.md, "SSRF through client
 * metadata documents"). A client names itself by an https URL and the connector fetches it:
 * loopback, private and other special-use addresses are refused (oidc-provider's protection) before
 * anything is fetched, unless DEV_ALLOW_LOOPBACK_CLIENT_METADATA lets a local MCP client serve its
 * document on loopback, and then only loopback. A refusal is a 400 page (never a redirect to an
 * unverified client), and nothing is issued or stored. A document is fetched at most once per
 * request, and a refused one (slow, failing, or not a valid document) is not fetched again for a
 * minute, by anyone: neither a slow URL nor an anonymous caller can make the connector fetch more
 * than once per document. The signing keys of a client that authenticates with private_key_jwt
 * (its `jwks_uri`) are fetched under the same guard.
 */

/** A non-loopback address of this machine in a special-use range (private, documentation...). */
function privateAddress(): string | undefined {
  const all = Object.values(networkInterfaces()).flatMap((entries) => entries ?? [])
  const special = (address: string) =>
    /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|192\.0\.2\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|169\.254\.)/.test(
      address,
    ) || /^f[cd]/i.test(address)
  const candidates = all.filter((entry) => !entry.internal && special(entry.address))
  return (candidates.find((entry) => entry.family === 'IPv4') ?? candidates[0])?.address
}

const PRIVATE = privateAddress()
const urlHost = (address: string) => (address.includes(':') ? `[${address}]` : address)

const tls = selfSignedCertificate([
  'IP:127.0.0.1',
  'DNS:localhost',
  ...(PRIVATE ? [`IP:${PRIVATE}`] : []),
])
/**
 * Far past oidc-provider's 2.5 s deadline for a document, and within what a test waits: fetched
 * to its end, the document would be accepted.
 */
const SLOW_MS = 10_000
const documents = metadataDocumentsForSuite(
  tls,
  (clientId) => ({
    // A document under /signing/ authenticates with keys on the private address.
    ...(clientId.includes('/signing/') && {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `https://${urlHost(PRIVATE ?? '192.0.2.1')}:${documents.port}/keys.json`,
    }),
    client_name: 'Local Test Assistant',
    // A document under /invalid/ names a redirect URI the connector refuses.
    redirect_uris: [
      clientId.includes('/invalid/')
        ? 'http://evil.example/callback'
        : 'http://127.0.0.1:45123/callback',
    ],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  }),
  { delayMs: (path) => (path.startsWith('/slow/') ? SLOW_MS : 0) },
)

const documentClient = (host: string, path?: string): Client => ({
  client_id: documents.url(host, path),
  redirect_uri: 'http://127.0.0.1:45123/callback',
  registration: {},
})

/** A refusal's page: the app's document could not be had, or was not valid (invalid_client). */
const REFUSAL_PAGE = /This server could not reach the app|invalid_client/

/** The authorization endpoint's first answer for a client named by a document URL. */
async function tryAuthorize(suite: ConnectorHarness, client: Client) {
  const before = documents.requests.length
  const holdings = await suite.holdings()
  const started = performance.now()
  const res = await fetch(suite.authorizationUrl(client, 'tasks', suite.pkce()), {
    redirect: 'manual',
  })
  const answer = {
    status: res.status,
    text: await res.text(),
    ms: performance.now() - started,
    fetched: documents.requests.length > before,
    location: res.headers.get('location'),
  }
  expect(await suite.holdings(), 'nothing stored').toEqual(holdings)
  return answer
}

function expectRefused(answer: Awaited<ReturnType<typeof tryAuthorize>>, what: string) {
  expect(answer.status, what).toBe(400)
  expect(answer.text, what).toMatch(REFUSAL_PAGE)
  expect(answer.location, what).toBeNull()
  expect(answer.fetched, `${what} was fetched`).toBe(false)
}

describe('SSRF-safe fetching of client metadata documents', () => {
  describe('in production (no loopback documents)', () => {
    const suite = connectorForSuite()

    it('a document on loopback is refused, never fetched', async () => {
      for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]']) {
        expectRefused(await tryAuthorize(suite, documentClient(host)), host)
      }
    })

    it.skipIf(!PRIVATE)('a document on a private address is refused, never fetched', async () => {
      expectRefused(await tryAuthorize(suite, documentClient(urlHost(PRIVATE!))), PRIVATE!)
    })

    it('an http client id is not a document URL, and is never fetched', async () => {
      const answer = await tryAuthorize(suite, {
        ...documentClient('127.0.0.1'),
        client_id: `http://127.0.0.1:${documents.port}/client.json`,
      })
      expectRefused(answer, 'http')
    })
  })

  describe('with DEV_ALLOW_LOOPBACK_CLIENT_METADATA (development)', () => {
    const suite = connectorForSuite({
      connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
    })

    it.skipIf(!PRIVATE)('a document on a private address is still refused', async () => {
      expectRefused(await tryAuthorize(suite, documentClient(urlHost(PRIVATE!))), PRIVATE!)
    })

    it('a document behind an IPv4-mapped loopback address is refused', async () => {
      const answer = await tryAuthorize(suite, documentClient('[::ffff:127.0.0.1]'))
      expect(answer.status).toBe(400)
      expect(answer.location).toBeNull()
      expect(answer.fetched).toBe(false)
    })
  })
})

describe('one fetch per document per request, and a memory of refusals', () => {
  // The documents are on loopback, which the development switch lets through: what these tests
  // look at is how often, and for how long, the connector fetches a document.
  const suite = connectorForSuite({
    connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
  })

  function expectInvalidClient(answer: Awaited<ReturnType<typeof tryAuthorize>>, what: string) {
    expect(answer.status, what).toBe(400)
    expect(answer.text, what).toMatch(REFUSAL_PAGE)
    expect(answer.location, what).toBeNull()
  }

  it('a slow document holds a request for one deadline (2.5 s) and one fetch, then is not fetched for a minute', async () => {
    const path = '/slow/client.json'
    const first = await tryAuthorize(suite, documentClient('127.0.0.1', path))
    expectInvalidClient(first, 'first request')
    expect(documents.fetchesOf(path), 'outbound fetches for one request').toBe(1)
    // Refused, not accepted after 10 s: the deadline cut the fetch off, once it had waited.
    expect(first.ms).toBeGreaterThan(2_400)

    // Refused from memory: nothing fetched, so nothing waited for.
    const second = await tryAuthorize(suite, documentClient('127.0.0.1', path))
    expectInvalidClient(second, 'second request')
    expect(second.fetched, 'fetched again within the minute').toBe(false)
  })

  it('a document that is not valid is fetched once per request, then not for a minute', async () => {
    const path = '/invalid/client.json'
    const first = await tryAuthorize(suite, documentClient('127.0.0.1', path))
    expect(first.status).toBe(400)
    expect(first.location).toBeNull()
    expect(documents.fetchesOf(path), 'outbound fetches for one request').toBe(1)

    const second = await tryAuthorize(suite, documentClient('127.0.0.1', path))
    expectInvalidClient(second, 'second request')
    expect(second.fetched, 'fetched again within the minute').toBe(false)
  })

  it('a valid document is fetched once and the person is sent to the consent page', async () => {
    const path = '/valid/client.json'
    const client = documentClient('127.0.0.1', path)
    for (const attempt of ['first', 'second']) {
      const res = await fetch(suite.authorizationUrl(client, 'tasks', suite.pkce()), {
        redirect: 'manual',
      })
      expect(res.status, attempt).toBe(303)
      expect(res.headers.get('location'), attempt).toMatch(/\/consent\//)
    }
    // oidc-provider keeps an accepted document for its cache time (30 s at least).
    expect(documents.fetchesOf(path)).toBe(1)
  })
})

const key = await hostSigningKey()

describe("a client's signing keys (jwks_uri) are fetched under the same guard", () => {
  /** A token request authenticated by an assertion of `clientId`: its keys must be fetched. */
  async function tokenRequest(suite: ConnectorHarness, clientId: string) {
    const before = documents.fetchesOf('/keys.json')
    const res = await suite.request('POST', '/oauth/token', {
      form: {
        grant_type: 'authorization_code',
        code: 'no-such-code',
        redirect_uri: 'http://127.0.0.1:45123/callback',
        code_verifier: 'v'.repeat(43),
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: await signedAssertion(key, { clientId, issuer: suite.url }),
      },
    })
    return { ...res, fetched: documents.fetchesOf('/keys.json') > before }
  }

  describe('in production', () => {
    const suite = connectorForSuite()
    const signing = (jwksUri: string) =>
      suite.registerClient({ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri })

    it('a registration with keys at an http URL is refused', async () => {
      const res = await suite.request('POST', '/oauth/register', {
        json: {
          redirect_uris: ['http://127.0.0.1:45123/callback'],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: `http://127.0.0.1:${documents.port}/keys.json`,
        },
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: 'jwks_uri must be an https URL',
      })
    })

    it('keys on loopback are never fetched: the client is refused', async () => {
      for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
        const client = await signing(`https://${host}:${documents.port}/keys.json`)
        const res = await tokenRequest(suite, client.client_id)
        expect(res.status, host).toBe(401)
        expect(res.body.error, host).toBe('invalid_client')
        expect(res.fetched, `${host} was fetched`).toBe(false)
      }
    })

    it.skipIf(!PRIVATE)('keys on a private address are never fetched', async () => {
      const client = await signing(`https://${urlHost(PRIVATE!)}:${documents.port}/keys.json`)
      const res = await tokenRequest(suite, client.client_id)
      expect(res.status).toBe(401)
      expect(res.fetched).toBe(false)
    })
  })

  describe('with DEV_ALLOW_LOOPBACK_CLIENT_METADATA', () => {
    const suite = connectorForSuite({
      connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
    })

    it.skipIf(!PRIVATE)("a document's keys on a private address are never fetched", async () => {
      const res = await tokenRequest(suite, documents.url('127.0.0.1', '/signing/client.json'))
      expect(res.status).toBe(401)
      expect(res.body.error).toBe('invalid_client')
      expect(res.fetched).toBe(false)
    })
  })
})
