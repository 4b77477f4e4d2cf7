import type { Selectable } from 'kysely'
import type { Store } from '../store/open.js'
import type { UpstreamCredentialTable } from '../store/schema.js'
import { credentialBinding } from './bindings.js'
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

/** A credential's row as stored: its token set sealed. */
export type SealedCredential = Selectable<UpstreamCredentialTable>

export type NewUpstreamCredential = Pick<UpstreamCredential, 'id' | 'subject' | 'scope' | 'secret'>

export { credentialBinding }

/** Upstream credentials: sealed by the vault on write, opened on read. */
export class UpstreamCredentials {
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
    return row && this.open(row)
  }

  /**
   * A credential as stored, read elsewhere (with the grant that uses it: auth/access-tokens.ts),
   * opened. Throws SealedValueError if it does not open.
   */
  open(row: SealedCredential): UpstreamCredential {
    return {
      id: row.id,
      subject: row.subject,
      scope: row.scope,
      secret: this.vault.open(row.ciphertext, credentialBinding(row.id, row.subject)),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }
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
    const result = await this.store.db
      .deleteFrom('upstream_credentials')
      .where('id', '=', id)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }
}
