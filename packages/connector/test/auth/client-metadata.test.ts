import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { selfSignedCertificate } from '../support/certificate.js'
import { connectorForSuite, type Client } from '../support/connector.js'
import { metadataDocumentsForSuite } from '../support/metadata-documents.js'
import { freePort } from '../support/processes.js'

/**
 * Client ID metadata documents: a client names itself by an https URL, and the connector fetches
 * its metadata there. With DEV_ALLOW_LOOPBACK_CLIENT_METADATA a local MCP client can serve its
 * document on loopback. (What may never be fetched is in test/security/client-metadata-ssrf.test.ts.)
 */

// A development certificate made for this run, like a local MCP client would have.
const tls = selfSignedCertificate(['IP:127.0.0.1', 'DNS:localhost'])
const documents = metadataDocumentsForSuite(tls, () => ({
  client_name: 'Local Test Assistant',
  redirect_uris: ['http://127.0.0.1/callback'],
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
    expect(html).toContain(`published by <strong>${new URL(client.client_id).host}</strong>`)
  })

  it('each authorization of a document client is a connection of its own: a second machine does not end the first', async () => {
    const client = documentClient('127.0.0.1', '/many-machines.json')
    const person = suite.person('cimd-two-machines')
    const laptop = await suite.connect({ client, person })
    const desktop = await suite.connect({
      client: { ...client, redirect_uri: 'http://127.0.0.1:45124/callback' },
      person,
    })
    expect((await suite.mcp('tasks', laptop.tokens.access_token)).status).toBe(200)
    expect((await suite.mcp('tasks', desktop.tokens.access_token)).status).toBe(200)
    const links = await suite.store.db
      .selectFrom('grant_links')
      .select('returns_to')
      .where('account', '=', 'cimd-two-machines')
      .orderBy('created_at')
      .execute()
    expect(links).toEqual([{ returns_to: '127.0.0.1:45123' }, { returns_to: '127.0.0.1:45124' }])
  })
})

// Nothing listens there: it was free a moment ago.
const closedPort = await freePort()

describe('a document that cannot be had', () => {
  const lines: string[] = []
  const troubled = metadataDocumentsForSuite(
    tls,
    (clientId) => ({
      client_name: 'Troubled Assistant',
      redirect_uris: [
        clientId.includes('/invalid/')
          ? 'http://evil.example/callback'
          : 'http://127.0.0.1:45123/callback',
      ],
      token_endpoint_auth_method: 'none',
    }),
    { statusAt: (path) => (path.startsWith('/down/') ? 503 : 200) },
  )
  const suite = connectorForSuite({
    connector: { allowLoopbackClientMetadata: true, extraCa: tls.cert },
    options: { log: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }) },
  })

  /** The page a person lands on from an app whose document is at `clientId`. */
  async function pageFor(clientId: string) {
    const client = {
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:45123/callback',
      registration: {},
    }
    const res = await fetch(suite.authorizationUrl(client, 'tasks', suite.pkce()), {
      redirect: 'manual',
    })
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }

  it.each([
    ['answers 503', () => troubled.url('localhost', '/down/client.json'), 'it answered 503'],
    ['is not listening', () => `https://localhost:${closedPort}/client.json`, 'ECONNREFUSED'],
  ])(
    'when its server %s, the page says so in words to act on, and the log names the host',
    async (_, url, reason) => {
      const clientId = url()
      const host = new URL(clientId).host
      for (const attempt of ['first', 'remembered']) {
        const page = await pageFor(clientId)
        expect(page.status, attempt).toBe(400)
        expect(page.location, attempt).toBeNull()
        expect(page.text, attempt).toContain('This server could not reach the app')
        expect(page.text, attempt).toContain(host)
        expect(page.text, attempt).toContain(reason)
        expect(page.text, attempt).toContain('outbound access')
        expect(page.text, attempt).not.toContain("tell the app's developer")
      }
      const logged = lines.map((line) => JSON.parse(line)).filter((entry) => entry.host === host)
      expect(logged).toHaveLength(1)
      expect(logged[0]).toMatchObject({ msg: 'could not fetch a client metadata document' })
      expect(logged[0].reason).toContain(reason)
      expect(JSON.stringify(logged[0])).not.toContain('client.json')
    },
  )

  it("a document that was had and is not acceptable is the app's developer's to mend", async () => {
    const page = await pageFor(troubled.url('localhost', '/invalid/client.json'))
    expect(page.status).toBe(400)
    expect(page.text).toContain('This request cannot be completed')
    expect(page.text).toContain("tell the app's developer")
  })
})
