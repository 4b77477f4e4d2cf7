import { calendarDay, pad2, parseDay } from '../synthetic/calendar.js'

/**
 * The week dimensions' arithmetic. GA4's `week` starts on Sunday and January 1st is always in
 * week 01; `isoWeek` is ISO 8601's (weeks start on Monday, week 01 holds the year's first
 * Thursday, and its days may belong to the previous or next `isoYear`).
 */

const januaryFirst = (year: number) => parseDay(`${String(year).padStart(4, '0')}-01-01`)!

/** The Sunday-based week of the year, 1 to 53. */
export function weekOfYear(day: number): number {
  const { year } = calendarDay(day)
  const first = januaryFirst(year)
  return Math.floor((day - first + calendarDay(first).dayOfWeek) / 7) + 1
}

/** ISO 8601's year and week of a day. */
export function isoWeekOf(day: number): { isoYear: number; isoWeek: number } {
  const mondayBased = (calendarDay(day).dayOfWeek + 6) % 7
  const thursday = day - mondayBased + 3
  const isoYear = calendarDay(thursday).year
  return { isoYear, isoWeek: Math.floor((thursday - januaryFirst(isoYear)) / 7) + 1 }
}

export const yearWeekLabel = (year: number, week: number) => `${year}${pad2(week)}`
