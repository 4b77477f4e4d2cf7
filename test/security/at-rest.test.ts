import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  connectorForSuite,
  credentialBinding,
  digest,
  dumpStore,
  SealedValueError,
  UpstreamCredentials,
} from '@countersign/connector/testing'

/**
 * Hashed tokens and encrypted upstream credentials at rest (docs/threat-model.md, "Hashed tokens
 * and encrypted upstream credentials at rest"): what a copy of the database gives away. Tokens,
 * codes, client secrets and session cookies are kept as SHA-256 digests only; the upstream
 * credential is a vault envelope bound to its row. After real authorizations no such value appears
 * in any table in the clear.
 */

const suite = connectorForSuite()

describe('hashed tokens and encrypted upstream credentials at rest', () => {
  it('holds no token, code, client secret or cookie in the clear', async () => {
    const person = suite.person('at-rest')
    const client = await suite.registerClient({ token_endpoint_auth_method: 'client_secret_basic' })
    const { tokens, code } = await suite.connect({ person, client })
    const refreshed = await suite.refresh(client, tokens.refresh_token)
    expect(refreshed.status).toBe(200)
    await person.signInToConnections()

    const { tokens: upstream } = await suite.upstreamOf('at-rest')
    const connectorCookies = person.cookies.header(new URL(`${suite.url}/oauth/authorize/x`))
    const connectionsCookies = person.cookies.header(new URL(`${suite.url}/connections`))

    const secrets: Record<string, string> = {
      'access token': tokens.access_token,
      'refresh token': tokens.refresh_token,
      'rotated access token': refreshed.body.access_token,
      'rotated refresh token': refreshed.body.refresh_token,
      code,
      'client secret': client.client_secret!,
      'registration access token': client.registration.registration_access_token,
      'upstream access token': upstream!.access_token,
      'upstream refresh token': upstream!.refresh_token!,
    }
    for (const pair of `${connectorCookies}; ${connectionsCookies}`.split('; ').filter(Boolean)) {
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value.length >= 16) secrets[`cookie ${pair.slice(0, pair.indexOf('='))}`] = value
    }
    expect(Object.keys(secrets)).toContain('cookie _session')
    expect(Object.keys(secrets)).toContain('cookie countersign_session')

    const dump = await dumpStore(suite.store)
    expect(dump).toContain('oauth_records')
    for (const [what, value] of Object.entries(secrets)) {
      expect(value, what).toBeTruthy()
      expect(dump.includes(value), `${what} found in the store`).toBe(false)
    }
  })

  it('keeps tokens and sessions under their SHA-256 digests, and client secrets as digests', async () => {
    const person = suite.person('digests')
    const client = await suite.registerClient({ token_endpoint_auth_method: 'client_secret_basic' })
    const { tokens } = await suite.connect({ person, client })
    await person.signInToConnections()
    const { db } = suite.store
    const record = (kind: string, value: string) =>
      db
        .selectFrom('oauth_records')
        .select(['id', 'payload'])
        .where('kind', '=', kind)
        .where('id', '=', digest(value))
        .executeTakeFirst()
    expect(await record('AccessToken', tokens.access_token)).toBeDefined()
    expect(await record('RefreshToken', tokens.refresh_token)).toBeDefined()
    expect(JSON.stringify(await record('AccessToken', tokens.access_token))).not.toContain(
      tokens.access_token,
    )

    const clientRow = (
      await db.selectFrom('oauth_records').select('payload').where('kind', '=', 'Client').execute()
    )
      .map((row) => JSON.parse(row.payload))
      .find((payload) => payload.client_id === client.client_id)
    expect(clientRow.client_secret).toMatch(/^sha256:/)

    const cookie = person.cookies
      .header(new URL(`${suite.url}/connections`))
      .split('; ')
      .find((pair) => pair.startsWith('countersign_session='))!
      .slice('countersign_session='.length)
    const session = await db
      .selectFrom('person_sessions')
      .select('subject')
      .where('id', '=', createHash('sha256').update(cookie).digest('hex'))
      .executeTakeFirst()
    expect(session).toEqual({ subject: 'digests' })
  })

  it('seals the upstream credential under the vault key, bound to its row', async () => {
    await suite.connect({ person: suite.person('sealed') })
    const { store, vault } = suite.connector.parts
    const row = await store.db
      .selectFrom('upstream_credentials')
      .selectAll()
      .where('subject', '=', 'sealed')
      .executeTakeFirstOrThrow()
    const { tokens: upstream } = await suite.upstreamOf('sealed')
    expect(row.key_id).toBe(vault.keyId)
    expect(row.ciphertext).toMatch(
      new RegExp(`^v1\\.${vault.keyId}\\.[\\w-]+\\.[\\w-]+\\.[\\w-]+$`),
    )
    expect(row.ciphertext).not.toContain(upstream!.access_token)
    // Copied to another row (another id or person), it does not open.
    expect(() => vault.open(row.ciphertext, credentialBinding('another-id', row.subject))).toThrow(
      SealedValueError,
    )
    expect(() => vault.open(row.ciphertext, credentialBinding(row.id, 'someone-else'))).toThrow(
      SealedValueError,
    )
    expect((await new UpstreamCredentials(store, vault).get(row.id))?.subject).toBe('sealed')
  })
})
