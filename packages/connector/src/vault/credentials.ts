import type { Store } from '../store/open.js'
import type { Vault } from './vault.js'

/** A person's credential at the provider, as the connector uses it. */
export interface UpstreamCredential {
  id: string
  /** The person's identity at the provider. */
  subject: string
  /** The scopes the provider granted, space-separated. */
  scope: string
  /** The token set, serialized by its owner (the upstream client); sealed at rest. */
  secret: string
  createdAt: number
  updatedAt: number
}

export type NewUpstreamCredential = Pick<UpstreamCredential, 'id' | 'subject' | 'scope' | 'secret'>

/**
 * What a sealed credential is bound to: its row and its person. A ciphertext copied to another
 * row, or a row reassigned to another subject, no longer opens.
 */
export const credentialBinding = (id: string, subject: string) =>
  JSON.stringify(['upstream_credentials', id, subject])

/** How many opened credentials are kept, the least recently used dropped past it. */
const OPENED_CAPACITY = 1000

/**
 * Upstream credentials: sealed by the vault on write, opened on read.
 *
 * Every read reads the row, so an erased or replaced credential is seen at once, on every
 * replica. What it spares is opening the same ciphertext again: the secret opened from a row is
 * kept in this process's memory beside that ciphertext, and used only while the row still holds
 * exactly that ciphertext for that subject (a refresh or a re-seal writes a new one).
 */
export class UpstreamCredentials {
  readonly #opened = new Map<string, { ciphertext: string; subject: string; secret: string }>()

  constructor(
    private readonly store: Store,
    private readonly vault: Vault,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a credential, or replaces the one with the same id (a refresh, a reconnect). */
  async put({ id, subject, scope, secret }: NewUpstreamCredential): Promise<void> {
    const at = this.now()
    const sealed = {
      subject,
      scope,
      ciphertext: this.vault.seal(secret, credentialBinding(id, subject)),
      key_id: this.vault.keyId,
      updated_at: at,
    }
    await this.store.db
      .insertInto('upstream_credentials')
      .values({ id, ...sealed, created_at: at })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(sealed))
      .execute()
  }

  /** The credential, opened; undefined if none. Throws SealedValueError if it does not open. */
  async get(id: string): Promise<UpstreamCredential | undefined> {
    const row = await this.store.db
      .selectFrom('upstream_credentials')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) {
      this.#opened.delete(id)
      return undefined
    }
    return {
      id: row.id,
      subject: row.subject,
      scope: row.scope,
      secret: this.#open(row),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }
  }

  #open(row: { id: string; subject: string; ciphertext: string }): string {
    const { id, subject, ciphertext } = row
    const known = this.#opened.get(id)
    this.#opened.delete(id)
    if (known && known.ciphertext === ciphertext && known.subject === subject) {
      this.#opened.set(id, known)
      return known.secret
    }
    const secret = this.vault.open(ciphertext, credentialBinding(id, subject))
    this.#opened.set(id, { ciphertext, subject, secret })
    if (this.#opened.size > OPENED_CAPACITY) this.#opened.delete(this.#opened.keys().next().value!)
    return secret
  }

  /** Whether the person holds any credential here. */
  async heldBy(subject: string): Promise<boolean> {
    const row = await this.store.db
      .selectFrom('upstream_credentials')
      .select('id')
      .where('subject', '=', subject)
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /** Erases the credential; true if there was one. */
  async erase(id: string): Promise<boolean> {
    this.#opened.delete(id)
    const result = await this.store.db
      .deleteFrom('upstream_credentials')
      .where('id', '=', id)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }
}
