/**
 * The calendar of the sandbox's synthetic data, for the search console's analytics and the
 * analytics API alike: a day is a whole number (days since 1970-01-01, a calendar date with no
 * time zone), so ranges are arithmetic; it is read from and written as `YYYY-MM-DD`, split into
 * its year, month and weekday, and "today" is the date and hour it is now in a time zone.
 */

export const MS_PER_DAY = 86_400_000
export const MS_PER_MINUTE = 60_000

export const pad2 = (n: number) => String(n).padStart(2, '0')

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The day of a real `YYYY-MM-DD` date, or undefined (2026-02-30 is not a date). */
export function parseDay(text: string): number | undefined {
  const m = DATE.exec(text)
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // setUTCFullYear: Date.UTC would read years 0-99 as 1900-1999.
  const back = new Date(Date.UTC(2000, month - 1, day))
  back.setUTCFullYear(year)
  const ms = back.getTime()
  if (
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day
  )
    return undefined
  return ms / MS_PER_DAY
}

/** A day as `YYYY-MM-DD`. */
export function isoDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10)
}

export interface CalendarDay {
  day: number
  year: number
  /** 1 to 12. */
  month: number
  dayOfMonth: number
  /** 0 is Sunday, as the analytics API counts. */
  dayOfWeek: number
}

export function calendarDay(day: number): CalendarDay {
  const date = new Date(day * MS_PER_DAY)
  return {
    day,
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    dayOfMonth: date.getUTCDate(),
    dayOfWeek: date.getUTCDay(),
  }
}

/** The date and hour it is now in a time zone. */
export interface LocalNow {
  day: number
  hour: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

export function localNow(timeZone: string, now = Date.now()): LocalNow {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(timeZone, format)
  }
  const parts: Record<string, string> = {}
  for (const part of format.formatToParts(now)) parts[part.type] = part.value
  return {
    day: parseDay(`${parts.year}-${parts.month}-${parts.day}`)!,
    hour: Number(parts.hour),
  }
}

/** Google's time zone: Search Console's dates, and the midnight its daily quotas reset at. */
export const PACIFIC = 'America/Los_Angeles'

/** Today's day and the current hour, in Pacific Time. */
export function pacificNow(now = Date.now()): LocalNow {
  return localNow(PACIFIC, now)
}
