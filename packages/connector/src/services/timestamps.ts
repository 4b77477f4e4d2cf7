/**
 * RFC 3339 timestamps as the task service takes them (the tool table: "RFC 3339 timestamp"). A value
 * is accepted only with a real calendar date and an explicit offset or `Z`, so the provider never
 * refuses a timestamp this connector let through. The connector and the provider share no code:
 * this is the connector's own reading of the same rule.
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

export interface Timestamp {
  /** The calendar day as written, before the offset is applied: what `due` keeps. */
  day: string
  /** The instant, in UTC with milliseconds. */
  instant: string
}

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

const daysInMonth = (year: number, month: number) =>
  month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** The timestamp, or undefined when `text` is not RFC 3339 with a real date and time. */
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
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return undefined
  const offsetHours = Number(m[9] ?? 0)
  const offsetMinutes = Number(m[10] ?? 0)
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    return undefined

  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3))
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, millis)
  const sign = m[8] === '-' ? -1 : 1
  const utc = new Date(date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000)
  // An offset must not carry the instant outside the years 0001 to 9999.
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) return undefined
  return { day: `${m[1]}-${m[2]}-${m[3]}`, instant: utc.toISOString() }
}

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * The epoch day (days since 1970-01-01) of a real calendar date written YYYY-MM-DD, or undefined
 * when `text` is not one. setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900
 * to 1999.
 */
export function calendarDay(text: string): number | undefined {
  const m = CALENDAR_DAY.exec(text)
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  return real ? date.getTime() / 86_400_000 : undefined
}
