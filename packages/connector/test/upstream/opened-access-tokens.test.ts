import { describe, expect, it } from 'vitest'
import { OpenedAccessTokens } from '../../src/upstream/opened-access-tokens.js'
import type { TokenSet } from '../../src/upstream/token-set.js'
import type { SealedCredential } from '../../src/vault/credentials.js'

const row = (id: string, ciphertext: string): SealedCredential => ({
  id,
  subject: 'alice',
  scope: 'tasks',
  ciphertext,
  key_id: 'k1',
  created_at: 1,
  updated_at: 1,
})

const set = (accessToken: string): TokenSet => ({
  access_token: accessToken,
  refresh_token: 'never-kept',
  expires_at: 1_000,
  scope: 'tasks',
  token_type: 'Bearer',
})

describe('the access tokens opened from credential rows', () => {
  it('gives the token of a row read again unchanged, and never its refresh token', () => {
    const opened = new OpenedAccessTokens()
    opened.remember(row('c1', 'sealed-1'), set('token-1'))
    expect(opened.get(row('c1', 'sealed-1'))).toEqual({
      access_token: 'token-1',
      expires_at: 1_000,
    })
  })

  it('gives nothing for a row whose sealed text changed (refreshed, reconnected, resealed)', () => {
    const opened = new OpenedAccessTokens()
    opened.remember(row('c1', 'sealed-1'), set('token-1'))
    expect(opened.get(row('c1', 'sealed-2'))).toBeUndefined()
    expect(opened.get(row('c2', 'sealed-1'))).toBeUndefined()
    opened.remember(row('c1', 'sealed-2'), set('token-2'))
    expect(opened.get(row('c1', 'sealed-2'))?.access_token).toBe('token-2')
    expect(opened.get(row('c1', 'sealed-1'))).toBeUndefined()
  })

  it('keeps at most its capacity, forgetting the first remembered first', () => {
    const opened = new OpenedAccessTokens(2)
    for (const id of ['c1', 'c2', 'c3']) opened.remember(row(id, `sealed-${id}`), set(id))
    expect(opened.get(row('c1', 'sealed-c1'))).toBeUndefined()
    expect(opened.get(row('c2', 'sealed-c2'))?.access_token).toBe('c2')
    expect(opened.get(row('c3', 'sealed-c3'))?.access_token).toBe('c3')
  })
})
