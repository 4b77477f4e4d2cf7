import type { Logger } from 'pino'
import type { Store } from '../store/open.js'
import { SealedValueError } from '../vault/errors.js'
import { pushKeyBinding } from '../vault/bindings.js'
import type { Vault } from '../vault/vault.js'
import { newVapidKeys, type VapidKeys } from './sender.js'

/**
 * The connector's VAPID key pair, which signs every push it sends (RFC 8292), and which a
 * device's subscription is made for: made by the first replica that needs it, kept in the store
 * with its private half sealed by the vault (rotated with the vault's other values), the same
 * on every replica. An operator sets nothing, and a lost one only means the devices are asked
 * again: their subscriptions were made for it.
 */

const NAME = 'vapid'

export async function pushKeys(
  store: Store,
  vault: Vault,
  { now = Date.now, log }: { now?: () => number; log?: Logger } = {},
): Promise<VapidKeys> {
  const kept = await read(store, vault)
  if (kept && 'publicKey' in kept) return kept
  const made = newVapidKeys()
  const row = {
    name: NAME,
    public_key: made.publicKey,
    sealed: vault.seal(made.privateKey, pushKeyBinding(NAME)),
    key_id: vault.keyId,
    created_at: now(),
  }
  if (kept) {
    // Sealed under a key this vault does not hold: no device's subscription made for it opens
    // here either. A new pair replaces it (only that row: another replica may have done so).
    log?.warn('the push key pair could not be opened with VAULT_KEY: made anew')
    await store.db
      .updateTable('push_keys')
      .set(row)
      .where('name', '=', NAME)
      .where('sealed', '=', kept.unreadable)
      .execute()
  } else {
    // Two replicas starting at once: the first insert holds, and both read it back.
    await store.db
      .insertInto('push_keys')
      .values(row)
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute()
  }
  const settled = await read(store, vault)
  if (!settled || !('publicKey' in settled)) throw new Error('the push key pair could not be kept')
  return settled
}

/** The kept pair; or the sealed value of one this vault cannot open. */
async function read(
  store: Store,
  vault: Vault,
): Promise<VapidKeys | { unreadable: string } | undefined> {
  const row = await store.db
    .selectFrom('push_keys')
    .select(['public_key', 'sealed'])
    .where('name', '=', NAME)
    .executeTakeFirst()
  if (!row) return undefined
  try {
    return { publicKey: row.public_key, privateKey: vault.open(row.sealed, pushKeyBinding(NAME)) }
  } catch (error) {
    if (error instanceof SealedValueError) return { unreadable: row.sealed }
    throw error
  }
}
