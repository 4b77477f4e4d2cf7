import { describe, expect, it } from 'vitest'
import { connectorForSuite } from '@countersign/connector/testing'

/**
 * Refresh rotation with reuse detection (docs/threat-model.md, "Refresh token rotation with reuse
 * detection"): every refresh returns a new refresh token and uses up the old one. Presenting a used
 * one again - a stolen copy, say - gets invalid_grant and ends the whole grant, with its upstream
 * credential revoked and erased. Two uses racing on two replicas are decided by the store: one
 * wins.
 */

const suite = connectorForSuite()

const pings = (token: string) => suite.mcp('tasks', token).then((res) => res.status)

describe('refresh rotation with reuse detection', () => {
  it('rotates the refresh token on every use', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('rotation') })
    const first = await suite.refresh(client, tokens.refresh_token)
    expect(first.status).toBe(200)
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token)
    const second = await suite.refresh(client, first.body.refresh_token)
    expect(second.status).toBe(200)
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token)
    expect(await pings(second.body.access_token)).toBe(200)
  })

  it('a reused refresh token gets invalid_grant, no token, and the whole grant dies, upstream too', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('reuse') })
    const rotated = await suite.refresh(client, tokens.refresh_token)
    expect(rotated.status).toBe(200)
    const { tokens: upstream } = await suite.upstreamOf('reuse')
    expect(upstream).toBeDefined()

    const reuse = await suite.refresh(client, tokens.refresh_token)
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')
    expect(reuse.body.access_token).toBeUndefined()

    expect(await pings(rotated.body.access_token)).toBe(401)
    expect((await suite.refresh(client, rotated.body.refresh_token)).body.error).toBe(
      'invalid_grant',
    )
    const { link, credential } = await suite.upstreamOf('reuse')
    expect(link).toBeUndefined()
    expect(credential).toBeUndefined()
    const upstreamCall = await suite.sandboxRequest('GET', '/tasks/v1/lists', {
      token: upstream!.access_token,
    })
    expect(upstreamCall.status).toBe(401)
  })

  it('of two concurrent uses of one refresh token, at most one gets through, and the grant ends', async () => {
    const { client, tokens } = await suite.connect({ person: suite.person('race') })
    const answers = await Promise.all([
      suite.refresh(client, tokens.refresh_token),
      suite.refresh(client, tokens.refresh_token),
    ])
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses[1]).toBe(400)
    expect(answers.find((a) => a.status === 400)!.body.error).toBe('invalid_grant')
    expect((await suite.upstreamOf('race')).link).toBeUndefined()
  })
})
