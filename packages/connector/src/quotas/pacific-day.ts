/**
 * The provider's day: Google's daily quotas renew at midnight Pacific Time, so the day a query
 * counts in is the date in Los Angeles, daylight saving included.
 */

const PACIFIC = 'America/Los_Angeles'

// en-CA writes dates as YYYY-MM-DD.
const dateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: PACIFIC,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

const MINUTE_MS = 60_000

export interface PacificDay {
  /** `YYYY-MM-DD`. */
  key: string
  /** When it ends (the next midnight Pacific), in epoch milliseconds. */
  endsAt: number
}

/** The day `now` falls in, and when it ends. */
export function pacificDay(now: number): PacificDay {
  const key = dateFormat.format(now)
  // Midnight falls on a whole minute: step an hour at a time to the next date, then back by
  // minutes to its first one. At most 25 hours ahead, even on the day the clocks go back.
  let after = Math.floor(now / MINUTE_MS) * MINUTE_MS
  do after += 60 * MINUTE_MS
  while (dateFormat.format(after) === key)
  let endsAt = after
  while (dateFormat.format(endsAt - MINUTE_MS) !== key) endsAt -= MINUTE_MS
  return { key, endsAt }
}

/** The day `days` before `key` (a calendar date: no time zone involved). */
export function daysBefore(key: string, days: number): string {
  const date = new Date(`${key}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() - days)
  return date.toISOString().slice(0, 10)
}
