import { describe, expect, it } from 'vitest'
import { connectorForSuite, csrfOf, heldDate, type Person } from '@countersign/connector/testing'

/**
 * An access token lives an hour, so that a client that never refreshes by itself keeps working
 * for a session; its lifetime is never what ends it early. Every MCP request reads the token,
 * its grant and its credential afresh, so a revocation or a disconnect holds from the next
 * request at any moment of that hour. The clock is Date, held still and moved by the test
 * (heldDate): nothing here waits.
 */

const suite = connectorForSuite()
const { later } = heldDate()

const MINUTE = 60_000
const HOUR = 60 * MINUTE

const pings = (token: string) => suite.mcp('tasks', token).then((res) => res.status)

async function disconnectOnPage(person: Person, grantId: string) {
  await person.signInToConnections()
  const page = await person.fetch('GET', `${suite.url}/connections`)
  const res = await person.fetch('POST', `${suite.url}/connections/disconnect`, {
    csrf: csrfOf(await page.text()),
    grant: grantId,
  })
  expect(res.status).toBe(303)
}

describe('access tokens that live an hour', () => {
  it('work past the old 10 minutes, to the last second of their hour; then invalid_token, and a refresh gets a new one', async () => {
    const { client, tokens } = await suite.connect()
    expect(tokens.expires_in).toBe(3600)

    later(11 * MINUTE)
    expect(await pings(tokens.access_token)).toBe(200)
    later(HOUR - 11 * MINUTE - 1_000)
    expect(await pings(tokens.access_token)).toBe(200)

    later(1_000)
    const expired = await suite.mcp('tasks', tokens.access_token)
    expect(expired.status).toBe(401)
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"')

    const refreshed = await suite.refresh(client, tokens.refresh_token)
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.expires_in).toBe(3600)
    expect(await pings(refreshed.body.access_token)).toBe(200)
  })

  it.each([0, 11, 59])(
    'revoked %i minutes after it was issued, it is refused at the very next request, and so is its refresh token',
    async (minutes) => {
      const { client, tokens } = await suite.connect()
      later(minutes * MINUTE)
      expect(await pings(tokens.access_token)).toBe(200)

      expect((await suite.revoke(client, tokens.access_token)).status).toBe(200)
      expect(await pings(tokens.access_token)).toBe(401)
      expect((await suite.refresh(client, tokens.refresh_token)).body.error).toBe('invalid_grant')
    },
  )

  it('disconnected on the connections page half an hour in, it is refused at the very next request', async () => {
    const person = suite.person('disconnected-mid-hour')
    const { tokens } = await suite.connect({ person })
    const { link } = await suite.upstreamOf('disconnected-mid-hour')
    later(30 * MINUTE)
    expect(await pings(tokens.access_token)).toBe(200)

    await disconnectOnPage(person, link!.grant_id)
    expect(await pings(tokens.access_token)).toBe(401)
  })
})
