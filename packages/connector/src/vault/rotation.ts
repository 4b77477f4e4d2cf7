import type { Store } from '../store/open.js'
import {
  coverageBinding,
  credentialBinding,
  pushDeviceBinding,
  pushKeyBinding,
} from './bindings.js'
import { SealedValueError } from './errors.js'
import type { Vault } from './vault.js'

export interface RotationReport {
  /** Values re-sealed under the vault's current key by this run. */
  resealed: number
  /**
   * Values that do not open (a key missing from the vault, or altered): by what they are and
   * their id, never their content.
   */
  failed: { id: string; keyId: string; reason: string }[]
  /** Values still under another key after the run: 0 means the old keys can be retired. */
  remaining: number
}

export interface RotationOptions {
  /** Rows read and re-sealed per transaction. */
  batchSize?: number
}

/** One kind of long-lived sealed value: where its rows are, and what each is bound to. */
interface SealedKind {
  /** Names a failed row in the report: "credential", "grant coverage". */
  what: string
  /** Rows still under another key than `keyId`, after `after` in id order. */
  batch(
    store: Store,
    keyId: string,
    after: string,
    limit: number,
  ): Promise<{ id: string; sealed: string; keyId: string; binding: string }[]>
  /** Replaces `sealed` with `resealed`, unless a replica changed the row meanwhile. */
  replace(
    store: Store,
    id: string,
    sealed: string,
    resealed: string,
    keyId: string,
  ): Promise<boolean>
  remaining(store: Store, keyId: string): Promise<number>
}

const CREDENTIALS: SealedKind = {
  what: 'credential',
  async batch(store, keyId, after, limit) {
    const rows = await store.db
      .selectFrom('upstream_credentials')
      .select(['id', 'subject', 'ciphertext', 'key_id'])
      .where('key_id', '!=', keyId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((row) => ({
      id: row.id,
      sealed: row.ciphertext,
      keyId: row.key_id,
      binding: credentialBinding(row.id, row.subject),
    }))
  },
  async replace(store, id, sealed, resealed, keyId) {
    // updated_at stays: the credential itself did not change.
    const result = await store.db
      .updateTable('upstream_credentials')
      .set({ ciphertext: resealed, key_id: keyId })
      .where('id', '=', id)
      .where('ciphertext', '=', sealed)
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  },
  async remaining(store, keyId) {
    const { count } = await store.db
      .selectFrom('upstream_credentials')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('key_id', '!=', keyId)
      .executeTakeFirstOrThrow()
    return Number(count)
  },
}

const COVERAGE: SealedKind = {
  what: 'grant coverage',
  async batch(store, keyId, after, limit) {
    const rows = await store.db
      .selectFrom('grant_links')
      .select(['grant_id', 'coverage', 'coverage_key_id'])
      .where('coverage', 'is not', null)
      .where('coverage_key_id', '!=', keyId)
      .where('grant_id', '>', after)
      .orderBy('grant_id')
      .limit(limit)
      .execute()
    return rows.map((row) => ({
      id: row.grant_id,
      sealed: row.coverage!,
      keyId: row.coverage_key_id!,
      binding: coverageBinding(row.grant_id),
    }))
  },
  async replace(store, id, sealed, resealed, keyId) {
    const result = await store.db
      .updateTable('grant_links')
      .set({ coverage: resealed, coverage_key_id: keyId })
      .where('grant_id', '=', id)
      .where('coverage', '=', sealed)
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  },
  async remaining(store, keyId) {
    const { count } = await store.db
      .selectFrom('grant_links')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('coverage', 'is not', null)
      .where('coverage_key_id', '!=', keyId)
      .executeTakeFirstOrThrow()
    return Number(count)
  },
}

type SealedRow = Awaited<ReturnType<SealedKind['batch']>>[number]

/**
 * A push table, whose rows hold one sealed value in `sealed` under `key_id`: its own read of a
 * batch, the rest shared.
 */
function pushKind(
  what: string,
  table: 'push_keys' | 'push_devices',
  idColumn: 'name' | 'id',
  batch: SealedKind['batch'],
): SealedKind {
  return {
    what,
    batch,
    async replace(store, id, sealed, resealed, keyId) {
      const result = await store.db
        .updateTable(table)
        .set({ sealed: resealed, key_id: keyId })
        .where(idColumn, '=', id)
        .where('sealed', '=', sealed)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async remaining(store, keyId) {
      const { count } = await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('key_id', '!=', keyId)
        .executeTakeFirstOrThrow()
      return Number(count)
    },
  }
}

const PUSH_KEYS = pushKind('push key', 'push_keys', 'name', async (store, keyId, after, limit) =>
  (
    await store.db
      .selectFrom('push_keys')
      .select(['name', 'sealed', 'key_id'])
      .where('key_id', '!=', keyId)
      .where('name', '>', after)
      .orderBy('name')
      .limit(limit)
      .execute()
  ).map((row): SealedRow => ({
    id: row.name,
    sealed: row.sealed,
    keyId: row.key_id,
    binding: pushKeyBinding(row.name),
  })),
)

const PUSH_DEVICES = pushKind(
  'push device',
  'push_devices',
  'id',
  async (store, keyId, after, limit) =>
    (
      await store.db
        .selectFrom('push_devices')
        .select(['id', 'account', 'sealed', 'key_id'])
        .where('key_id', '!=', keyId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute()
    ).map((row): SealedRow => ({
      id: row.id,
      sealed: row.sealed,
      keyId: row.key_id,
      binding: pushDeviceBinding(row.id, row.account),
    })),
)

/**
 * Re-seals every long-lived sealed value (upstream credentials, what each grant covers, the
 * push key and the devices' subscriptions)
 * under the vault's current (first) key, so that the old keys can then be removed from
 * VAULT_KEY. Idempotent: a row already under the current key is left alone, and a second run
 * does nothing. It walks the rows in id order, a batch per transaction, and never overwrites a
 * value that a replica changed meanwhile (compare-and-set on the old sealed value). Pending
 * approvals are short-lived: they expire under the old key.
 */
export async function rotateSealedValues(
  store: Store,
  vault: Vault,
  options: RotationOptions = {},
): Promise<RotationReport> {
  const report: RotationReport = { resealed: 0, failed: [], remaining: 0 }
  for (const kind of [CREDENTIALS, COVERAGE, PUSH_KEYS, PUSH_DEVICES]) {
    const one = await rotate(kind, store, vault, options)
    report.resealed += one.resealed
    report.failed.push(...one.failed)
    report.remaining += one.remaining
  }
  return report
}

/** The credentials alone (the report counts credentials only). */
export const rotateCredentials = (store: Store, vault: Vault, options: RotationOptions = {}) =>
  rotate(CREDENTIALS, store, vault, options)

async function rotate(
  kind: SealedKind,
  store: Store,
  vault: Vault,
  { batchSize = 100 }: RotationOptions,
): Promise<RotationReport> {
  const report: RotationReport = { resealed: 0, failed: [], remaining: 0 }
  let after = ''
  for (;;) {
    const batch = await kind.batch(store, vault.keyId, after, batchSize)
    if (batch.length === 0) break
    after = batch[batch.length - 1]!.id
    await store.db.transaction().execute(async (trx) => {
      const inTransaction = { ...store, db: trx } as Store
      for (const row of batch) {
        let plaintext: string
        try {
          plaintext = vault.open(row.sealed, row.binding)
        } catch (error) {
          if (!(error instanceof SealedValueError)) throw error
          report.failed.push({
            id: kind === CREDENTIALS ? row.id : `${kind.what} ${row.id}`,
            keyId: row.keyId,
            reason: error.message,
          })
          continue
        }
        const resealed = vault.seal(plaintext, row.binding)
        if (await kind.replace(inTransaction, row.id, row.sealed, resealed, vault.keyId))
          report.resealed += 1
      }
    })
  }
  report.remaining = await kind.remaining(store, vault.keyId)
  return report
}
