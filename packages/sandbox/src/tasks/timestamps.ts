/**
 * RFC 3339 timestamps as the task API reads and writes them. Every instant goes out as UTC
 * with milliseconds (`toISOString()`), so stored instants compare correctly as strings.
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

export interface Timestamp {
  /** The calendar day as written, before any offset is applied: what `due` keeps. */
  day: string
  /** The instant, in UTC with milliseconds. */
  instant: string
}

const daysInMonth = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31

/** Parses an RFC 3339 timestamp, checking the calendar too; undefined when it is not one. */
export function parseTimestamp(text: string): Timestamp | undefined {
  const m = RFC3339.exec(text)
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3))
  const offsetHours = Number(m[9] ?? 0)
  const offsetMinutes = Number(m[10] ?? 0)
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return undefined
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    return undefined

  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, millis)
  const sign = m[8] === '-' ? -1 : 1
  const utc = date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000
  // Only four-digit UTC years keep the string order of stored instants chronological.
  const utcYear = new Date(utc).getUTCFullYear()
  if (utcYear < 1 || utcYear > 9999) return undefined
  return { day: `${m[1]}-${m[2]}-${m[3]}`, instant: new Date(utc).toISOString() }
}

/** A stored due day as the API reads it back: midnight UTC of that day. */
export const dueInstant = (day: string) => `${day}T00:00:00.000Z`

export const now = () => new Date().toISOString()
