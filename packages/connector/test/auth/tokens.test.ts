import { describe, expect, it } from 'vitest'
import { connectorForSuite } from '../support/connector.js'

/**
 * Revocation (RFC 7009) and disconnect. (Single-use codes, refresh rotation, reuse detection and
 * no-store are in test/security/, each under its attack's name.)
 */

const suite = connectorForSuite()

const pings = (token: string, service: 'tasks' | 'search' = 'tasks') =>
  suite.mcp(service, token).then((res) => res.status)

describe('revocation (RFC 7009)', () => {
  it('of the access token ends the grant, revokes the upstream token and erases it', async () => {
    const person = suite.person('disconnecting')
    const { client, tokens } = await suite.connect({ person })
    const { tokens: upstream, link } = await suite.upstreamOf('disconnecting')
    expect(link?.service).toBe('tasks')
    const upstreamCall = () =>
      suite.sandboxRequest('GET', '/tasks/v1/lists', { token: upstream!.access_token })
    expect((await upstreamCall()).status).toBe(200)
    const connections = () =>
      person.fetch('GET', `${suite.sandbox.url}/account/connections`).then((res) => res.text())
    expect(await connections()).toContain('countersign')

    const res = await suite.revoke(client, tokens.access_token)
    expect(res.status).toBe(200)

    expect(await pings(tokens.access_token)).toBe(401)
    expect((await suite.refresh(client, tokens.refresh_token)).body.error).toBe('invalid_grant')
    expect((await upstreamCall()).status).toBe(401)
    expect(await connections()).toContain('No apps have access')
    const after = await suite.upstreamOf('disconnecting')
    expect(after.link).toBeUndefined()
    expect(after.credential).toBeUndefined()
  })

  it('of the refresh token ends the grant the same way', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('revoking-refresh') })
    const { tokens: upstream } = await suite.upstreamOf('revoking-refresh')
    expect((await suite.revoke(client, tokens.refresh_token, 'refresh_token')).status).toBe(200)
    expect(await pings(tokens.access_token)).toBe(401)
    const call = await suite.sandboxRequest('GET', '/tasks/v1/lists', {
      token: upstream!.access_token,
    })
    expect(call.status).toBe(401)
    expect((await suite.upstreamOf('revoking-refresh')).credential).toBeUndefined()
  })

  it('ends only that grant: the same person at another service stays connected', async () => {
    const person = suite.person('two-services')
    const client = await suite.registerClient()
    const tasks = await suite.connect({ person, client, service: 'tasks' })
    const search = await suite.connect({ person, client, service: 'search' })
    await suite.revoke(client, tasks.tokens.access_token)
    expect(await pings(tasks.tokens.access_token)).toBe(401)
    expect(await pings(search.tokens.access_token, 'search')).toBe(200)
  })

  it('answers 200 for an unknown token', async () => {
    const client = await suite.registerClient()
    expect((await suite.revoke(client, 'not-a-token')).status).toBe(200)
  })

  it("does not let a client revoke another client's token", async () => {
    const { tokens } = await suite.connect({ person: suite.person('not-yours') })
    const other = await suite.registerClient()
    expect((await suite.revoke(other, tokens.access_token)).status).toBe(200)
    expect(await pings(tokens.access_token)).toBe(200)
    const confidential = await suite.registerClient({
      token_endpoint_auth_method: 'client_secret_basic',
    })
    const refused = await suite.revoke(confidential, tokens.access_token)
    expect(refused.status).toBe(400)
    expect(await pings(tokens.access_token)).toBe(200)
  })
})
