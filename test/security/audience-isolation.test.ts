import { describe, expect, it } from 'vitest'
import { connectorForSuite, firstAnswer, SERVICE_NAMES } from '@countersign/connector/testing'

/**
 * Audience isolation between the three services (docs/threat-model.md, "Audience isolation between
 * the three services"): a grant and its tokens are for one service's MCP endpoint (its resource
 * indicator) and work nowhere else; a token request cannot move a grant to another service, and an
 * authorization names exactly one of them.
 */

const suite = connectorForSuite()
const prmUrl = (service: string) =>
  `${suite.url}/.well-known/oauth-protected-resource/${service}/mcp`

describe('audience isolation between the three services', () => {
  it.each(SERVICE_NAMES)(
    'a token for %s works there and at no other service: 401 invalid_token',
    async (service) => {
      const { tokens } = await suite.connect({ service })
      for (const other of SERVICE_NAMES) {
        const res = await suite.mcp(other, tokens.access_token)
        if (other === service) {
          expect(res.status).toBe(200)
        } else {
          expect(res.status, `${service} token at ${other}`).toBe(401)
          expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
          expect(res.headers.get('www-authenticate')).toContain(prmUrl(other))
          expect(res.body.error).toBe('invalid_token')
        }
      }
    },
  )

  it('a refresh for another resource than the grant gets invalid_target, and no token', async () => {
    const { client, tokens } = await suite.connect({ service: 'tasks' })
    const before = await suite.holdings()
    const res = await suite.refresh(client, tokens.refresh_token, {
      resource: suite.resource('search'),
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_target')
    expect(res.body.access_token).toBeUndefined()
    expect((await suite.holdings()).AccessToken).toBe(before.AccessToken)
  })

  it('an authorization names exactly one of the three services, else invalid_target and no code', async () => {
    const client = await suite.registerClient()
    const before = await suite.holdings()
    for (const resource of [
      [suite.resource('tasks'), suite.resource('search')],
      `${suite.url}/other/mcp`,
      'https://elsewhere.example/tasks/mcp',
      `${suite.url}/tasks/mcp/`,
    ]) {
      const { location } = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), { resource }),
      )
      expect(location?.searchParams.get('error'), String(resource)).toBe('invalid_target')
      expect(location?.searchParams.has('code')).toBe(false)
    }
    expect(await suite.holdings()).toEqual(before)
  })
})
