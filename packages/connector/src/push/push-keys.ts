import type { Store } from '../store/open.js'
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

export async function pushKeys(store: Store, vault: Vault, now = Date.now): Promise<VapidKeys> {
  const kept = await read(store, vault)
  if (kept) return kept
  const made = newVapidKeys()
  // Two replicas starting at once: the first insert holds, and both read it back.
  await store.db
    .insertInto('push_keys')
    .values({
      name: NAME,
      public_key: made.publicKey,
      sealed: vault.seal(made.privateKey, pushKeyBinding(NAME)),
      key_id: vault.keyId,
      created_at: now(),
    })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  return (await read(store, vault))!
}

async function read(store: Store, vault: Vault): Promise<VapidKeys | undefined> {
  const row = await store.db
    .selectFrom('push_keys')
    .select(['public_key', 'sealed'])
    .where('name', '=', NAME)
    .executeTakeFirst()
  if (!row) return undefined
  return { publicKey: row.public_key, privateKey: vault.open(row.sealed, pushKeyBinding(NAME)) }
}
