import { describe, expect, it } from 'vitest'
import {
  connectorForSuite,
  documentPath,
  HOSTS,
  HostSignIn,
  hostSigningKey,
  jwksPath,
  mcpClientWithToken,
  metadataDocumentsForSuite,
  publishedDocument,
  selfSignedCertificate,
  type HostWorld,
} from '@countersign/connector/testing'

/**
 * Every host of docs/hosts.md signs in as it really does: its client metadata document as it
 * publishes it (served from a loopback https origin, DEV_ALLOW_LOOPBACK_CLIENT_METADATA) or its
 * dynamic registration as it sends it; its own redirect (a loopback listener on a port it picked,
 * against a document that names no port; or its cloud's https callback); its token endpoint
 * authentication (none, or ChatGPT's RS256 client assertions); its refresh (Codex's without
 * `resource`, Claude Code's after asking for `offline_access`); then `tools/list` and a tool call
 * with the token, through the MCP SDK's client.
 */

const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const signingKey = await hostSigningKey()
const byPath = new Map(HOSTS.map((host) => [documentPath(host), host]))
const byKeysPath = new Map(HOSTS.map((host) => [jwksPath(host), host]))

const world: HostWorld = {
  resource: (service) => suite.resource(service),
  documentUrl: (path) => documents.url('localhost', path),
  signingKey,
}
const documents = metadataDocumentsForSuite(
  tls,
  (clientId) => publishedDocument(byPath.get(new URL(clientId).pathname)!, world) ?? {},
  { fileAt: (path) => (byKeysPath.has(path) ? { keys: [signingKey.jwk] } : undefined) },
)
const suite = connectorForSuite({
  connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
})

describe.each(HOSTS)('$name', (host) => {
  it('signs in, refreshes and calls a tool as it really does', async () => {
    const signIn = new HostSignIn(host, world)
    const person = suite.person(`host-${documentPath(host).split('/')[1]}`)

    const { challenge } = await signIn.discover()
    expect(challenge).toMatch(/^Bearer /)
    // What the hosts read before they choose how to identify themselves.
    expect(signIn.as.issuer).toBe(suite.url)
    expect(signIn.as.authorization_response_iss_parameter_supported).toBe(true)
    expect(signIn.as.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['none', 'private_key_jwt']),
    )
    if (host.document) expect(signIn.as.client_id_metadata_document_supported).toBe(true)
    if (host.tokenAuth === 'private_key_jwt') {
      expect(signIn.as.token_endpoint_auth_signing_alg_values_supported).toContain('RS256')
    }

    await signIn.identify()
    const issued = await signIn.authorize(person)
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    // The code went to the redirect the host sent, port and all, with the issuer beside it.
    expect(signIn.landed.origin + signIn.landed.pathname).toBe(signIn.redirectUri)
    expect(signIn.landed.searchParams.get('iss')).toBe(suite.url)
    expect(issued.token_type.toLowerCase()).toBe('bearer')
    expect(issued.scope).toBe('tasks.readonly tasks')
    expect(issued.refresh_token).toBeTruthy()

    const refreshed = await signIn.refresh()
    // A host's keys are fetched once for its code and its refresh.
    if (host.tokenAuth === 'private_key_jwt') expect(documents.fetchesOf(jwksPath(host))).toBe(1)
    expect(refreshed.access_token).not.toBe(issued.access_token)
    expect(refreshed.refresh_token).not.toBe(issued.refresh_token)
    expect(refreshed.scope).toBe('tasks.readonly tasks')

    // The refreshed token is for the grant's one service, and works there.
    const { client } = await mcpClientWithToken(
      suite.resource('tasks'),
      refreshed.access_token,
      '2026-07-28',
    )
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain('list_task_lists')
    const result = await client.callTool({ name: 'list_task_lists', arguments: {} })
    expect(result.isError ?? false).toBe(false)
    expect(JSON.stringify(result.structuredContent)).toContain('My Tasks')
    await client.close()
    expect((await suite.mcp('search', refreshed.access_token)).status).toBe(401)
  })
})
