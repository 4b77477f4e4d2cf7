import { createHash } from 'node:crypto'
import { isServiceName, type ServiceName } from '../services/catalog.js'
import type { Store } from '../store/open.js'
import { SealedValueError } from '../vault/errors.js'
import type { Vault } from '../vault/vault.js'
import { OAuthClient } from './oauth-client.js'

/**
 * Authorizations at the provider under way, one per `state` sent. The state is random, valid 10
 * minutes and single use; only its SHA-256 is stored, so a copy of the database cannot answer a
 * callback. The PKCE verifier (and a sign-in's return path) are sealed by the vault.
 */

const PENDING_TTL_MS = 10 * 60_000
/** Expired rows are kept a while longer, so that a late return is told "expired", not "unknown". */
const KEEP_EXPIRED_MS = 60 * 60_000

export type CallbackKind = 'authorization' | 'sign-in'

export interface PendingAuthorization {
  kind: 'authorization'
  interactionUid: string
  service: ServiceName
  scopes: string[]
  codeVerifier: string
}

export interface PendingSignIn {
  kind: 'sign-in'
  returnTo: string
  codeVerifier: string
}

export type Pending = PendingAuthorization | PendingSignIn

export type Taken<K extends CallbackKind> =
  { status: 'taken'; pending: Extract<Pending, { kind: K }> } | { status: 'unknown' | 'expired' }

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex')

/** Sealed fields are bound to their row and field: a value copied elsewhere does not open. */
const binding = (hash: string, field: 'code_verifier' | 'return_to') =>
  JSON.stringify(['upstream_authorizations', hash, field])

export class PendingAuthorizations {
  constructor(
    private readonly store: Store,
    private readonly vault: Vault,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a new pending authorization and returns the state to send with it. */
  async create(pending: Pending): Promise<string> {
    const state = OAuthClient.newState()
    const hash = stateHash(state)
    const now = this.now()
    await this.store.db
      .deleteFrom('upstream_authorizations')
      .where('expires_at', '<', now - KEEP_EXPIRED_MS)
      .execute()
    await this.store.db
      .insertInto('upstream_authorizations')
      .values({
        state_hash: hash,
        kind: pending.kind,
        interaction_uid: pending.kind === 'authorization' ? pending.interactionUid : null,
        service: pending.kind === 'authorization' ? pending.service : null,
        scopes: pending.kind === 'authorization' ? pending.scopes.join(' ') : null,
        code_verifier: this.vault.seal(pending.codeVerifier, binding(hash, 'code_verifier')),
        return_to:
          pending.kind === 'sign-in'
            ? this.vault.seal(pending.returnTo, binding(hash, 'return_to'))
            : null,
        expires_at: now + PENDING_TTL_MS,
      })
      .execute()
    return state
  }

  /** What the state was sent for, without using it up; undefined if unknown. */
  async kindOf(state: string): Promise<CallbackKind | undefined> {
    const row = await this.store.db
      .selectFrom('upstream_authorizations')
      .select('kind')
      .where('state_hash', '=', stateHash(state))
      .executeTakeFirst()
    return row?.kind === 'authorization' || row?.kind === 'sign-in' ? row.kind : undefined
  }

  /**
   * Uses the state up. The delete is the check: of two requests bringing the same state back, on
   * any replicas, exactly one gets the row.
   */
  async take<K extends CallbackKind>(state: string, kind: K): Promise<Taken<K>> {
    const hash = stateHash(state)
    const row = await this.store.db
      .deleteFrom('upstream_authorizations')
      .where('state_hash', '=', hash)
      .where('kind', '=', kind)
      .returningAll()
      .executeTakeFirst()
    if (!row) return { status: 'unknown' }
    if (row.expires_at <= this.now()) return { status: 'expired' }
    try {
      const codeVerifier = this.vault.open(row.code_verifier, binding(hash, 'code_verifier'))
      if (row.kind === 'sign-in' && row.return_to !== null) {
        const returnTo = this.vault.open(row.return_to, binding(hash, 'return_to'))
        return { status: 'taken', pending: { kind: 'sign-in', returnTo, codeVerifier } } as Taken<K>
      }
      if (row.kind === 'authorization' && row.service !== null && isServiceName(row.service)) {
        const pending: PendingAuthorization = {
          kind: 'authorization',
          interactionUid: row.interaction_uid ?? '',
          service: row.service,
          scopes: (row.scopes ?? '').split(' ').filter(Boolean),
          codeVerifier,
        }
        return { status: 'taken', pending } as Taken<K>
      }
    } catch (error) {
      // Sealed under a key the vault no longer holds: as good as unknown; the person starts again.
      if (!(error instanceof SealedValueError)) throw error
    }
    return { status: 'unknown' }
  }
}
