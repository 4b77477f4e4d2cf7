/**
 * Days as whole numbers (days since 1970-01-01, a calendar date with no time zone), the dates of
 * the analytics API (`YYYY-MM-DD`, `today`, `yesterday`, `NdaysAgo`) and the clock of a property's
 * reporting time zone.
 */

export const MS_PER_DAY = 86_400_000
export const MS_PER_MINUTE = 60_000

/** The day of an ISO date, or undefined unless it is a real calendar date. */
export function dayOf(iso: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (!match) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const ms = Date.UTC(year, month - 1, day)
  const date = new Date(ms)
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return undefined
  if (date.getUTCDate() !== day) return undefined
  return ms / MS_PER_DAY
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

export const pad2 = (n: number) => String(n).padStart(2, '0')

/** `YYYYMMDD`, as the `date` dimension shows a day. */
export function compactDate(day: number): string {
  const { year, month, dayOfMonth } = calendarDay(day)
  return `${year}${pad2(month)}${pad2(dayOfMonth)}`
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
    day: dayOf(`${parts.year}-${parts.month}-${parts.day}`)!,
    hour: Number(parts.hour),
  }
}

/** Whether a date of a request is well formed: `YYYY-MM-DD` (a real date) or a relative date. */
export const RELATIVE_DATE = /^(today|yesterday|(\d{1,5})daysAgo)$/

/** The day a request's date names, relative dates counted back from `today`. */
export function resolveDate(text: string, today: number): number | undefined {
  const relative = RELATIVE_DATE.exec(text)
  if (relative) {
    if (relative[1] === 'today') return today
    if (relative[1] === 'yesterday') return today - 1
    return today - Number(relative[2])
  }
  return dayOf(text)
}
