import { OAuth2Client } from 'google-auth-library'
import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'

/**
 * A client registered through the control API (`POST /_sandbox/clients`) is checked as Google
 * checks its OAuth clients, through google-auth-library's own OAuth2Client: a good client with a
 * code that cannot exist hears `invalid_grant`, a wrong secret or an unknown client
 * `invalid_client` (401), so a setup check can tell a good client from a bad one with no person.
 */
const sandbox = sandboxForSuite()

const CLIENT_ID = '1234-doctor.apps.googleusercontent.com'
const SECRET = 'GOCSPX-registered-secret'

function client(clientId: string, clientSecret: string) {
  return new OAuth2Client({
    clientId,
    clientSecret,
    redirectUri: 'http://127.0.0.1:9/upstream/callback',
    endpoints: {
      oauth2TokenUrl: `${sandbox.googleUrl}/token`,
      oauth2RevokeUrl: `${sandbox.googleUrl}/revoke`,
    },
  })
}

/** A code that cannot exist, with a well-formed PKCE verifier, as a setup check sends it. */
const NO_SUCH_CODE = { code: '4/cannot-exist', codeVerifier: 'v'.repeat(43) }

/** What Google's client library surfaces of the token endpoint's refusal. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as { status: number; response: { data: Record<string, string> } },
  )
  expect(error, 'the token endpoint accepted a code that cannot exist').toBeDefined()
  return { status: error!.status, ...error!.response.data }
}

describe('registered clients at the Google origin', () => {
  it('a good client, a wrong secret, an unknown client; a reset accepts any client again', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    const registered = await sandbox.request('POST', '/_sandbox/clients', {
      body: { clientId: CLIENT_ID, clientSecret: SECRET },
    })
    expect(registered.body).toEqual({ registered: CLIENT_ID })

    const good = await refusal(client(CLIENT_ID, SECRET).getToken(NO_SUCH_CODE))
    expect(good).toMatchObject({ status: 400, error: 'invalid_grant' })
    const wrongSecret = await refusal(client(CLIENT_ID, 'GOCSPX-other').getToken(NO_SUCH_CODE))
    expect(wrongSecret).toEqual({
      status: 401,
      error: 'invalid_client',
      error_description: 'Unauthorized',
    })
    const unknown = await refusal(
      client('999-other.apps.googleusercontent.com', SECRET).getToken(NO_SUCH_CODE),
    )
    expect(unknown).toEqual({
      status: 401,
      error: 'invalid_client',
      error_description: 'The OAuth client was not found.',
    })
    // Revocation checks the client too.
    const revoked = await sandbox.googleRequest('POST', '/revoke', {
      rawBody: 'token=whatever&client_id=999-other.apps.googleusercontent.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(revoked.status).toBe(401)

    await sandbox.request('POST', '/_sandbox/reset')
    const any = await refusal(
      client('999-other.apps.googleusercontent.com', 'x').getToken(NO_SUCH_CODE),
    )
    expect(any).toMatchObject({ status: 400, error: 'invalid_grant' })
  })

  it('a registration without its secret is refused, naming the field', async () => {
    const refused = await sandbox.request('POST', '/_sandbox/clients', {
      body: { clientId: CLIENT_ID },
    })
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(/clientSecret/)
  })
})
