import { describe, expect, it } from 'vitest'
import { connectorForSuite } from '@countersign/connector/testing'

/**
 * Single-use codes, a replay revokes (docs/threat-model.md, "Single-use codes; a replay revokes"):
 * an authorization code is exchanged once. A second exchange - a replay, or a race with the first -
 * gets invalid_grant and no token, and it ends the grant: the tokens of the first exchange die, and
 * the upstream credential is revoked at the provider and erased.
 */

const suite = connectorForSuite()

const pings = (token: string) => suite.mcp('tasks', token).then((res) => res.status)
const upstreamWorks = async (token: string) =>
  (await suite.sandboxRequest('GET', '/tasks/v1/lists', { token })).status === 200

describe('single-use codes (replay revokes)', () => {
  it('a replayed code gets invalid_grant, and the tokens of its first use die, upstream too', async () => {
    const { client, pkce, code, tokens } = await suite.connect({ person: suite.person('replay') })
    expect(await pings(tokens.access_token)).toBe(200)
    const { tokens: upstream } = await suite.upstreamOf('replay')
    expect(await upstreamWorks(upstream!.access_token)).toBe(true)

    const replay = await suite.exchangeCode(client, code, pkce)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    expect(replay.body.access_token).toBeUndefined()

    expect(await pings(tokens.access_token)).toBe(401)
    const refresh = await suite.refresh(client, tokens.refresh_token)
    expect(refresh.status).toBe(400)
    expect(refresh.body.error).toBe('invalid_grant')
    const { link, credential } = await suite.upstreamOf('replay')
    expect(link).toBeUndefined()
    expect(credential).toBeUndefined()
    expect(await upstreamWorks(upstream!.access_token)).toBe(false)
  })

  it('of two exchanges racing with one code, one gets tokens, the other invalid_grant, and the grant ends', async () => {
    const client = await suite.registerClient()
    const pkce = suite.pkce()
    const returned = await suite
      .person('code-race')
      .authorize(suite.authorizationUrl(client, 'tasks', pkce))
    const code = returned.searchParams.get('code')!
    const answers = await Promise.all([
      suite.exchangeCode(client, code, pkce),
      suite.exchangeCode(client, code, pkce),
    ])
    const won = answers.filter((answer) => answer.status === 200)
    const lost = answers.filter((answer) => answer.status !== 200)
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    expect(lost[0]!.status).toBe(400)
    expect(lost[0]!.body.error).toBe('invalid_grant')
    expect(await pings(won[0]!.body.access_token)).toBe(401)
    expect((await suite.upstreamOf('code-race')).link).toBeUndefined()
  })
})
