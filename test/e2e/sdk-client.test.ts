import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import {
  AssistantOAuth,
  connectorForSuite,
  metadataDocumentsForSuite,
  recordingFetch,
  redirectReceiverForSuite,
  selfSignedCertificate,
} from '@countersign/connector/testing'

/**
 * The MCP SDK's own client (`@modelcontextprotocol/client`) against the connector, as a real
 * assistant runs it: it connects to /tasks/mcp with no token, and everything else follows from
 * the 401 - protected resource metadata, authorization server metadata, registration (dynamic, or
 * a client ID metadata document), PKCE, the resource indicator, the person's consent and sign-in
 * at the provider (a Person driven like a browser), the code back at its loopback redirect URI,
 * the token, a refresh when the access token expires, and revocation.
 */

const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const receiver = redirectReceiverForSuite()
const documents = metadataDocumentsForSuite(tls, () => ({
  client_name: 'SDK Document Assistant',
  redirect_uris: [receiver.uri],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
}))
const suite = connectorForSuite({
  connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
})

const newClient = () => new Client({ name: 'countersign-e2e', version: '1.0.0' })

/** The whole life of one assistant's connection, through the SDK; returns what it saw. */
async function runAssistant(user: string, clientMetadataUrl?: string) {
  const person = suite.person(user)
  const oauth = new AssistantOAuth(person, receiver.uri, clientMetadataUrl)
  const { fetch: sdkFetch, seen } = recordingFetch()
  const serverUrl = new URL(suite.resource('tasks'))
  const transport = () =>
    new StreamableHTTPClientTransport(serverUrl, { authProvider: oauth, fetch: sdkFetch })

  // 1. No token: the 401 starts discovery, registration and the authorization.
  const first = transport()
  const refused = await newClient()
    .connect(first)
    .catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(UnauthorizedError)
  expect(person.seen).toEqual(['consent', 'provider', 'choice'])
  const [authorizationUrl] = oauth.authorizationUrls
  expect(authorizationUrl!.origin + authorizationUrl!.pathname).toBe(`${suite.url}/oauth/authorize`)
  expect(Object.fromEntries(authorizationUrl!.searchParams)).toMatchObject({
    response_type: 'code',
    client_id: oauth.clientInformation()!.client_id,
    redirect_uri: receiver.uri,
    code_challenge_method: 'S256',
    resource: suite.resource('tasks'),
    scope: 'tasks.readonly tasks',
  })
  expect(authorizationUrl!.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)

  // 2. The browser landed on the redirect URI with a code and the issuer (RFC 9207).
  const landed = await receiver.next()
  expect(landed.searchParams.get('iss')).toBe(suite.url)
  expect(landed.searchParams.get('state')).toBe(oauth.states.at(-1))
  expect(landed.searchParams.get('code')).toBeTruthy()
  await first.finishAuth(landed.searchParams)
  const [issued] = oauth.savedTokens
  expect(issued).toMatchObject({
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'tasks.readonly tasks',
  })
  expect(issued!.refresh_token).toBeTruthy()

  // 3. Connected: ping works.
  const client = newClient()
  await client.connect(transport())
  await expect(client.ping()).resolves.toEqual({})

  // 4. The access token expires: the next request's 401 makes the SDK refresh, and retry.
  await suite.expireAccessToken(issued!.access_token)
  await expect(client.ping()).resolves.toEqual({})
  expect(oauth.savedTokens).toHaveLength(2)
  const refreshed = oauth.savedTokens[1]!
  expect(refreshed.access_token).not.toBe(issued!.access_token)
  expect(refreshed.refresh_token).toBeTruthy()
  expect(refreshed.refresh_token).not.toBe(issued!.refresh_token)

  // 5. The assistant revokes its token (RFC 7009): the grant ends, and the next request is 401.
  const metadata = oauth.discoveryState()!.authorizationServerMetadata as {
    revocation_endpoint?: string
  }
  expect(metadata.revocation_endpoint).toBe(`${suite.url}/oauth/revoke`)
  const revoked = await fetch(metadata.revocation_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: refreshed.access_token,
      token_type_hint: 'access_token',
      client_id: oauth.clientInformation()!.client_id,
    }),
  })
  expect(revoked.status).toBe(200)
  const raw = await suite.mcp('tasks', refreshed.access_token)
  expect(raw.status).toBe(401)
  expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
  // The SDK finds its refresh token dead too, and asks for a new authorization.
  oauth.interactive = false
  const after = await client.ping().catch((error: unknown) => error)
  expect(after).toBeInstanceOf(UnauthorizedError)
  expect(oauth.authorizationUrls).toHaveLength(2)
  const { link, credential } = await suite.upstreamOf(user)
  expect(link).toBeUndefined()
  expect(credential).toBeUndefined()
  await client.close()
  return { seen, oauth }
}

/** Whether `expected` appear in `seen` in this order (other requests may come between). */
function inOrder(seen: string[], expected: string[]) {
  let at = 0
  for (const entry of seen) if (entry === expected[at]) at += 1
  return at === expected.length ? true : { seen, missing: expected.slice(at) }
}

describe('the MCP SDK client, as a real assistant', () => {
  it('connects with dynamic client registration: discovery from the 401, PKCE, resource, consent, sign-in, token, refresh, revocation', async () => {
    const { seen, oauth } = await runAssistant('sdk-dcr')
    expect(
      inOrder(seen, [
        'POST /tasks/mcp 401',
        'GET /.well-known/oauth-protected-resource/tasks/mcp 200',
        'GET /.well-known/oauth-authorization-server 200',
        'POST /oauth/register 201',
        'POST /oauth/token 200',
        'POST /tasks/mcp 200',
        'POST /tasks/mcp 401',
        'POST /oauth/token 200',
        'POST /tasks/mcp 200',
        'POST /tasks/mcp 401',
        'POST /oauth/token 400',
      ]),
    ).toBe(true)
    expect(oauth.clientInformation()!.client_id).not.toMatch(/^https:/)
  })

  it('connects with a client ID metadata document served on loopback https', async () => {
    const documentUrl = documents.url('127.0.0.1', '/sdk-client.json')
    const before = documents.requests.length
    const { seen, oauth } = await runAssistant('sdk-cimd', documentUrl)
    expect(oauth.clientInformation()!.client_id).toBe(documentUrl)
    expect(seen.some((entry) => entry.startsWith('POST /oauth/register'))).toBe(false)
    expect(documents.requests.length).toBeGreaterThan(before)
    expect(
      inOrder(seen, [
        'POST /tasks/mcp 401',
        'GET /.well-known/oauth-protected-resource/tasks/mcp 200',
        'GET /.well-known/oauth-authorization-server 200',
        'POST /oauth/token 200',
        'POST /tasks/mcp 200',
      ]),
    ).toBe(true)
  })
})
