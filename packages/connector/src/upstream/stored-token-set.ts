import type { Store } from '../store/open.js'
import {
  credentialBinding,
  type SealedCredential,
  type UpstreamCredential,
  type UpstreamCredentials,
} from '../vault/credentials.js'
import { SealedValueError } from '../vault/errors.js'
import type { Vault } from '../vault/vault.js'
import { parseTokenSet, serializeTokenSet, type TokenSet } from './token-set.js'

/** A credential's token set as stored, with the `updated_at` it was read at. */
export interface StoredTokenSet {
  id: string
  subject: string
  scope: string
  /** When the person connected: each connection makes a credential of its own. */
  createdAt: number
  updatedAt: number
  set: TokenSet
}

/**
 * Token sets in the credential store: read through UpstreamCredentials, and replaced only by
 * compare-and-set on `updated_at`, so that a change made meanwhile by another replica (or an
 * erase) is never overwritten.
 */
export class StoredTokenSets {
  constructor(
    private readonly store: Store,
    private readonly vault: Vault,
    private readonly credentials: UpstreamCredentials,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Undefined when there is no such credential, or when it no longer opens (its key was retired
   * before it was re-sealed): it is erased then, and the person reconnects, as after a revocation.
   */
  read(id: string): Promise<StoredTokenSet | undefined> {
    return this.#opened(id, () => this.credentials.get(id))
  }

  /** The same, of a credential's row already read (with its grant, by the MCP endpoint). */
  open(row: SealedCredential): Promise<StoredTokenSet | undefined> {
    return this.#opened(row.id, async () => this.credentials.open(row))
  }

  async #opened(
    id: string,
    open: () => Promise<UpstreamCredential | undefined>,
  ): Promise<StoredTokenSet | undefined> {
    const credential = await open().catch(async (error: unknown) => {
      if (!(error instanceof SealedValueError)) throw error
      await this.credentials.erase(id)
      return undefined
    })
    if (!credential) return undefined
    const { subject, scope, createdAt, updatedAt, secret } = credential
    return { id, subject, scope, createdAt, updatedAt, set: parseTokenSet(secret) }
  }

  /** Replaces `current` with `next` if nobody changed it since it was read; undefined if someone did. */
  async replace(current: StoredTokenSet, next: TokenSet): Promise<StoredTokenSet | undefined> {
    // Strictly later than what was read, so that the next compare-and-set sees a change.
    const updatedAt = Math.max(this.now(), current.updatedAt + 1)
    const result = await this.store.db
      .updateTable('upstream_credentials')
      .set({
        scope: next.scope,
        ciphertext: this.vault.seal(
          serializeTokenSet(next),
          credentialBinding(current.id, current.subject),
        ),
        key_id: this.vault.keyId,
        updated_at: updatedAt,
      })
      .where('id', '=', current.id)
      .where('updated_at', '=', current.updatedAt)
      .executeTakeFirst()
    if (result.numUpdatedRows === 0n) return undefined
    return { ...current, scope: next.scope, updatedAt, set: next }
  }
}
