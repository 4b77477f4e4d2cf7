import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { parseTokenSet } from '../../src/upstream/token-set.js'
import { UpstreamCredentials } from '../../src/vault/credentials.js'
import { connectorForSuite } from '../support/connector.js'

/**
 * What a copy of the database gives away (DESIGN §7 "hashed tokens and encrypted upstream
 * credentials at rest"): after real authorizations, no token, code, secret or session cookie
 * appears in any table, in any form but a digest or a sealed envelope.
 */

const suite = connectorForSuite()

async function dumpAllTables(): Promise<string> {
  const { store } = suite.connector.parts
  const tables = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
  `.execute(store.db)
  const dumps: string[] = []
  for (const { name } of tables.rows) {
    const rows = await sql`SELECT * FROM ${sql.table(name)}`.execute(store.db)
    dumps.push(`${name}: ${JSON.stringify(rows.rows)}`)
  }
  return dumps.join('\n')
}

describe('the store', () => {
  it('holds no token, code, client secret or cookie in the clear', async () => {
    const person = suite.person('at-rest')
    const client = await suite.registerClient({ token_endpoint_auth_method: 'client_secret_basic' })
    const { tokens, code } = await suite.connect({ person, client })
    const refreshed = await suite.refresh(client, tokens.refresh_token)
    expect(refreshed.status).toBe(200)

    const { store, vault } = suite.connector.parts
    const link = await store.db.selectFrom('grant_links').selectAll().executeTakeFirstOrThrow()
    const credential = await new UpstreamCredentials(store, vault).get(link.credential_id)
    const upstream = parseTokenSet(credential!.secret)
    const connectorCookies = person.cookies.header(new URL(`${suite.url}/oauth/authorize/x`))

    const secrets: Record<string, string> = {
      'access token': tokens.access_token,
      'refresh token': tokens.refresh_token,
      'rotated access token': refreshed.body.access_token,
      'rotated refresh token': refreshed.body.refresh_token,
      code,
      'client secret': client.client_secret!,
      'registration access token': client.registration.registration_access_token,
      'upstream access token': upstream.access_token,
      'upstream refresh token': upstream.refresh_token!,
    }
    for (const pair of connectorCookies.split('; ').filter(Boolean)) {
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value.length >= 16) secrets[`cookie ${pair.slice(0, pair.indexOf('='))}`] = value
    }
    expect(Object.keys(secrets)).toContain('cookie _session')

    const dump = await dumpAllTables()
    expect(dump).toContain('oauth_records')
    for (const [what, value] of Object.entries(secrets)) {
      expect(value, what).toBeTruthy()
      expect(dump.includes(value), `${what} found in the store`).toBe(false)
    }
  })
})
