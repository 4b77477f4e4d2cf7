import { describe, expect, it } from 'vitest'
import { connectorForSuite } from '@countersign/connector/testing'

/**
 * Per-client consent, no confused deputy (docs/threat-model.md, "Per-client consent; no confused
 * deputy"): what a person allowed one assistant is never reused for another. Consent is remembered
 * per person, client and service; another client gets the consent page again and a grant of its
 * own, and cannot use the first one's code or refresh token.
 */

const suite = connectorForSuite()

describe('per-client consent (no confused deputy)', () => {
  it('another client of the same person is asked again, and gets its own grant', async () => {
    const person = suite.person('two-clients')
    // Redirects that are not loopback, whose consent is remembered (a loopback one is asked anew).
    const web = (name: string) => ({ client_name: name, redirect_uris: [`https://${name}/cb`] })
    const first = await suite.registerClient(web('first.example'))
    const second = await suite.registerClient(web('second.example'))
    await suite.connect({ person, client: first })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    await suite.connect({ person, client: second })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    // The same client again: remembered.
    await suite.connect({ person, client: first })
    expect(person.seen).toEqual([])
    const grants = await suite.store.db
      .selectFrom('grant_links')
      .select('client_id')
      .where('account', '=', 'two-clients')
      .orderBy('client_id')
      .execute()
    expect(grants.map((grant) => grant.client_id)).toEqual(
      [first.client_id, second.client_id].sort(),
    )
  })

  it("a client cannot redeem another client's code or refresh token: invalid_grant, no token", async () => {
    const { tokens, pkce, code } = await suite.connect({ person: suite.person('thief') })
    const other = await suite.registerClient()
    const before = await suite.holdings()
    const refresh = await suite.refresh(other, tokens.refresh_token)
    expect(refresh.status).toBe(400)
    expect(refresh.body.error).toBe('invalid_grant')
    const exchange = await suite.exchangeCode(other, code, pkce)
    expect(exchange.status).toBe(400)
    expect(exchange.body.error).toBe('invalid_grant')
    const after = await suite.holdings()
    expect(after.AccessToken).toBe(before.AccessToken)
    expect(after.RefreshToken).toBe(before.RefreshToken)
  })
})
