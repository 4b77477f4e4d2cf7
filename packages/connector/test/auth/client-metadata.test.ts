import { describe, expect, it } from 'vitest'
import { selfSignedCertificate } from '../support/certificate.js'
import { connectorForSuite, type Client } from '../support/connector.js'
import { metadataDocumentsForSuite } from '../support/metadata-documents.js'

/**
 * Client ID metadata documents: a client names itself by an https URL, and the connector fetches
 * its metadata there. With DEV_ALLOW_LOOPBACK_CLIENT_METADATA a local MCP client can serve its
 * document on loopback. (What may never be fetched is in test/security/client-metadata-ssrf.test.ts.)
 */

// A development certificate made for this run, like a local MCP client would have.
const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const documents = metadataDocumentsForSuite(tls, () => ({
  client_name: 'Local Test Assistant',
  redirect_uris: ['http://127.0.0.1:45123/callback'],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
}))

const documentClient = (host: string, path?: string): Client => ({
  client_id: documents.url(host, path),
  redirect_uri: 'http://127.0.0.1:45123/callback',
  registration: {},
})

describe('with DEV_ALLOW_LOOPBACK_CLIENT_METADATA', () => {
  const suite = connectorForSuite({
    connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
  })

  it('a client whose document is on a loopback https server connects', async () => {
    const client = documentClient('127.0.0.1')
    const person = suite.person('cimd-user')
    const { tokens } = await suite.connect({ client, person })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    expect((await suite.mcp('tasks', tokens.access_token)).status).toBe(200)
  })

  it('the consent page names it from its document, also when it is on localhost', async () => {
    const client = documentClient('localhost', '/named.json')
    const person = suite.person('cimd-reader')
    const first = await person.fetch(
      'GET',
      suite.authorizationUrl(client, 'tasks', suite.pkce()).toString(),
    )
    expect(first.status).toBe(303)
    const page = await person.fetch(
      'GET',
      new URL(first.headers.get('location')!, suite.url).toString(),
    )
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Local Test Assistant')
    expect(html).toContain(client.client_id)
  })
})
