import type { SealedCredential } from '../vault/credentials.js'
import type { TokenSet } from './token-set.js'

/** What a call needs of a credential's token set: the token, and when to refresh it. */
export type AccessTokenOf = Pick<TokenSet, 'access_token' | 'expires_at'>

/**
 * The access token last opened from each credential's row, by the row's sealed text. Every call
 * still reads the row (with its grant: auth/access-tokens.ts), so an erased credential or an
 * ended grant is refused at once; only an unchanged row is not decrypted and parsed again. A
 * refresh, a reconnection or a key rotation changes the sealed text, and the row is opened anew.
 * The refresh token is never kept here (docs/decisions.md, "The connector's own work").
 */
export class OpenedAccessTokens {
  readonly #byCredential = new Map<string, { sealed: string; token: AccessTokenOf }>()

  /** At most this many credentials, the first remembered forgotten first. */
  constructor(private readonly capacity = 1000) {}

  get(row: SealedCredential): AccessTokenOf | undefined {
    const entry = this.#byCredential.get(row.id)
    return entry?.sealed === row.ciphertext ? entry.token : undefined
  }

  remember(row: SealedCredential, { access_token, expires_at }: TokenSet): void {
    this.#byCredential.delete(row.id)
    this.#byCredential.set(row.id, { sealed: row.ciphertext, token: { access_token, expires_at } })
    if (this.#byCredential.size > this.capacity)
      this.#byCredential.delete(this.#byCredential.keys().next().value!)
  }
}
