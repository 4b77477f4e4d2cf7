/**
 * The property's quota as `returnPropertyQuota` shows it: tokens spent this hour and today, per
 * property, in memory, for one running sandbox (`POST /_sandbox/reset` empties it). The sandbox
 * only reports it: nothing is refused when it runs out.
 */

const STANDARD = {
  tokensPerDay: 200_000,
  tokensPerHour: 40_000,
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

export class PropertyQuotas {
  readonly #spent = new Map<string, Spent>()

  /** Charges one report to the property and says where its quota stands. */
  charge(property: string, now: number) {
    const hour = Math.floor(now / 3_600_000)
    const day = Math.floor(hour / 24)
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
    // consumed: what this report cost; remaining: what is left of the hour's or day's allowance.
    const status = (consumed: number, limit: number, used: number) => ({
      consumed,
      remaining: Math.max(0, limit - used),
    })
    return {
      tokensPerDay: status(TOKENS_PER_REPORT, STANDARD.tokensPerDay, entry.today),
      tokensPerHour: status(TOKENS_PER_REPORT, STANDARD.tokensPerHour, entry.thisHour),
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
