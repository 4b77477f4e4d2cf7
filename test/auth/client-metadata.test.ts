import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectorForSuite, type Client, type ConnectorHarness } from '../support/connector.js'

/**
 * Client ID metadata documents: a client names itself by an https URL, and the connector fetches
 * its metadata there. Fetching is SSRF-safe (oidc-provider's protection): loopback, private and
 * other special-use addresses are refused, unless DEV_ALLOW_LOOPBACK_CLIENT_METADATA lets a local
 * MCP client serve its document on loopback (and then only loopback).
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

// A development certificate made for this run, like a local MCP client would have.
const scratch = mkdtempSync(join(tmpdir(), 'countersign-cimd-'))
const alternativeNames = ['IP:127.0.0.1', 'DNS:localhost', ...(PRIVATE ? [`IP:${PRIVATE}`] : [])]
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    join(scratch, 'key.pem'),
    '-out',
    join(scratch, 'cert.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=countersign test client',
    '-addext',
    `subjectAltName=${alternativeNames.join(',')}`,
  ],
  { stdio: 'ignore' },
)
const cert = readFileSync(join(scratch, 'cert.pem'), 'utf8')
const key = readFileSync(join(scratch, 'key.pem'), 'utf8')

/** The client's own https server: serves a metadata document for whatever URL it is asked at. */
let documents: Server
let port = 0
const requests: string[] = []
beforeAll(async () => {
  documents = createServer({ cert, key }, (req, res) => {
    const host = req.headers.host!
    requests.push(host)
    const clientId = `https://${host}${req.url}`
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        client_id: clientId,
        client_name: 'Local Test Assistant',
        redirect_uris: ['http://127.0.0.1:45123/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    )
  })
  await new Promise<void>((resolve) => documents.listen(0, '::', resolve))
  port = (documents.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => documents.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

const documentClient = (host: string, path = '/client.json'): Client => ({
  client_id: `https://${host}:${port}${path}`,
  redirect_uri: 'http://127.0.0.1:45123/callback',
  registration: {},
})

/** The authorization endpoint's first answer for a client named by a document URL. */
async function tryAuthorize(suite: ConnectorHarness, client: Client) {
  const before = requests.length
  const res = await fetch(suite.authorizationUrl(client, 'tasks', suite.pkce()), {
    redirect: 'manual',
  })
  return {
    status: res.status,
    text: await res.text(),
    fetched: requests.length > before,
    location: res.headers.get('location'),
  }
}

describe('with DEV_ALLOW_LOOPBACK_CLIENT_METADATA', () => {
  const suite = connectorForSuite({
    connector: { allowLoopbackClientMetadata: true, extraCa: cert },
  })

  it('a client whose document is on a loopback https server connects', async () => {
    const client = documentClient('127.0.0.1')
    const person = suite.person('cimd-user')
    const { tokens } = await suite.connect({ client, person })
    expect(person.seen).toEqual(['consent', 'provider'])
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

  it.skipIf(!PRIVATE)('a document on a private address is still refused', async () => {
    const answer = await tryAuthorize(suite, documentClient(urlHost(PRIVATE!)))
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('invalid_client')
    expect(answer.fetched).toBe(false)
  })

  it('a document behind an IPv4-mapped loopback address is refused', async () => {
    const answer = await tryAuthorize(suite, documentClient('[::ffff:127.0.0.1]'))
    expect(answer.status).toBe(400)
    expect(answer.fetched).toBe(false)
  })
})

describe('without it (production)', () => {
  const suite = connectorForSuite()

  it('a document on loopback is refused, never fetched', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const answer = await tryAuthorize(suite, documentClient(host))
      expect(answer.status, host).toBe(400)
      expect(answer.text).toContain('invalid_client')
      expect(answer.fetched).toBe(false)
    }
  })

  it.skipIf(!PRIVATE)('a document on a private address is refused, never fetched', async () => {
    const answer = await tryAuthorize(suite, documentClient(urlHost(PRIVATE!)))
    expect(answer.status).toBe(400)
    expect(answer.fetched).toBe(false)
  })

  it('an http client id is not a document URL', async () => {
    const answer = await tryAuthorize(suite, {
      ...documentClient('127.0.0.1'),
      client_id: `http://127.0.0.1:${port}/client.json`,
    })
    expect(answer.status).toBe(400)
    expect(answer.fetched).toBe(false)
  })
})
