import { usageLimitError } from '../http/errors.js'
import type { QuotaLimits } from './quota-limits.js'

/**
 * A property's quota as `returnPropertyQuota` shows it: tokens spent this hour and today, per
 * property, in memory, for one running sandbox (`POST /_sandbox/reset` empties it), against the
 * limits in force (quota-limits.ts). runReport, batchRunReports and runRealtimeReport spend the
 * same tokens. A request whose reports do not fit in what is left of the day or of the hour is
 * refused before it runs, with Google's 429, and costs nothing (docs/sandbox.md, "Quotas").
 */

/** The rest of a standard property's limits, which the sandbox only reports. */
const STANDARD = {
  tokensPerProjectPerHour: 14_000,
  concurrentRequests: 10,
  serverErrorsPerProjectPerHour: 10,
  potentiallyThresholdedRequestsPerHour: 120,
}
/** What one report costs here (the real API charges by the report's size, mostly under 10). */
const TOKENS_PER_REPORT = 5
const MAX_PROPERTIES = 10_000

interface Spent {
  hour: number
  day: number
  thisHour: number
  today: number
}

const periodsOf = (now: number) => {
  const hour = Math.floor(now / 3_600_000)
  return { hour, day: Math.floor(hour / 24) }
}

/** Google's answer once a property's tokens for the day or the hour are spent. */
const exhausted = (period: 'day' | 'hour') =>
  usageLimitError(
    429,
    'rateLimitExceeded',
    `Exhausted property tokens per ${period} for this property.`,
    'analyticsdata.googleapis.com',
    'RATE_LIMIT_EXCEEDED',
  )

export class PropertyQuotas {
  readonly #spent = new Map<string, Spent>()
  readonly #limits: QuotaLimits

  constructor(limits: QuotaLimits) {
    this.#limits = limits
  }

  /**
   * Refuses a request of `reports` reports whose tokens the property has no longer left: the
   * day's limit first, the longer wait. It charges nothing; `charge` does, once a report ran.
   */
  admit(property: string, reports: number, now: number): void {
    const { hour, day } = periodsOf(now)
    const entry = this.#spent.get(property)
    const cost = reports * TOKENS_PER_REPORT
    const limits = this.#limits.current
    if ((entry?.day === day ? entry.today : 0) + cost > limits.analyticsTokensPerDay)
      throw exhausted('day')
    if ((entry?.hour === hour ? entry.thisHour : 0) + cost > limits.analyticsTokensPerHour)
      throw exhausted('hour')
  }

  /** Charges one report to the property and says where its quota stands. */
  charge(property: string, now: number) {
    const { hour, day } = periodsOf(now)
    const spent = this.#spent
    let entry = spent.get(property)
    if (!entry) {
      if (spent.size >= MAX_PROPERTIES) spent.delete(spent.keys().next().value!)
      spent.set(property, (entry = { hour, day, thisHour: 0, today: 0 }))
    }
    if (entry.day !== day) Object.assign(entry, { day, today: 0 })
    if (entry.hour !== hour) Object.assign(entry, { hour, thisHour: 0 })
    entry.thisHour += TOKENS_PER_REPORT
    entry.today += TOKENS_PER_REPORT
    const limits = this.#limits.current
    // consumed: what this report cost; remaining: what is left of the hour's or day's allowance.
    const status = (consumed: number, limit: number, used: number) => ({
      consumed,
      remaining: Math.max(0, limit - used),
    })
    return {
      tokensPerDay: status(TOKENS_PER_REPORT, limits.analyticsTokensPerDay, entry.today),
      tokensPerHour: status(TOKENS_PER_REPORT, limits.analyticsTokensPerHour, entry.thisHour),
      concurrentRequests: status(0, STANDARD.concurrentRequests, 0),
      serverErrorsPerProjectPerHour: status(0, STANDARD.serverErrorsPerProjectPerHour, 0),
      potentiallyThresholdedRequestsPerHour: status(
        0,
        STANDARD.potentiallyThresholdedRequestsPerHour,
        0,
      ),
      tokensPerProjectPerHour: status(
        TOKENS_PER_REPORT,
        STANDARD.tokensPerProjectPerHour,
        entry.thisHour,
      ),
    }
  }

  clear(): void {
    this.#spent.clear()
  }
}
