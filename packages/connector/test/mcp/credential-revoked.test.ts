import { McpServer } from '@modelcontextprotocol/server'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { mcpRoutes } from '../../src/mcp/endpoint.js'
import { GrantRevokedError, type RequestGrant } from '../../src/mcp/grant-access.js'
import { connectorForSuite, type Person } from '../support/connector.js'
import { assistantV2 } from './approval-clients.js'

/**
 * Disconnect from the provider's side (docs/design.md, "Disconnecting"): the person revokes the app
 * on the provider's connections page; the next time the connector needs the credential, the
 * provider refuses it, and the connector ends every grant that used it and tells the client to
 * reconnect. Under the Google profile, a connection a week old or more that Google will not renew
 * most likely ran out in Testing mode: the host and the operator are told so, and what ends it.
 */

const lines: string[] = []
const suite = connectorForSuite({
  options: { log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) },
})

/** The person takes the connector's access back on the sandbox's connections page. */
async function revokeAtProvider(person: Person) {
  const res = await person.fetch('POST', `${suite.sandbox.url}/account/connections/revoke`, {
    client: 'countersign',
    Revoke: 'Revoke',
  })
  expect(res.status).toBe(303)
}

/** What a tool does: call the provider, and after a 401 try once more with a fresh token. */
async function callProvider(grant: RequestGrant) {
  const token = await grant.upstreamAccessToken()
  const lists = (t: string) => suite.sandboxRequest('GET', '/tasks/v1/lists', { token: t })
  const first = await lists(token)
  if (first.status !== 401) return first.status
  return (await lists(await grant.upstreamTokenAfterUnauthorized(token))).status
}

const authenticate = async (token: string) => {
  const request = new Request(`${suite.url}/tasks/mcp`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const auth = await suite.connector.parts.authenticator.authenticate(request, 'tasks')
  if (!auth.ok) throw new Error(`not authenticated: ${auth.response.status}`)
  return auth.grant
}

const DAY_MS = 24 * 60 * 60_000

/** The person's credential, as if they had connected `days` ago. */
const madeDaysAgo = (subject: string, days: number) =>
  suite.store.db
    .updateTable('upstream_credentials')
    .set({ created_at: Date.now() - days * DAY_MS - 60_000 })
    .where('subject', '=', subject)
    .execute()

/** What the host reads when the connection's renewal is refused: a 401, in the SDK's error. */
async function refusedAfter(user: string, days: number) {
  const person = suite.person(user)
  const { tokens } = await suite.connect({ person, service: 'tasks' })
  const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
  await madeDaysAgo(user, days)
  // Google answers a renewal the same invalid_grant whether the person revoked it or it ran out.
  await revokeAtProvider(person)
  const logged = lines.length
  const error = await assistant.call('list_task_lists', {}).catch((e: unknown) => e)
  await assistant.close()
  expect(error).toBeInstanceOf(Error)
  const line = lines
    .slice(logged)
    .map((l) => JSON.parse(l))
    .find((l) => l.component === 'upstream' && /invalid_grant|revoked/.test(l.msg))
  return { host: (error as Error).message, line }
}

const TESTING_MODE =
  "Google ended the connection to Tasks, most likely because the connector's app is in Testing mode in Google Auth Platform, where Google ends each connection 7 days after it was made: connect the service again. The connector's operator can stop this by publishing the app (Google Auth Platform > Audience > Publish app)."
const REVOKED = 'The connection to Tasks was revoked at the provider: connect the service again.'

describe('a connection the provider will not renew, made a week ago or more', () => {
  it('under Google: the host is told it most likely ran out in Testing mode, and the operator how to stop it', async () => {
    const { host, line } = await refusedAfter('tester-8-days', 8)
    if (suite.profile === 'google') {
      expect(host).toContain('"error":"invalid_token"')
      expect(host).toContain(TESTING_MODE)
      expect(line).toMatchObject({ level: 40, ageDays: 8 })
      expect(line.msg).toBe(
        'Google refused to renew a connection made 7 days ago or more (invalid_grant), most likely because the app is in Testing mode in Google Auth Platform, which ends each connection 7 days after it was made; the credential is erased and the person must connect again. To stop this, publish the app: Google Auth Platform → Audience → Publish app',
      )
    } else {
      // The generic provider has no Testing mode: it was revoked, as far as anyone can tell.
      expect(host).toContain(REVOKED)
      expect(host).not.toContain('Testing mode')
      expect(line).toMatchObject({
        level: 30,
        msg: 'upstream credential revoked at the provider: erased',
      })
    }
  })

  it('under 7 days: revoked, in today’s words, under either profile', async () => {
    const { host, line } = await refusedAfter('tester-6-days', 6)
    expect(host).toContain(REVOKED)
    expect(host).not.toContain('Testing mode')
    expect(line).toMatchObject({
      level: 30,
      msg: 'upstream credential revoked at the provider: erased',
    })
  })
})

describe('a credential revoked at the provider', () => {
  it('ends every grant that used it, erases it, and the token stops working', async () => {
    const person = suite.person('revoker')
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const grant = await authenticate(tokens.access_token)
    expect(await callProvider(grant)).toBe(200)

    await revokeAtProvider(person)

    const again = await authenticate(tokens.access_token)
    const error = await callProvider(again).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GrantRevokedError)
    expect((error as Error).message).toMatch(/connect the service again/)
    expect(again.end).toEqual({ kind: 'revoked', error })

    const ping = await suite.mcp('tasks', tokens.access_token)
    expect(ping.status).toBe(401)
    expect(ping.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
    const { store } = suite.connector.parts
    expect(
      await store.db
        .selectFrom('grant_links')
        .selectAll()
        .where('account', '=', 'revoker')
        .execute(),
    ).toEqual([])
    expect(
      await store.db
        .selectFrom('upstream_credentials')
        .selectAll()
        .where('subject', '=', 'revoker')
        .execute(),
    ).toEqual([])
  })

  it('answers the request that found out with 401 invalid_token and a message to reconnect', async () => {
    const person = suite.person('mid-call')
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    // A tool the way the tool layer will write one: it reaches the grant through authInfo.
    const probe = () => {
      const server = new McpServer({ name: 'probe', version: '1' })
      server.registerTool('probe', { inputSchema: z.object({}) }, async (_args, ctx) => {
        const grant = ctx.http?.authInfo?.extra?.grant as RequestGrant
        const status = await callProvider(grant)
        return { content: [{ type: 'text', text: String(status) }] }
      })
      return server
    }
    const app = mcpRoutes(suite.connector.parts, { serverFor: probe })
    const call = () =>
      app.request(`${suite.url}/tasks/mcp`, {
        method: 'POST',
        headers: {
          host: new URL(suite.url).host,
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'probe', arguments: {} },
        }),
      })
    const before = await call()
    expect(before.status).toBe(200)
    expect(await before.text()).toContain('"text":"200"')

    await revokeAtProvider(person)
    const after = await call()
    expect(after.status).toBe(401)
    const challenge = after.headers.get('www-authenticate')!
    expect(challenge).toMatch(/^Bearer error="invalid_token"/)
    expect(challenge).toMatch(/connect the service again/)
    expect((await after.json()).error_description).toMatch(/revoked at the provider/)
  })

  it('ends only the grants of that person', async () => {
    const revoking = suite.person('leaves')
    const staying = suite.person('stays')
    const client = await suite.registerClient()
    const gone = await suite.connect({ person: revoking, client })
    const kept = await suite.connect({ person: staying, client })
    await revokeAtProvider(revoking)
    await callProvider(await authenticate(gone.tokens.access_token)).catch(() => undefined)
    expect((await suite.mcp('tasks', gone.tokens.access_token)).status).toBe(401)
    expect((await suite.mcp('tasks', kept.tokens.access_token)).status).toBe(200)
  })
})
