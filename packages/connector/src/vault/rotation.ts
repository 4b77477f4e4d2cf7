import type { Store } from '../store/open.js'
import { credentialBinding } from './credentials.js'
import { SealedValueError } from './errors.js'
import type { Vault } from './vault.js'

export interface RotationReport {
  /** Credentials re-sealed under the vault's current key by this run. */
  resealed: number
  /** Credentials that do not open (a key missing from the vault, or altered): by id, never content. */
  failed: { id: string; keyId: string; reason: string }[]
  /** Credentials still under another key after the run: 0 means the old keys can be retired. */
  remaining: number
}

export interface RotationOptions {
  /** Rows read and re-sealed per transaction. */
  batchSize?: number
}

/**
 * Re-seals every upstream credential under the vault's current (first) key, so that the old keys
 * can then be removed from VAULT_KEY. Idempotent: a row already under the current key is left
 * alone, and a second run does nothing. It walks the rows in id order, a batch per transaction,
 * and never overwrites a credential that a replica changed meanwhile.
 */
export async function rotateCredentials(
  store: Store,
  vault: Vault,
  { batchSize = 100 }: RotationOptions = {},
): Promise<RotationReport> {
  const report: RotationReport = { resealed: 0, failed: [], remaining: 0 }
  let after = ''
  for (;;) {
    const batch = await store.db
      .selectFrom('upstream_credentials')
      .select(['id', 'subject', 'ciphertext', 'key_id'])
      .where('key_id', '!=', vault.keyId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute()
    if (batch.length === 0) break
    after = batch[batch.length - 1]!.id

    await store.db.transaction().execute(async (trx) => {
      for (const row of batch) {
        const binding = credentialBinding(row.id, row.subject)
        let plaintext: string
        try {
          plaintext = vault.open(row.ciphertext, binding)
        } catch (error) {
          if (!(error instanceof SealedValueError)) throw error
          report.failed.push({ id: row.id, keyId: row.key_id, reason: error.message })
          continue
        }
        // Compare-and-set on the old ciphertext: a concurrent put is newer, and already sealed.
        // updated_at stays: the credential itself did not change.
        const result = await trx
          .updateTable('upstream_credentials')
          .set({ ciphertext: vault.seal(plaintext, binding), key_id: vault.keyId })
          .where('id', '=', row.id)
          .where('ciphertext', '=', row.ciphertext)
          .executeTakeFirst()
        if (result.numUpdatedRows > 0n) report.resealed += 1
      }
    })
  }

  const { count } = await store.db
    .selectFrom('upstream_credentials')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('key_id', '!=', vault.keyId)
    .executeTakeFirstOrThrow()
  report.remaining = Number(count)
  return report
}
