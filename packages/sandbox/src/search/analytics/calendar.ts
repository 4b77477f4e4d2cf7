import { isoDay, MS_PER_DAY, pacificNow, pad2, PACIFIC } from '../../synthetic/calendar.js'

/**
 * Days as Search Console counts them, on the synthetic data's calendar (synthetic/calendar.ts):
 * calendar dates in Pacific Time, 16 months of history, final data a few days late, hourly data
 * for the last days only.
 */

// The connector's tests and the bench read the sandbox's dates from here.
export { isoDay, pacificNow }

/** How many months of data a site has, as the real service keeps. */
const HISTORY_MONTHS = 16
/** Final data ends this many days before today; `all` also has the days after it. */
export const FINAL_DELAY_DAYS = 3
/** Hourly data (dimension `hour`) covers today and the nine days before it. */
export const HOURLY_DAYS = 10

/** The first day of the history that ends `today`: the same date 16 months before. */
export function historyStart(today: number): number {
  const d = new Date(today * MS_PER_DAY)
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - HISTORY_MONTHS, d.getUTCDate())
  return start / MS_PER_DAY
}

const offsetFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: PACIFIC,
  timeZoneName: 'longOffset',
  hour: '2-digit',
  hourCycle: 'h23',
})
const offsets = new Map<string, string>()

/**
 * An hour's key as the real API gives it: local Pacific time with its offset,
 * `2026-11-20T14:00:00-08:00`. The offset is the one in force at that hour (DST aware).
 */
export function hourKey(day: number, hour: number): string {
  const local = `${isoDay(day)}T${pad2(hour)}:00:00`
  let offset = offsets.get(local)
  if (offset === undefined) {
    offset = '-08:00'
    for (const guess of [8, 7]) {
      const instant = day * MS_PER_DAY + (hour + guess) * 3_600_000
      const parts = offsetFormat.formatToParts(instant)
      const shown = Number(parts.find((p) => p.type === 'hour')?.value)
      if (shown === hour) {
        offset = (parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT-08:00').slice(3)
        break
      }
    }
    if (offsets.size > 10_000) offsets.clear()
    offsets.set(local, offset)
  }
  return local + offset
}
