import { describe, expect, it } from 'vitest'
import { parseTokenSet } from '../../src/upstream/token-set.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import { connectorForSuite, type ConnectorHarness } from '../support/connector.js'

/** The token endpoint and revocation: single use, rotation, reuse detection, disconnect. */

const suite = connectorForSuite()

/** The grant's link and its upstream credential, opened (undefined once erased). */
async function upstreamOf(harness: ConnectorHarness, account: string) {
  const { store, vault } = harness.connector.parts
  const link = await store.db
    .selectFrom('grant_links')
    .selectAll()
    .where('account', '=', account)
    .executeTakeFirst()
  const credentialId =
    link?.credential_id ??
    (
      await store.db
        .selectFrom('upstream_credentials')
        .select('id')
        .where('subject', '=', account)
        .executeTakeFirst()
    )?.id
  const credential = credentialId
    ? await new UpstreamCredentials(store, vault).get(credentialId)
    : undefined
  return { link, credential, tokens: credential && parseTokenSet(credential.secret) }
}

const pings = (token: string, service: 'tasks' | 'search' = 'tasks') =>
  suite.mcp(service, token).then((res) => res.status)

describe('the token endpoint', () => {
  it('answers with no-store, a bearer token for 10 minutes and a refresh token', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const returned = await suite
      .person('no-store')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const res = await suite.exchangeCode(client, returned.searchParams.get('code')!, pkce)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 })
    expect(res.body.refresh_token).toBeTruthy()

    const refreshed = await suite.refresh(client, res.body.refresh_token)
    expect(refreshed.status).toBe(200)
    expect(refreshed.headers.get('cache-control')).toBe('no-store')
  })

  it('takes a code once: a replay gets invalid_grant and the tokens of the first use die', async () => {
    const { client, pkce, code, tokens } = await suite.connect({ person: suite.person('replay') })
    expect(await pings(tokens.access_token)).toBe(200)

    const replay = await suite.exchangeCode(client, code, pkce)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')

    expect(await pings(tokens.access_token)).toBe(401)
    const refresh = await suite.refresh(client, tokens.refresh_token)
    expect(refresh.body.error).toBe('invalid_grant')
    const { link, credential } = await upstreamOf(suite, 'replay')
    expect(link).toBeUndefined()
    expect(credential).toBeUndefined()
  })

  it('rotates the refresh token on every use', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('rotation') })
    const first = await suite.refresh(client, tokens.refresh_token)
    expect(first.status).toBe(200)
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token)
    const second = await suite.refresh(client, first.body.refresh_token)
    expect(second.status).toBe(200)
    expect(await pings(second.body.access_token)).toBe(200)
  })

  it('detects refresh token reuse: the old one gets invalid_grant and the whole grant dies', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('reuse') })
    const rotated = await suite.refresh(client, tokens.refresh_token)
    expect(rotated.status).toBe(200)
    const { credential: before } = await upstreamOf(suite, 'reuse')
    expect(before).toBeDefined()

    const reuse = await suite.refresh(client, tokens.refresh_token)
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')

    expect(await pings(rotated.body.access_token)).toBe(401)
    expect((await suite.refresh(client, rotated.body.refresh_token)).body.error).toBe(
      'invalid_grant',
    )
    const { link, credential } = await upstreamOf(suite, 'reuse')
    expect(link).toBeUndefined()
    expect(credential).toBeUndefined()
  })

  it('lets one of two concurrent uses of a refresh token through, and ends the grant', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('race') })
    const answers = await Promise.all([
      suite.refresh(client, tokens.refresh_token),
      suite.refresh(client, tokens.refresh_token),
    ])
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses[1]).toBe(400)
    expect((await upstreamOf(suite, 'race')).link).toBeUndefined()
  })

  it('refuses a code or refresh token of another client', async () => {
    const { tokens, pkce, code } = await suite.connect({ person: suite.person('thief') })
    const other = await suite.registerClient()
    expect((await suite.refresh(other, tokens.refresh_token)).body.error).toBe('invalid_grant')
    expect((await suite.exchangeCode(other, code, pkce)).body.error).toBe('invalid_grant')
  })
})

describe('revocation (RFC 7009)', () => {
  it('of the access token ends the grant, revokes the upstream token and erases it', async () => {
    const person = suite.person('disconnecting')
    const { client, tokens } = await suite.connect({ person })
    const { tokens: upstream, link } = await upstreamOf(suite, 'disconnecting')
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
    const after = await upstreamOf(suite, 'disconnecting')
    expect(after.link).toBeUndefined()
    expect(after.credential).toBeUndefined()
  })

  it('of the refresh token ends the grant the same way', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('revoking-refresh') })
    const { tokens: upstream } = await upstreamOf(suite, 'revoking-refresh')
    expect((await suite.revoke(client, tokens.refresh_token, 'refresh_token')).status).toBe(200)
    expect(await pings(tokens.access_token)).toBe(401)
    const call = await suite.sandboxRequest('GET', '/tasks/v1/lists', {
      token: upstream!.access_token,
    })
    expect(call.status).toBe(401)
    expect((await upstreamOf(suite, 'revoking-refresh')).credential).toBeUndefined()
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
