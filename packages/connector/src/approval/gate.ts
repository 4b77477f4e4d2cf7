import { EventEmitter, once } from 'node:events'
import type { Logger } from 'pino'
import type { Decided } from '../pages/approvals-page.js'
import type { AccessMode, ChangeDescription } from '../services/definition.js'
import type { Channel, Store } from '../store/open.js'
import type { Vault } from '../vault/vault.js'
import { AuditTrail } from './audit.js'
import { approvalKey, ArgumentDigests, isApprovalId, newApprovalId } from './digest.js'
import { ApprovalStore, type ApprovalRow, type ApprovalWithGrant } from './store.js'

/**
 * The approval gate (docs/design.md, "Approval of changes"): a change is sent only with the
 * person's approval of exactly that call - the grant, the tool and the digest of its canonical
 * arguments - used once, within 10 minutes.
 *
 *   request  a call needs approval: a pending approval and the URL of its page
 *   decide   the grant's person answers on that page (or, for auth-token tools, in the client)
 *   consume  the call comes again: it goes through once if approved, else the reason it does not
 *
 * The page's id is random (256 bits) and stored as its SHA-256 only. The call's arguments and its
 * description are sealed by the vault, bound to the approval, and erased once decided or expired;
 * the etag the person saw stays sealed until the call uses it. Expired approvals are expired and
 * erased by whichever call comes next, on any replica, and forgotten an hour later.
 */

export const APPROVAL_TTL_MS = 10 * 60_000

/**
 * What the gate tells of its approvals, for whoever counts them (packages/connector/src/metrics
 * listens), and the words it tells them in.
 */
export interface ApprovalEvents {
  /**
   * An approval was decided or ran out, where the audit trail records it; `tool` as the approval
   * was stored.
   */
  decided: [tool: string, decision: ApprovalDecision]
}

/** What became of an approval. */
export const APPROVAL_DECISION_MEANINGS = {
  approved: 'on the page or in the assistant',
  declined:
    'on the page or in the assistant (a question dismissed in the assistant decides nothing)',
  expired: `undecided after ${APPROVAL_TTL_MS / 60_000} minutes; or approved and not used within them, counted as approved, then expired`,
} as const
export type ApprovalDecision = keyof typeof APPROVAL_DECISION_MEANINGS

/**
 * How often a waiting call reads its approval again when no word of a decision came: a replica's
 * channel may be down for a moment, and what it missed is in the store.
 */
const DECISION_POLL_MS = 2_000
/** How often a tool call's path expires approvals at most (#expireOnCall). */
const EXPIRY_SWEEP_MS = 5_000

export interface ApprovalDeps {
  store: Store
  vault: Vault
  publicUrl: string
  log: Logger
  now?: () => number
  /** Where decisions are recorded; by default the store's audit trail. */
  audit?: AuditTrail
  /**
   * Where each decision is said to the replicas, so that a call waiting for it on any of them
   * goes on at once (awaitDecision); unset, waiting calls find it by reading the store.
   */
  decisions?: Channel
}

export interface ApprovalCall {
  grantId: string
  tool: string
  /** The call's input, as validated: the same values must come with the retried call. */
  args: unknown
}

export interface ApprovalRequest extends ApprovalCall {
  description: ChangeDescription
  mode: AccessMode
}

export type ConsumeRefusal = 'none' | 'pending' | 'declined' | 'expired' | 'used'

export type ConsumeResult =
  | {
      ok: true
      /** The etag of the resource the person saw: send the change with it as If-Match. */
      ifMatch?: string
      /** The approval's reference (the digest of its id, as stored): for logs, not a URL. */
      approvalId: string
    }
  | { ok: false; reason: ConsumeRefusal }

export type Decision = 'approve' | 'decline'
export type { Decided }

export type DecideResult =
  | { ok: true; decision: Decided }
  | { ok: false; reason: 'decided'; decision: Decided }
  | {
      ok: false
      /**
       * 'not found': no such approval (or not of this grant); 'ended': its grant has ended;
       * 'not yours': another person's; 'expired': too late; 'per-call': only its page approves it.
       */
      reason: 'not found' | 'ended' | 'not yours' | 'expired' | 'per-call'
    }

/** One approval as its page shows it. */
export type ApprovalView =
  | { found: false }
  | {
      found: true
      grantId: string
      tool: string
      mode: AccessMode
      /** 'approved' stays so once used; `used` says whether the call went through. */
      status: 'pending' | 'approved' | 'declined' | 'expired'
      used: boolean
      expiresAt: number
      /** The grant's person, client and service; undefined once the grant has ended. */
      grant?: { account: string; clientId: string; service: string }
      /** Only while pending. */
      description?: ChangeDescription
    }

/** A change waiting for its person, as the page that lists them shows it. */
export interface WaitingChange {
  /** The id in its page's URL. */
  id: string
  grantId: string
  tool: string
  mode: AccessMode
  clientId: string
  service: string
  description: ChangeDescription
  createdAt: number
  expiresAt: number
}

/** The person's answer in the client, which an approval given there is also the use of. */
export type ClientDecision =
  | { ok: true; decision: 'declined' }
  | {
      ok: true
      decision: 'approved'
      /** As ConsumeResult's: the call goes now, with this etag as If-Match. */
      approvalId: string
      ifMatch?: string
    }
  | Exclude<DecideResult, { ok: true }>

/** What a call that waited for the person found: 'pending' when it stopped waiting first. */
export type Awaited = 'pending' | 'approved' | 'declined' | 'expired'

/** What became of one change of an "Approve all". */
export interface ApprovedOfMany {
  id: string
  result: DecideResult
}

/** What is sealed of a call: bound to the approval's key and to the field it is kept in. */
interface SealedCall {
  args: unknown
  description: ChangeDescription
}

const binding = (key: string, field: 'id' | 'call' | 'if-match') => `approval ${key} ${field}`

export class Approvals {
  /** Each decision and expiry, told where the audit trail records it (ApprovalEvents). */
  readonly events = new EventEmitter<ApprovalEvents>()
  readonly #store: ApprovalStore
  readonly #digests: ArgumentDigests
  readonly #vault: Vault
  readonly #publicUrl: string
  readonly #log: Logger
  readonly #now: () => number
  /** When approvals were last expired by this replica. */
  #swept = -Infinity
  readonly #audit: AuditTrail
  readonly #decisions: Channel | undefined
  /** Each decision by its approval's key, from any replica, for the calls waiting here. */
  readonly #decided = new EventEmitter().setMaxListeners(0)
  #listening: Promise<unknown> | undefined
  /** Aborted as the replica stops: its waiting calls answer with the link at once. */
  readonly #stopping = new AbortController()

  constructor(deps: ApprovalDeps) {
    this.#store = new ApprovalStore(deps.store)
    this.#digests = new ArgumentDigests(deps.vault)
    this.#vault = deps.vault
    this.#publicUrl = deps.publicUrl.replace(/\/+$/, '')
    this.#log = deps.log
    this.#now = deps.now ?? Date.now
    this.#audit = deps.audit ?? new AuditTrail(deps.store, this.#now)
    this.#decisions = deps.decisions
  }

  /** The approval page of an approval. */
  urlOf(id: string): string {
    return `${this.#publicUrl}/approvals/${id}`
  }

  /**
   * A pending approval for exactly this call, valid 10 minutes, and its page: the one already
   * pending for the same grant, tool and arguments if there is one, else a new one.
   */
  async request(call: ApprovalRequest): Promise<{ id: string; url: string; expiresAt: number }> {
    const waiting = await this.waiting(call)
    if (waiting) return { id: waiting.id, url: waiting.url, expiresAt: waiting.expiresAt }
    const now = this.#now()
    const digests = this.#digests.of(call.args)
    const id = newApprovalId()
    const key = approvalKey(id)
    const sealed: SealedCall = { args: call.args, description: call.description }
    await this.#store.insert({
      id: key,
      grant_id: call.grantId,
      tool: call.tool,
      args_digest: digests[0]!,
      mode: call.mode,
      status: 'pending',
      sealed_id: this.#vault.seal(id, binding(key, 'id')),
      sealed_call: this.#vault.seal(JSON.stringify(sealed), binding(key, 'call')),
      sealed_if_match:
        call.description.ifMatch === undefined
          ? null
          : this.#vault.seal(call.description.ifMatch, binding(key, 'if-match')),
      created_at: now,
      expires_at: now + APPROVAL_TTL_MS,
      decided_at: null,
      used_at: null,
    })
    return { id, url: this.urlOf(id), expiresAt: now + APPROVAL_TTL_MS }
  }

  /**
   * The approval pending for exactly this call, with the description the person is shown; undefined
   * when none is (or it can no longer be opened, so that the caller asks anew).
   */
  async waiting(
    call: ApprovalCall,
  ): Promise<
    { id: string; url: string; description: ChangeDescription; expiresAt: number } | undefined
  > {
    await this.#expireOnCall()
    const now = this.#now()
    const rows = await this.#store.ofCall(call.grantId, call.tool, this.#digests.of(call.args))
    const row = rows.find(
      (r) => r.status === 'pending' && r.expires_at > now && r.sealed_id !== null,
    )
    if (!row) return undefined
    try {
      const id = this.#vault.open(row.sealed_id!, binding(row.id, 'id'))
      const sealed = this.#callOf(row)
      if (sealed)
        return {
          id,
          url: this.urlOf(id),
          description: sealed.description,
          expiresAt: row.expires_at,
        }
    } catch (error) {
      this.#log.warn({ err: error }, 'a pending approval could not be opened; asking anew')
    }
    return undefined
  }

  /**
   * The call came again: if an approval of exactly this call is approved, unused and unexpired,
   * it is used (once, across replicas) and the call may go, with the etag the person saw.
   * Otherwise why not: 'pending' (not decided yet), else the latest approval's fate - 'declined',
   * 'expired' or 'used' - or 'none' when this call was never asked about. Only 'pending' means
   * asking again is pointless; after any other reason, request() asks the person anew.
   *
   * A decline is told once, like an approval is used once: the call that learns of it is refused
   * with 'declined'; the same call coming after that is one the person has not been asked about.
   */
  async consume(call: ApprovalCall): Promise<ConsumeResult> {
    await this.#expireOnCall()
    const now = this.#now()
    const digests = this.#digests.of(call.args)
    const rows = await this.#store.ofCall(call.grantId, call.tool, digests)
    const live = rows.find(
      (row) => row.status === 'approved' && row.used_at === null && row.expires_at > now,
    )
    if (live) {
      // Opened first: a call that cannot be sent with the etag the person saw is not sent.
      const ifMatch = this.#ifMatchOf(live)
      if (await this.#store.use(live.id, now)) return { ok: true, approvalId: live.id, ifMatch }
      await this.#audit.record({
        grantId: call.grantId,
        tool: call.tool,
        decision: 'replayed',
        approvalId: live.id,
      })
      return { ok: false, reason: 'used' }
    }
    if (rows.some((row) => row.status === 'pending' && row.expires_at > now)) {
      return { ok: false, reason: 'pending' }
    }
    const latest = rows[0]
    if (!latest) {
      if (await this.#store.approvedWithOtherArguments(call.grantId, call.tool, digests, now)) {
        await this.#audit.record({ grantId: call.grantId, tool: call.tool, decision: 'mismatch' })
      }
      return { ok: false, reason: 'none' }
    }
    if (latest.status === 'declined') {
      const told = latest.used_at === null && (await this.#store.use(latest.id, now, 'declined'))
      return { ok: false, reason: told ? 'declined' : 'none' }
    }
    if (latest.status === 'approved' && latest.used_at !== null) {
      await this.#audit.record({
        grantId: call.grantId,
        tool: call.tool,
        decision: 'replayed',
        approvalId: latest.id,
      })
      return { ok: false, reason: 'used' }
    }
    return { ok: false, reason: 'expired' }
  }

  /** The person's answer on the approval page: only the grant's own person decides, once. */
  async decide(id: string, decision: Decision, person: string): Promise<DecideResult> {
    return this.#decide(id, decision, (row) =>
      row.account !== null && row.account !== person ? 'not yours' : undefined,
    )
  }

  /**
   * "Approve all" on the page that lists a person's waiting changes: each of `ids` approved by
   * itself (and recorded so), if it is the person's, still waiting, and approved in the client's
   * way (auth-token): a per-call change (a deletion) is approved only on its own.
   */
  async approveAll(ids: readonly string[], person: string): Promise<ApprovedOfMany[]> {
    const results: ApprovedOfMany[] = []
    for (const id of ids) {
      const result = await this.#decide(id, 'approve', (row) => {
        if (row.account !== null && row.account !== person) return 'not yours'
        if (row.mode !== 'auth-token') return 'per-call'
        return undefined
      })
      results.push({ id, result })
    }
    return results
  }

  /**
   * Every change waiting for `person`, from any of their assistants and services, oldest first,
   * with what its page shows: one that cannot be opened is left out (its call asks anew).
   */
  async waitingFor(person: string): Promise<WaitingChange[]> {
    await this.expire()
    const rows = await this.#store.pendingOfPerson(person, this.#now())
    const changes: WaitingChange[] = []
    for (const row of rows) {
      if (row.sealed_id === null || row.client_id === null || row.service === null) continue
      let id: string
      try {
        id = this.#vault.open(row.sealed_id, binding(row.id, 'id'))
      } catch (error) {
        this.#log.warn({ err: error }, 'a pending approval could not be opened')
        continue
      }
      const sealed = this.#callOf(row)
      if (!sealed) continue
      changes.push({
        id,
        grantId: row.grant_id,
        tool: row.tool,
        mode: row.mode as AccessMode,
        clientId: row.client_id,
        service: row.service,
        description: sealed.description,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      })
    }
    return changes
  }

  /**
   * The person's answer given in the client (MCP elicitation), for the grant the client holds and
   * the call it comes back with: an answer about other arguments is 'not found'. A per-call
   * approval is never approved this way: only its page, where the connector itself checks who the
   * person is. Declining from the client is always allowed, and is told by that same answer.
   *
   * The answer comes with the call it decides, so it is that call's use too: an approval given
   * here lets this call go (with the etag the person saw) and no other, in the one statement that
   * records it, as a decline is told in the one that records it.
   */
  async decideFromClient(
    id: string,
    call: ApprovalCall,
    decision: Decision,
  ): Promise<ClientDecision> {
    const digests = new Set(this.#digests.of(call.args))
    let ifMatch: string | undefined
    const decided = await this.#decide(
      id,
      decision,
      (row) => {
        if (row.grant_id !== call.grantId || row.tool !== call.tool) return 'not found'
        if (!digests.has(row.args_digest)) return 'not found'
        if (decision === 'approve' && row.mode !== 'auth-token') return 'per-call'
        // Opened first: a call that cannot be sent with the etag the person saw is not sent.
        ifMatch = this.#ifMatchOf(row)
        return undefined
      },
      true,
    )
    if (!decided.ok) return decided
    if (decided.decision === 'declined') return { ok: true, decision: 'declined' }
    return { ok: true, decision: 'approved', approvalId: approvalKey(id), ifMatch }
  }

  /** The person a change waits for (its grant's); undefined once the grant has ended. */
  async personOf(id: string): Promise<string | undefined> {
    if (!isApprovalId(id)) return undefined
    return (await this.#store.byKey(approvalKey(id)))?.account ?? undefined
  }

  /**
   * Waits for the person to decide the change `id`, decided on whichever replica, until `signal`
   * aborts or the replica stops: what became of it, or 'pending' when it is still undecided.
   * Word of a decision comes through the replicas' channel; the store is read again every few
   * seconds as well, for one that a channel down for a moment missed.
   */
  async awaitDecision(id: string, signal: AbortSignal): Promise<Awaited> {
    const key = approvalKey(id)
    const stop = AbortSignal.any([signal, this.#stopping.signal])
    await this.#listen()
    while (!stop.aborted) {
      // Listening before reading: a decision made in between is not missed.
      const word = once(this.#decided, key, {
        signal: AbortSignal.any([stop, AbortSignal.timeout(DECISION_POLL_MS)]),
      }).catch(() => undefined)
      const row = await this.#store.byKey(key)
      const status = row ? this.#statusOf(row) : 'expired'
      if (status !== 'pending') return status
      await word
    }
    return 'pending'
  }

  /** Stops every wait of this replica's calls (it is stopping). */
  stopWaiting(): void {
    this.#stopping.abort()
  }

  /** Subscribes once to the replicas' word of decisions; without it, waits read the store. */
  #listen(): Promise<unknown> {
    this.#listening ??= (
      this.#decisions?.subscribe((key) => this.#decided.emit(key)) ?? Promise.resolve()
    ).catch((error: unknown) => {
      this.#listening = undefined
      this.#log.warn(
        { err: error },
        'decisions are not heard from the other replicas: read instead',
      )
    })
    return this.#listening
  }

  /** Tells the calls waiting for `key`, on every replica, that it was decided. */
  #said(key: string): void {
    if (!this.#decisions) {
      this.#decided.emit(key)
      return
    }
    this.#decisions.publish(key).catch((error: unknown) => {
      // The waiting call reads the store again within DECISION_POLL_MS.
      this.#log.warn({ err: error }, 'a decision could not be said to the other replicas')
    })
  }

  /** An approval for its page; the description is opened only while it is pending. */
  async view(id: string): Promise<ApprovalView> {
    if (!isApprovalId(id)) return { found: false }
    await this.expire()
    const row = await this.#store.byKey(approvalKey(id))
    if (!row) return { found: false }
    const status = this.#statusOf(row)
    return {
      found: true,
      grantId: row.grant_id,
      tool: row.tool,
      mode: row.mode as AccessMode,
      status,
      used: row.used_at !== null,
      expiresAt: row.expires_at,
      grant:
        row.account !== null && row.client_id !== null && row.service !== null
          ? { account: row.account, clientId: row.client_id, service: row.service }
          : undefined,
      description: status === 'pending' ? this.#callOf(row)?.description : undefined,
    }
  }

  /**
   * On a tool call's path, expiring waits until EXPIRY_SWEEP_MS after the last: every check there
   * reads an approval's expiry itself, so a sweep only erases what expired approvals held and
   * records their expiry, which a few seconds later does as well as on every call (two statements
   * each). Deciding reads the expiry too (store.ts, `decide`). The pages that list or show
   * approvals sweep every time.
   */
  async #expireOnCall(): Promise<void> {
    const now = this.#now()
    if (now >= this.#swept && now - this.#swept < EXPIRY_SWEEP_MS) return
    await this.expire()
  }

  /** Expires what ran out, erasing what it held, and records each expiry once. */
  async expire(): Promise<void> {
    this.#swept = this.#now()
    try {
      for (const { id, grant_id, tool } of await this.#store.expire(this.#now())) {
        this.events.emit('decided', tool, 'expired')
        await this.#audit.record({ grantId: grant_id, tool, decision: 'expired', approvalId: id })
      }
    } catch (error) {
      // The next call tries again; every check below reads the expiry itself.
      this.#log.warn({ err: error }, 'could not expire approvals')
    }
  }

  async #decide(
    id: string,
    decision: Decision,
    refuse: (row: ApprovalWithGrant) => 'not yours' | 'not found' | 'per-call' | undefined,
    told = false,
  ): Promise<DecideResult> {
    if (!isApprovalId(id)) return { ok: false, reason: 'not found' }
    await this.#expireOnCall()
    const key = approvalKey(id)
    const row = await this.#store.byKey(key)
    if (!row) return { ok: false, reason: 'not found' }
    const refusal = refuse(row)
    if (refusal) return { ok: false, reason: refusal }
    if (row.account === null) return { ok: false, reason: 'ended' }
    const status = decision === 'approve' ? 'approved' : 'declined'
    if (await this.#store.decide(key, status, this.#now(), told)) {
      this.events.emit('decided', row.tool, status)
      await this.#audit.record({
        grantId: row.grant_id,
        tool: row.tool,
        decision: status,
        approvalId: key,
      })
      this.#said(key)
      return { ok: true, decision: status }
    }
    // Decided or expired since it was read: say which.
    const after = await this.#store.byKey(key)
    const current = after ? this.#statusOf(after) : 'expired'
    if (current === 'approved' || current === 'declined') {
      return { ok: false, reason: 'decided', decision: current }
    }
    return { ok: false, reason: 'expired' }
  }

  #statusOf(row: ApprovalRow): 'pending' | 'approved' | 'declined' | 'expired' {
    const status = row.status as 'pending' | 'approved' | 'declined' | 'expired'
    if (status === 'pending' && row.expires_at <= this.#now()) return 'expired'
    if (status === 'approved' && row.used_at === null && row.expires_at <= this.#now()) {
      return 'expired'
    }
    return status
  }

  #callOf(row: ApprovalRow): SealedCall | undefined {
    if (row.sealed_call === null) return undefined
    try {
      return JSON.parse(this.#vault.open(row.sealed_call, binding(row.id, 'call'))) as SealedCall
    } catch (error) {
      this.#log.warn({ err: error }, 'an approval could not be opened')
      return undefined
    }
  }

  #ifMatchOf(row: ApprovalRow): string | undefined {
    if (row.sealed_if_match === null) return undefined
    return this.#vault.open(row.sealed_if_match, binding(row.id, 'if-match'))
  }
}
