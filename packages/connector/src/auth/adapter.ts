import { createHash } from 'node:crypto'
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider'
import type { Store } from '../store/open.js'
import { hashClientSecret } from './client-secrets.js'

/**
 * oidc-provider's storage over the connector's store: one table (`oauth_records`) for every model,
 * on SQLite and PostgreSQL alike. What a copy of the database gives away is kept small:
 *
 * - a record's id (for tokens and codes, the value a client presents), a session's uid and a
 *   user code are stored only as SHA-256 digests, so a lookup hashes what it is given; a token's
 *   `jti` is taken out of the stored payload and put back from the id on `find`;
 * - a confidential client's secret is stored as a digest (see client-secrets.ts);
 * - an interaction keeps only a digest of the session cookie it was started under.
 *
 * Single use (codes, rotated refresh tokens) is one conditional UPDATE, so it holds across
 * replicas: of two requests that present the same code at once, one consumes it and the other is
 * treated as a replay.
 */

export interface AdapterHooks {
  /** A Grant record was destroyed (revocation, reuse detection...): end what hangs off it. */
  grantDestroyed(grantId: string): Promise<void>
  /** A Grant record expired and was purged. */
  grantExpired(grantId: string): Promise<void>
}

export interface AdapterOptions {
  now?: () => number
  /** How often, at most, a replica sweeps expired records. */
  purgeIntervalMs?: number
}

export const digest = (value: string) => createHash('sha256').update(value).digest('base64url')

/** Models that are used once: a second use is a replay and ends the grant. */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode'])

const PURGE_BATCH = 500

/** The adapter factory oidc-provider's `adapter` option takes: one adapter per model name. */
export function storeAdapter(store: Store, hooks: AdapterHooks, options: AdapterOptions = {}) {
  const shared = new AdapterState(store, hooks, options)
  return (kind: string): Adapter => new StoreAdapter(kind, shared)
}

/** What the adapters of one provider share: the store, the hooks, the purge schedule. */
class AdapterState {
  readonly now: () => number
  readonly #purgeIntervalMs: number
  #lastPurge = 0

  constructor(
    readonly store: Store,
    readonly hooks: AdapterHooks,
    options: AdapterOptions,
  ) {
    this.now = options.now ?? Date.now
    this.#purgeIntervalMs = options.purgeIntervalMs ?? 60_000
  }

  /**
   * Expired records are deleted now and then, by whichever replica writes next: there is no
   * scheduler to run, and a record past its expiry is refused by oidc-provider anyway. An
   * expired grant is ended through the hook, which also releases its upstream credential.
   */
  purgeSoon() {
    const now = this.now()
    if (now - this.#lastPurge < this.#purgeIntervalMs) return
    this.#lastPurge = now
    void this.purge(now).catch(() => {
      // A failed sweep is retried by the next one; nothing depends on it.
    })
  }

  async purge(now = this.now()): Promise<void> {
    const expiredGrants = await this.store.db
      .selectFrom('oauth_records')
      .select('grant_id')
      .where('kind', '=', 'Grant')
      .where('expires_at', '<', now)
      .limit(PURGE_BATCH)
      .execute()
    for (const { grant_id } of expiredGrants) {
      if (grant_id) await this.hooks.grantExpired(grant_id)
    }
    await this.store.db
      .deleteFrom('oauth_records')
      .where('expires_at', '<', now)
      .where('kind', '!=', 'Grant')
      .execute()
  }
}

class StoreAdapter implements Adapter {
  constructor(
    private readonly kind: string,
    private readonly state: AdapterState,
  ) {}

  private get db() {
    return this.state.store.db
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const stored = this.storable(payload)
    const grantId =
      this.kind === 'Grant' ? id : typeof payload.grantId === 'string' ? payload.grantId : null
    const row = {
      grant_id: grantId,
      uid: typeof payload.uid === 'string' ? digest(payload.uid) : null,
      user_code: typeof payload.userCode === 'string' ? digest(payload.userCode) : null,
      payload: JSON.stringify(stored),
      expires_at: typeof expiresIn === 'number' ? this.state.now() + expiresIn * 1000 : null,
    }
    await this.db
      .insertInto('oauth_records')
      .values({ kind: this.kind, id: digest(id), consumed_at: null, ...row })
      .onConflict((conflict) => conflict.columns(['kind', 'id']).doUpdateSet(row))
      .execute()
    this.state.purgeSoon()
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .executeTakeFirst()
    return row ? this.restore(row, id) : undefined
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('uid', '=', digest(uid))
      .executeTakeFirst()
    // Only the digest of the id is known here: the record comes back without its `jti`, which is
    // how oidc-provider reads it (a session found by uid is checked, never saved).
    return row ? this.restore(row) : undefined
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'consumed_at'])
      .where('kind', '=', this.kind)
      .where('user_code', '=', digest(userCode))
      .executeTakeFirst()
    return row ? this.restore(row) : undefined
  }

  /**
   * Marks a single-use record used. oidc-provider checks `consumed` before calling this, but two
   * replicas can both pass that check; the conditional update lets exactly one through, and the
   * other is answered as the replay it is: the grant ends and the request gets invalid_grant.
   */
  async consume(id: string): Promise<void> {
    const result = await this.db
      .updateTable('oauth_records')
      .set({ consumed_at: this.state.now() })
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .where('consumed_at', 'is', null)
      .executeTakeFirst()
    if (result.numUpdatedRows > 0n || !SINGLE_USE.has(this.kind)) return
    const row = await this.db
      .selectFrom('oauth_records')
      .select('grant_id')
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .executeTakeFirst()
    if (!row) return
    if (row.grant_id) await this.state.hooks.grantDestroyed(row.grant_id)
    throw Object.assign(new errors.InvalidGrant(), {
      error_description: `${this.kind === 'RefreshToken' ? 'refresh token' : 'code'} already used`,
    })
  }

  async destroy(id: string): Promise<void> {
    await this.db
      .deleteFrom('oauth_records')
      .where('kind', '=', this.kind)
      .where('id', '=', digest(id))
      .execute()
    if (this.kind === 'Grant') await this.state.hooks.grantDestroyed(id)
  }

  /** Every record issued under the grant, of every kind, the grant itself included. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute()
  }

  /** The payload as stored: no id, the client secret and the session cookie digested. */
  private storable(payload: AdapterPayload): AdapterPayload {
    const { jti: _jti, ...rest } = payload
    if (this.kind === 'Client' && typeof rest.client_secret === 'string') {
      rest.client_secret = hashClientSecret(rest.client_secret)
    }
    if (this.kind === 'Interaction' && isRecord(rest.session)) {
      const { cookie, ...session } = rest.session
      rest.session = typeof cookie === 'string' ? { ...session, cookie: digest(cookie) } : session
    }
    return rest
  }

  private restore(
    row: { payload: string; consumed_at: number | null },
    id?: string,
  ): AdapterPayload {
    const payload = JSON.parse(row.payload) as AdapterPayload
    if (id !== undefined && this.kind !== 'Client') payload.jti = id
    if (row.consumed_at !== null) payload.consumed = Math.floor(row.consumed_at / 1000)
    return payload
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Writes a record that must be new (a client assertion's `jti`): true when this call wrote it,
 * false when it was there already. One conditional insert, so of two replicas presenting the same
 * value at once exactly one gets true. `expiresAt` is epoch milliseconds.
 */
export async function claimRecordOnce(
  store: Store,
  kind: string,
  id: string,
  expiresAt: number,
): Promise<boolean> {
  const result = await store.db
    .insertInto('oauth_records')
    .values({
      kind,
      id: digest(id),
      grant_id: null,
      uid: null,
      user_code: null,
      consumed_at: null,
      payload: '{}',
      expires_at: expiresAt,
    })
    .onConflict((conflict) => conflict.columns(['kind', 'id']).doNothing())
    .executeTakeFirst()
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
}

/** For the store's own maintenance and tests: sweep expired records now. */
export async function purgeExpiredRecords(store: Store, hooks: AdapterHooks, now = Date.now()) {
  await new AdapterState(store, hooks, {}).purge(now)
}
