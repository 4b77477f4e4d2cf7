import { randomBytes } from 'node:crypto'
import type { Store } from '../store/open.js'
import { keyedDigests } from '../store/keyed-digests.js'
import { SealedValueError } from '../vault/errors.js'
import { pushDeviceBinding } from '../vault/bindings.js'
import type { Vault } from '../vault/vault.js'
import type { PushSubscription } from './subscriptions.js'

/**
 * A person's devices that show notifications: each one's push subscription (its endpoint and
 * keys) sealed by the vault and bound to its row and person, so no row opens as another
 * person's. A device belongs to the person who last turned notifications on there: the same
 * endpoint subscribed again, under any person, replaces its row (a shared browser never shows
 * one person's changes to another after they switched).
 */

export interface Device {
  id: string
  label: string
  createdAt: number
}

export interface DeviceToReach extends Device {
  subscription: PushSubscription
}

/** At most this many devices a person: the oldest goes when one more is added. */
export const DEVICES_PER_PERSON = 20

export class PushDevices {
  readonly #digest: (endpoint: string) => string

  constructor(
    private readonly store: Store,
    private readonly vault: Vault,
    private readonly now: () => number = Date.now,
  ) {
    this.#digest = keyedDigests(vault.deriveKey('push endpoints'))
  }

  /** Turns notifications on for a device of `account`'s; its id. */
  async add(account: string, subscription: PushSubscription, label: string): Promise<string> {
    const id = randomBytes(12).toString('base64url')
    const row = {
      id,
      account,
      endpoint_digest: this.#digest(subscription.endpoint),
      sealed: this.vault.seal(JSON.stringify(subscription), pushDeviceBinding(id, account)),
      key_id: this.vault.keyId,
      label: label.slice(0, 80),
      created_at: this.now(),
    }
    await this.store.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('push_devices')
        .where('endpoint_digest', '=', row.endpoint_digest)
        .execute()
      await trx.insertInto('push_devices').values(row).execute()
      const beyond = await trx
        .selectFrom('push_devices')
        .select('id')
        .where('account', '=', account)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .offset(DEVICES_PER_PERSON)
        .limit(1000)
        .execute()
      if (beyond.length > 0)
        await trx
          .deleteFrom('push_devices')
          .where(
            'id',
            'in',
            beyond.map((one) => one.id),
          )
          .execute()
    })
    return id
  }

  /** The person's devices, newest first, as their page lists them. */
  async list(account: string): Promise<Device[]> {
    const rows = await this.store.db
      .selectFrom('push_devices')
      .select(['id', 'label', 'created_at'])
      .where('account', '=', account)
      .orderBy('created_at', 'desc')
      .execute()
    return rows.map((row) => ({ id: row.id, label: row.label, createdAt: Number(row.created_at) }))
  }

  /** The person's devices with what it takes to reach them; a row that no longer opens is left out. */
  async toReach(account: string): Promise<DeviceToReach[]> {
    const rows = await this.store.db
      .selectFrom('push_devices')
      .select(['id', 'label', 'created_at', 'sealed'])
      .where('account', '=', account)
      .execute()
    const devices: DeviceToReach[] = []
    for (const row of rows) {
      try {
        const subscription = JSON.parse(
          this.vault.open(row.sealed, pushDeviceBinding(row.id, account)),
        ) as PushSubscription
        devices.push({
          id: row.id,
          label: row.label,
          createdAt: Number(row.created_at),
          subscription,
        })
      } catch (error) {
        if (!(error instanceof SealedValueError)) throw error
      }
    }
    return devices
  }

  /** Turns notifications off for one of the person's devices; whether it was theirs. */
  async remove(account: string, id: string): Promise<boolean> {
    const result = await this.store.db
      .deleteFrom('push_devices')
      .where('id', '=', id)
      .where('account', '=', account)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  /** Forgets a device its push service no longer knows. */
  async forget(id: string): Promise<void> {
    await this.store.db.deleteFrom('push_devices').where('id', '=', id).execute()
  }
}
