import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import type { QuotaSettings, ServiceName, SharedQuotaName } from '../config/config.js'
import { CountBuffer } from '../store/count-buffer.js'
import { keyedDigests } from '../store/keyed-digests.js'
import { daysBefore, pacificDay, type PacificDay } from './pacific-day.js'
import type { DaySummary, QuotaUse } from './quota-use.js'
import { quotaLabel, SHARED_QUOTAS } from './shared-quotas.js'

/**
 * Fair shares of the provider project's daily quotas (docs/operations.md, "Fair shares of the
 * provider's quotas"). One project serves everyone, so one person's runaway loop could spend what
 * everybody needs for the day. Each quota is divided by the people holding a grant of its
 * service: a person's share. Under their share, a person's call always goes. Beyond it, a call
 * goes only while the project has room, and what is kept is:
 *
 * - the whole share of everyone who connected or used the quota this week, less what they spent
 *   of it today;
 * - for the people away (connected earlier, silent all week), a tenth of the quota, or their
 *   whole shares if that is less: the rest of theirs is what a busy person may borrow.
 *
 * Counting costs the hot path no statement: each replica counts in memory and adds its counts to
 * the shared table about once a second (quota-use.ts), reading back each person's total in the
 * same statement. What replicas have not yet added is at most a second of calls, a few queries
 * against shares of tens or thousands. A person first seen on a replica counts from 0 until that
 * batch brings their total back; the day's totals behind a decision beyond a share are read again
 * every few seconds.
 *
 * When the store cannot be reached, counts wait in memory and the decisions go on from what is
 * known: a store failure never stops a call (the rate limits behave the same way).
 */

/** The people holding a grant of a service, and those of them who made one this week. */
export interface PeopleHolding {
  people: number
  recent: number
}

export interface FairSharesDeps {
  /** The project's quotas, as the operator states them. */
  limits: QuotaSettings
  use: QuotaUse
  /** How many people hold a grant of a service, and made one since then (auth/grants.ts). */
  peopleHolding: (service: ServiceName, since: number) => Promise<PeopleHolding>
  /** The secret of the digest that stands for a person in the table. */
  keySecret: Buffer
  log: Logger
  /** The day's use crossed this fraction of a quota: the log warns, once a day per replica. */
  warnAt?: number
  now?: () => number
}

/** Why a call beyond a share is refused, in figures the model is told. */
export interface ShareRefusal {
  quota: SharedQuotaName
  /** What the quota counts: "Tasks queries". */
  counts: string
  /** What the person spent today. */
  used: number
  share: number
  limit: number
  people: number
  /** When the quota renews: the next midnight Pacific, epoch milliseconds. */
  renewsAt: number
}

export type ShareVerdict = { allowed: true } | { allowed: false; refusal: ShareRefusal }

/**
 * What fair shares tell, for whoever counts them (packages/connector/src/metrics listens): each
 * call refused beyond a share. How the quotas stand is read when asked (`standings`).
 */
export interface FairShareEvents {
  refused: [quota: SharedQuotaName]
}

/** How one shared quota stands, as a replica last read it. */
export interface QuotaStanding {
  quota: SharedQuotaName
  limit: number
  /** Today's use, the project's. */
  spent: number
  /** People holding a grant of its service. */
  people: number
  /** Each one's share. */
  share: number
}

/** How often counts are added to the shared table. */
const FLUSH_MS = 1_000
/** A person's total read longer ago than this is read again, in the background, near their share. */
const PERSON_FRESH_MS = 30_000
/** The day's totals behind a decision beyond a share. */
const SUMMARY_FRESH_MS = 5_000
/** The people holding grants: read again every 10 s, as a roll-out brings hundreds at once. */
const PEOPLE_FRESH_MS = 10_000
/** Kept for people who come back after more than a week: a tenth of the quota. */
const RETURNING_RESERVE = 0.1
/** Fair shares look back a week for who uses a quota; the table keeps a day more. */
const WEEK_DAYS = 7
const DAY_MS = 86_400_000
const KEPT_DAYS = 8

type Summary = DaySummary & { share: number; readAt: number }

/** Decisions beyond a share, remembered for so many people at most. */
const MAX_SUMMARIES = 1_000

const ALLOWED: ShareVerdict = Object.freeze({ allowed: true })

interface Known {
  used: number
  readAt: number
}

/** One quota on one Pacific day, as this replica knows it. */
class QuotaDay {
  /** People's totals as last read from the table (or added to it). */
  readonly known = new Map<string, Known>()
  /** People whose total is being read. */
  readonly reading = new Set<string>()
  /** The day's totals as last read, for whom (a decision's person; '' for the log and metrics). */
  readonly summaries = new Map<string, Summary>()
  warned = false

  constructor(
    readonly day: PacificDay,
    /** What this replica counted, by person, on its way to the table. */
    readonly counts: CountBuffer,
  ) {}
}

export class FairShares {
  /** Each call refused beyond a share, told as it is refused. */
  readonly events = new EventEmitter<FairShareEvents>()
  readonly #deps: FairSharesDeps
  readonly #now: () => number
  readonly #days = new Map<SharedQuotaName, QuotaDay>()
  readonly #people = new Map<ServiceName, PeopleHolding & { readAt: number }>()
  /** A person as the table knows them: a keyed digest of their account. */
  readonly #digest: (account: string) => string
  #storeFailing = false
  #sweptDay = ''

  constructor(deps: FairSharesDeps) {
    this.#deps = deps
    this.#now = deps.now ?? Date.now
    this.#digest = keyedDigests(deps.keySecret)
  }

  /** Whether `account` may make a call that spends `quota` now. Spends nothing; tells a refusal. */
  async admit(quota: SharedQuotaName, account: string): Promise<ShareVerdict> {
    const now = this.#now()
    const today = this.#today(quota, now)
    const person = this.#digest(account)
    const limit = this.#deps.limits[quota]
    // Known people are answered without a promise: this is on every call's path.
    const holding = this.#peopleOf(SHARED_QUOTAS[quota].service, now)
    const held = holding instanceof Promise ? await holding : holding
    // The caller holds a grant, whatever a count read before it was made says.
    const people = Math.max(1, held.people)
    const share = shareOf(limit, people)
    const used = this.#usedBy(quota, today, person, share, now)
    if (used < share) return ALLOWED
    const summary = await this.#summaryOf(quota, today, share, person, now)
    // Everyone's use today, this replica's not yet added included (and at least this person's,
    // should the totals be older than what was read of them).
    const spent = Math.max(summary.spent + today.counts.unwrittenTotal, used)
    // Kept: the others' shares, less what they spent within them, but for the people away: of
    // theirs, a tenth of the quota. Someone who both connected and spent this week counts twice
    // here, so that too much is kept rather than too little.
    // The caller is never among those away: they are calling.
    const away = Math.max(0, Math.min(people - 1, people - held.recent - summary.active))
    const kept =
      share * (people - away - 1) -
      summary.within +
      Math.min(Math.ceil(limit * RETURNING_RESERVE), share * away)
    if (limit - spent - kept > 0) return ALLOWED
    const refusal: ShareRefusal = {
      quota,
      counts: SHARED_QUOTAS[quota].counts,
      used,
      share,
      limit,
      people,
      renewsAt: today.day.endsAt,
    }
    this.events.emit('refused', quota)
    return { allowed: false, refusal }
  }

  /** Counts `queries` sent for `account` against `quota`. */
  spend(quota: SharedQuotaName, account: string, queries = 1): void {
    this.#today(quota, this.#now()).counts.add(this.#digest(account), queries)
  }

  /** Adds what this replica counted to the shared table now (else about once a second). */
  async flush(): Promise<void> {
    await Promise.all([...this.#days.values()].map((today) => today.counts.flush()))
  }

  /** How each quota stands, as this replica last read it. */
  standings(): QuotaStanding[] {
    return [...this.#days].map(([quota, today]) => {
      const people = this.#people.get(SHARED_QUOTAS[quota].service)?.people ?? 0
      const limit = this.#deps.limits[quota]
      return {
        quota,
        limit,
        spent: (today.summaries.get('')?.spent ?? 0) + today.counts.unwrittenTotal,
        people,
        share: shareOf(limit, people),
      }
    })
  }

  /** Adds what is left to count. */
  close(): Promise<void> {
    return this.flush()
  }

  /** One batch of a quota's day: added in one statement, each person's total read back. */
  async #write(quota: SharedQuotaName, today: QuotaDay, batch: ReadonlyMap<string, number>) {
    const rows = [...batch].map(([person, used]) => ({ quota, day: today.day.key, person, used }))
    const kept = await this.#deps.use.add(rows)
    const now = this.#now()
    for (const row of kept) today.known.set(row.person, { used: row.used, readAt: now })
    let added = 0
    for (const n of batch.values()) added += n
    for (const summary of today.summaries.values()) summary.spent += added
    if (this.#storeFailing) this.#deps.log.info('quota counts reach the store again')
    this.#storeFailing = false
  }

  /** Reads the day's totals now and then, and warns once a day when a quota runs low. */
  async #watch(quota: SharedQuotaName, today: QuotaDay, now: number) {
    const limit = this.#deps.limits[quota]
    const { people } = await this.#peopleOf(SHARED_QUOTAS[quota].service, now)
    const summary = await this.#summaryOf(quota, today, shareOf(limit, people), '', now)
    const spent = summary.spent + today.counts.unwrittenTotal
    if (today.warned || spent < limit * (this.#deps.warnAt ?? 0.8)) return
    today.warned = true
    this.#deps.log.warn(
      { quota: quotaLabel(quota), spent, limit, people, day: today.day.key },
      `the provider project has spent ${Math.round((spent / limit) * 100)}% of today's ${SHARED_QUOTAS[quota].counts}: people beyond their fair share are refused until midnight Pacific; if this happens often, ask the provider for more (docs/operations.md, "Fair shares of the provider's quotas")`,
    )
  }

  /** The table keeps eight days; the older ones go once a day, from one flush. */
  async #sweep(now: number) {
    const { key } = pacificDay(now)
    if (this.#sweptDay === key) return
    this.#sweptDay = key
    await this.#deps.use.forgetBefore(daysBefore(key, KEPT_DAYS - 1))
  }

  #today(quota: SharedQuotaName, now: number): QuotaDay {
    const today = this.#days.get(quota)
    if (!today || now >= today.day.endsAt) {
      // A new day. What the day before counted and has not added yet still goes to its day.
      void today?.counts.flush()
      const day: QuotaDay = new QuotaDay(
        pacificDay(now),
        new CountBuffer({
          write: (batch): Promise<void> => this.#write(quota, day, batch),
          // Not the batch's business: a failure here must not count it again.
          written: async () => {
            const now = this.#now()
            await this.#watch(quota, day, now)
            await this.#sweep(now)
          },
          everyMs: FLUSH_MS,
          onError: (error) => {
            // Kept to add next time; the decisions meanwhile go on from what is known.
            if (!this.#storeFailing)
              this.#deps.log.warn({ err: error }, 'quota counts wait in memory: the store failed')
            this.#storeFailing = true
          },
        }),
      )
      this.#days.set(quota, day)
      return day
    }
    return today
  }

  /**
   * What `person` spent today: their total as this replica last added to it (or read it), and
   * what it counted since. Nothing is waited for: a person first seen here counts from 0 until
   * the next batch (within a second) brings back their total, and one nearing their share whose
   * total is old is read again in the background. So a person calling several replicas is known
   * to each within a second of being counted there: at worst each replica lets a second's calls
   * of theirs through beyond their share (two, at the default tool-call limit).
   */
  #usedBy(quota: SharedQuotaName, today: QuotaDay, person: string, share: number, now: number) {
    const known = today.known.get(person)
    const counted = today.counts.unwritten(person)
    const stale =
      known !== undefined && now - known.readAt > PERSON_FRESH_MS && known.used * 2 >= share
    if (stale && !today.reading.has(person)) {
      today.reading.add(person)
      this.#deps.use
        .usedBy(quota, today.day.key, person)
        .then(
          (used) => {
            // An addition may have brought a newer total meanwhile.
            const now = this.#now()
            const latest = today.known.get(person)
            if (!latest || latest.readAt <= now) today.known.set(person, { used, readAt: now })
          },
          () => {},
        )
        .finally(() => today.reading.delete(person))
    }
    return (known?.used ?? 0) + counted
  }

  async #summaryOf(
    quota: SharedQuotaName,
    today: QuotaDay,
    share: number,
    person: string,
    now: number,
  ): Promise<Summary> {
    const last = today.summaries.get(person)
    if (last && last.share === share && now - last.readAt <= SUMMARY_FRESH_MS) return last
    let summary: Summary
    try {
      const weekStart = daysBefore(today.day.key, WEEK_DAYS - 1)
      const read = await this.#deps.use.summary(quota, today.day.key, weekStart, share, person)
      summary = { ...read, share, readAt: now }
    } catch {
      // Without the store: what was last known, or nothing spent.
      summary = last ?? { spent: 0, active: 0, within: 0, share, readAt: now }
    }
    // A person beyond their share is rare: the few are kept, the rest read again.
    if (today.summaries.size >= MAX_SUMMARIES) today.summaries.clear()
    today.summaries.set(person, summary)
    return summary
  }

  /** Read once; then, when old, read again in the background while the last count serves. */
  #peopleOf(service: ServiceName, now: number): PeopleHolding | Promise<PeopleHolding> {
    const last = this.#people.get(service)
    const read = () =>
      this.#deps.peopleHolding(service, now - WEEK_DAYS * DAY_MS).then((holding) => {
        const known = { ...holding, readAt: now }
        this.#people.set(service, known)
        return known
      })
    if (!last) {
      // Without the store: one person holding every share, until it answers.
      return read().catch(() => ({ people: 1, recent: 1 }))
    }
    if (now - last.readAt > PEOPLE_FRESH_MS) {
      last.readAt = now
      read().catch(() => {})
    }
    return last
  }
}

/** A person's share: the quota divided by the people holding a grant, at least one query. */
const shareOf = (limit: number, people: number) =>
  Math.max(1, Math.floor(limit / Math.max(1, people)))
