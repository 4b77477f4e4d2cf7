import { setTimeout as sleep } from 'node:timers/promises'
import type { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import type { TestingMode } from '../services/profiles/index.js'
import type { SealedCredential, UpstreamCredentials } from '../vault/credentials.js'
import { CredentialRevokedError, UpstreamUnavailableError } from './errors.js'
import { ProviderRefusal, type OAuthClient } from './oauth-client.js'
import { OpenedAccessTokens } from './opened-access-tokens.js'
import type {
  UpstreamEvents,
  UpstreamRefreshOutcome,
  UpstreamRefreshReason,
} from './refresh-events.js'
import type { StoredTokenSet, StoredTokenSets } from './stored-token-set.js'
import { leaseHeld, needsRefresh, tokenSetFrom, withoutLease, type TokenSet } from './token-set.js'

/**
 * Access tokens for credentials, refreshed when they expire or are rejected, with ONE refresh at
 * the provider however many callers need it at once.
 *
 * In one process, callers for a credential share one promise (single flight).
 *
 * Across replicas, the replica that refreshes first takes a lease: it writes the token set back
 * with `refresh_lease_until` set, by compare-and-set on the row's `updated_at`. Of replicas that
 * read the same row, only one such write succeeds; the others re-read, see the lease, and poll the
 * row until the fresh token is there, which they then use instead of refreshing again. A lease
 * outlives the refresh deadline by a margin, so a replica that dies mid-refresh holds nobody up
 * for long. We chose this over a row lock (SELECT ... FOR UPDATE held across the provider call):
 * a lock would hold a pooled connection, and on SQLite the whole database, for as long as the
 * provider takes, and SQLite has no FOR UPDATE; compare-and-set is one plain UPDATE on both.
 */

/** How often a caller waiting on another replica's refresh looks at the row again. */
const POLL_MS = 100
/** How much longer than the provider's deadline a lease lasts. */
const LEASE_MARGIN_MS = 5_000
/**
 * A token obtained by a refresh after a 401 that is itself rejected this soon means the provider
 * no longer honours the credential (docs/design.md, "Disconnecting": "401 after one refresh").
 */
const REJECTED_AGAIN_WINDOW_MS = 5 * 60_000
const DAY_MS = 24 * 60 * 60_000

export interface RefresherDeps {
  client: OAuthClient
  tokenSets: StoredTokenSets
  credentials: UpstreamCredentials
  log: Logger
  deadlineMs: number
  /** For a credential the provider still refreshes but then refuses: end it there too. */
  revokeAndErase: (credentialId: string) => Promise<void>
  now?: () => number
  /** Where each renewal at the provider is told, by reason and outcome (refresh-events.ts). */
  events?: EventEmitter<UpstreamEvents>
  /** What the provider does to an app in testing (the profile's): its connections run out. */
  testingMode?: TestingMode
}

type Reason = UpstreamRefreshReason

export class TokenRefresher {
  readonly #flights = new Map<string, Promise<TokenSet>>()
  readonly #opened = new OpenedAccessTokens()
  readonly #deps: RefresherDeps
  readonly #now: () => number
  readonly #leaseMs: number

  constructor(deps: RefresherDeps) {
    this.#deps = deps
    this.#now = deps.now ?? Date.now
    this.#leaseMs = deps.deadlineMs + LEASE_MARGIN_MS
  }

  /** `read`: the credential's row, when the caller has just read it (with its grant). */
  async accessToken(credentialId: string, read?: SealedCredential): Promise<string> {
    const known = read && this.#opened.get(read)
    if (known && !needsRefresh(known, this.#now())) return known.access_token
    const { set } = await this.#read(credentialId, read)
    if (read) this.#opened.remember(read, set)
    if (!needsRefresh(set, this.#now())) return set.access_token
    return (await this.#flight(credentialId, 'expiry', set.access_token)).access_token
  }

  async afterUnauthorized(credentialId: string, rejectedToken: string): Promise<string> {
    const { set } = await this.#read(credentialId)
    const now = this.#now()
    if (set.access_token !== rejectedToken) {
      // Another caller refreshed since that call was made: its token is the one to use.
      return needsRefresh(set, now) ? this.accessToken(credentialId) : set.access_token
    }
    const since = set.refreshed_after_rejection_at
    if (since !== undefined && now - since < REJECTED_AGAIN_WINDOW_MS) {
      this.#deps.log.info({ credentialId }, 'refreshed upstream token rejected again')
      await this.#deps.revokeAndErase(credentialId)
      throw new CredentialRevokedError(credentialId)
    }
    return (await this.#flight(credentialId, 'rejected', rejectedToken)).access_token
  }

  /** The credential's token set: of `row` when the caller has just read it, else read now. */
  async #read(credentialId: string, row?: SealedCredential): Promise<StoredTokenSet> {
    const { tokenSets } = this.#deps
    const stored = row ? await tokenSets.open(row) : await tokenSets.read(credentialId)
    if (!stored) throw new CredentialRevokedError(credentialId)
    return stored
  }

  #flight(credentialId: string, reason: Reason, staleToken: string): Promise<TokenSet> {
    let flight = this.#flights.get(credentialId)
    if (!flight) {
      flight = this.#refresh(credentialId, reason, staleToken).finally(() =>
        this.#flights.delete(credentialId),
      )
      this.#flights.set(credentialId, flight)
    }
    return flight
  }

  /** Takes the lease and refreshes, or waits for the replica that holds it. */
  async #refresh(credentialId: string, reason: Reason, staleToken: string): Promise<TokenSet> {
    const giveUpAt = this.#now() + this.#leaseMs + 2 * POLL_MS
    for (;;) {
      const stored = await this.#read(credentialId)
      const now = this.#now()
      const { set } = stored
      if (set.access_token !== staleToken && !needsRefresh(set, now)) return set
      if (now >= giveUpAt) {
        throw new UpstreamUnavailableError(
          'The connection to the provider is being renewed elsewhere and it is taking long; try again shortly.',
          1,
        )
      }
      if (leaseHeld(set, now)) {
        await sleep(POLL_MS)
        continue
      }
      if (set.refresh_token === undefined) {
        // Nothing to renew it with: the connection has ended, like a refused refresh.
        await this.#deps.credentials.erase(credentialId)
        this.#deps.log.info(
          { credentialId },
          'upstream credential ran out (no refresh token): erased',
        )
        this.#deps.events?.emit('refresh', reason, 'revoked')
        throw new CredentialRevokedError(credentialId)
      }
      const claimed = await this.#deps.tokenSets.replace(stored, {
        ...set,
        refresh_lease_until: now + this.#leaseMs,
      })
      // Changed since it was read (another replica's lease or result, or an erase): look again.
      if (!claimed) continue
      return this.#told(reason, this.#refreshClaimed(claimed, set.refresh_token, reason))
    }
  }

  /** Tells how a renewal at the provider ended. */
  async #told(reason: Reason, refresh: Promise<TokenSet>): Promise<TokenSet> {
    const { events } = this.#deps
    if (!events) return refresh
    try {
      const fresh = await refresh
      events.emit('refresh', reason, 'ok')
      return fresh
    } catch (error) {
      events.emit('refresh', reason, refreshOutcome(error))
      throw error
    }
  }

  async #refreshClaimed(
    claimed: StoredTokenSet,
    refreshToken: string,
    reason: Reason,
  ): Promise<TokenSet> {
    const { log } = this.#deps
    const credentialId = claimed.id
    const started = this.#now()
    let fresh: TokenSet
    try {
      const response = await this.#deps.client.refresh(refreshToken)
      fresh = tokenSetFrom(response, this.#now(), claimed.set)
    } catch (error) {
      const ms = this.#now() - started
      if (error instanceof ProviderRefusal && error.error === 'invalid_grant') {
        await this.#deps.credentials.erase(credentialId)
        throw revokedError(this.#deps, claimed, ms, this.#now())
      }
      // Nothing is lost: give the lease back so that the next caller may try again at once.
      await this.#deps.tokenSets.replace(claimed, withoutLease(claimed.set)).catch((release) => {
        log.warn({ credentialId, reason: (release as Error).message }, 'refresh lease not released')
      })
      if (error instanceof UpstreamUnavailableError) {
        log.warn({ credentialId, ms, retryAfterSeconds: error.retryAfterSeconds }, error.message)
        throw error
      }
      if (error instanceof ProviderRefusal) {
        // invalid_client and the like: the connector's configuration, not the person's grant.
        log.error(
          { credentialId, ms, status: error.status, error: error.error },
          'upstream refresh refused',
        )
        throw new UpstreamUnavailableError(
          `The provider refused to renew the connection (${error.error}); try again later.`,
          undefined,
          { cause: error },
        )
      }
      throw error
    }
    if (reason === 'rejected') fresh.refreshed_after_rejection_at = this.#now()

    const written = await this.#deps.tokenSets.replace(claimed, fresh)
    if (!written) {
      // The lease was lost: erased by a disconnect meanwhile, or it ran out and another replica
      // took over. Prefer what is stored; ours stays valid, as the refresh token was not rotated.
      const current = await this.#read(credentialId)
      log.warn({ credentialId }, 'upstream refresh lease lost')
      const now = this.#now()
      return !needsRefresh(current.set, now) && !leaseHeld(current.set, now) ? current.set : fresh
    }
    log.info({ credentialId, reason, ms: this.#now() - started }, 'upstream token refreshed')
    return fresh
  }
}

/**
 * The provider refused to renew the credential (invalid_grant), which is now erased. Google says
 * the same of a connection revoked and of one that ran out because the app is in Testing mode;
 * one at least as old as Testing mode lets a connection live most likely ran out, and both the
 * person and the operator are told what to do about it.
 */
function revokedError(
  deps: Pick<RefresherDeps, 'log' | 'testingMode'>,
  claimed: StoredTokenSet,
  ms: number,
  now: number,
): CredentialRevokedError {
  const credentialId = claimed.id
  const days = deps.testingMode?.tokenDays
  const ageDays = Math.floor((now - claimed.createdAt) / DAY_MS)
  if (days === undefined || ageDays < days) {
    deps.log.info({ credentialId, ms }, 'upstream credential revoked at the provider: erased')
    return new CredentialRevokedError(credentialId)
  }
  deps.log.warn(
    { credentialId, ms, ageDays },
    `Google refused to renew a connection made ${days} days ago or more (invalid_grant), most likely because the app is in Testing mode in Google Auth Platform, which ends each connection ${days} days after it was made; the credential is erased and the person must connect again. To stop this, publish the app: Google Auth Platform → Audience → Publish app`,
  )
  return new CredentialRevokedError(credentialId, undefined, days)
}

/** How a renewal that threw ended (see #refreshClaimed: what each error means there). */
function refreshOutcome(error: unknown): UpstreamRefreshOutcome {
  if (error instanceof CredentialRevokedError) return 'revoked'
  if (error instanceof UpstreamUnavailableError)
    return error.cause instanceof ProviderRefusal ? 'refused' : 'unavailable'
  return 'error'
}
