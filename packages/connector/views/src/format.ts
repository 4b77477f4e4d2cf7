import type { Metric, TimeUnit } from './table.js'

/**
 * Numbers, dates and names as a person reads them, in the host's locale: thousands separated,
 * rates as percentages, durations in minutes and seconds, money in its currency, a
 * search position to one decimal, dates as dates.
 */

/** camelCase names in words: activeUsers → Active users, ctr → CTR, customUser:tier → tier. */
export function nameOf(name: string): string {
  if (name === 'ctr') return 'CTR'
  if (name === 'minutesAgo') return 'Minute'
  const custom = /^custom\w*:(.+)$/.exec(name)
  if (custom) return custom[1]!
  const words = name.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A fraction shown as a percentage: search's ctr, and the analytics rates (engagementRate…). */
export const isRate = (metric: Metric) =>
  metric.name === 'ctr' ||
  (/Rate$/.test(metric.name) && (metric.type === 'float' || metric.type === 'standard'))

const DISTANCE: Readonly<Record<string, string>> = {
  feet: 'foot',
  miles: 'mile',
  meters: 'meter',
  kilometers: 'kilometer',
}

export class Formats {
  readonly #formats = new Map<string, unknown>()

  constructor(
    readonly locale: string | undefined,
    readonly currency: string | undefined,
  ) {}

  /** One value of a metric, in full: 12,345 · 4.3% · 3m 05s · €12.50 · 7.2. */
  value(metric: Metric, value: number | null): string {
    if (value === null) return '–'
    if (isRate(metric)) return this.#number({ style: 'percent', maximumFractionDigits: 1 }, value)
    if (metric.name === 'position') return this.#number({ maximumFractionDigits: 1 }, value)
    switch (metric.type) {
      case 'integer':
        return this.#number({ maximumFractionDigits: 0 }, value)
      case 'currency':
        return this.currency
          ? this.#number({ style: 'currency', currency: this.currency }, value)
          : this.#number({ maximumFractionDigits: 2 }, value)
      case 'seconds':
        return duration(value)
      case 'milliseconds':
        return duration(value / 1000)
      case 'minutes':
        return duration(value * 60)
      case 'hours':
        return duration(value * 3600)
    }
    const unit = DISTANCE[metric.type]
    if (unit) return this.#number({ style: 'unit', unit, maximumFractionDigits: 1 }, value)
    return this.#number({ maximumFractionDigits: 2 }, value)
  }

  /** A value on an axis: short (1.2K, 40%). */
  axis(metric: Metric, value: number): string {
    if (isRate(metric)) return this.#number({ style: 'percent', maximumFractionDigits: 1 }, value)
    if (metric.type === 'seconds') return duration(value)
    return this.#number({ notation: 'compact', maximumFractionDigits: 1 }, value)
  }

  /** A moment of a time axis, at its unit: 3 Nov · 3 Nov, 14:00 · Nov 2026 · 14:00 (clock). */
  time(unit: TimeUnit | 'clock', seconds: number, withYear = false): string {
    const clock: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' }
    const options: Intl.DateTimeFormatOptions =
      unit === 'clock'
        ? clock
        : unit === 'month'
          ? { month: 'short', year: 'numeric' }
          : {
              day: 'numeric',
              month: 'short',
              ...(withYear && { year: 'numeric' }),
              ...((unit === 'hour' || unit === 'minute') && clock),
            }
    // In the data's own clock (table.ts): UTC, so a day stays that day wherever the person is.
    return this.#format(Intl.DateTimeFormat, { ...options, timeZone: 'UTC' }).format(
      new Date(seconds * 1000),
    )
  }

  /** A YYYY-MM-DD day (the tools' dates): 3 Nov 2026. */
  day(text: string): string {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
    if (!match) return text
    const [, y, m, d] = match
    return this.time('day', Date.UTC(Number(y), Number(m) - 1, Number(d)) / 1000, true)
  }

  #number(options: Intl.NumberFormatOptions, value: number): string {
    return this.#format(Intl.NumberFormat, options).format(value)
  }

  /** One formatter per kind and options, made once: a chart asks for hundreds of labels. */
  #format<F, O>(kind: new (locale: string | undefined, options: O) => F, options: O): F {
    const key = `${kind.name} ${JSON.stringify(options)}`
    let format = this.#formats.get(key) as F | undefined
    if (!format) {
      format = new kind(this.locale, options)
      this.#formats.set(key, format)
    }
    return format
  }
}

/** 45s · 3m 05s · 2h 10m. */
function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds)
  const whole = Math.round(seconds)
  if (whole < 60) return `${seconds < 10 ? Math.round(seconds * 10) / 10 : whole}s`
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = whole % 60
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(s).padStart(2, '0')}s`
}
