import { Sfc32, type Random } from '../../synthetic/random.js'
import { FactBuilder, type FactTable } from './facts.js'

/**
 * Hourly facts: each daily fact of the last days split over the hours of its day, so that the
 * hours of a day always add up to the day. Today only has the hours that are over: that is
 * what makes today's data partial, for `hour` and for `dataState: all` alike.
 */

/** Searches by hour of the Pacific day: quiet at night, busiest around noon and evening. */
const DIURNAL = [
  0.35, 0.25, 0.2, 0.18, 0.2, 0.3, 0.5, 0.75, 0.95, 1.05, 1.1, 1.15, 1.2, 1.15, 1.1, 1.05, 1.05,
  1.1, 1.15, 1.2, 1.1, 0.95, 0.75, 0.5,
]

/** The day's cumulative distribution of hours, a little different every day. */
function hoursOfDay(random: Random): Float64Array {
  const cumulative = new Float64Array(24)
  let sum = 0
  for (let h = 0; h < 24; h++) cumulative[h] = sum += DIURNAL[h]! * (0.8 + 0.4 * random.next())
  for (let h = 0; h < 24; h++) cumulative[h]! /= sum
  return cumulative
}

/**
 * Hourly facts of days [firstDay, today] of `daily`; on `today`, only hours before `hour`.
 * Each impression of a fact gets an hour; its clicks are a random subset of its impressions,
 * so an hour never has more clicks than impressions.
 */
export function splitIntoHours(
  daily: FactTable,
  seed: string,
  firstDay: number,
  today: number,
  hour: number,
): FactTable {
  const out = new FactBuilder()
  const impressionsAt = new Uint32Array(24)
  const clicksAt = new Uint32Array(24)
  let hours = new Uint8Array(1024)
  for (let day = Math.max(firstDay, daily.firstDay); day <= Math.min(today, daily.lastDay); day++) {
    const random = new Sfc32('search-hours', seed, day)
    const cumulative = hoursOfDay(random)
    const end = day === today ? hour : 24
    const from = daily.dayStart[day - daily.firstDay]!
    const to = daily.dayStart[day - daily.firstDay + 1]!
    for (let i = from; i < to; i++) {
      const n = daily.impressions[i]!
      const k = daily.clicks[i]!
      if (hours.length < n) hours = new Uint8Array(n * 2)
      for (let j = 0; j < n; j++) {
        const u = random.next()
        let h = 0
        while (h < 23 && cumulative[h]! <= u) h++
        hours[j] = h
      }
      impressionsAt.fill(0)
      clicksAt.fill(0)
      for (let j = 0; j < n; j++) impressionsAt[hours[j]!]!++
      // The clicked impressions: the first k of a partial shuffle.
      for (let j = 0; j < k; j++) {
        const pick = j + random.int(n - j)
        const chosen = hours[pick]!
        hours[pick] = hours[j]!
        hours[j] = chosen
        clicksAt[chosen]!++
      }
      for (let h = 0; h < end; h++) {
        if (impressionsAt[h] === 0) continue
        out.push(
          day,
          h,
          daily.query[i]!,
          daily.page[i]!,
          daily.country[i]!,
          daily.device[i]!,
          daily.appearance[i]!,
          clicksAt[h]!,
          impressionsAt[h]!,
          daily.position10[i]!,
        )
      }
    }
  }
  return out.seal(firstDay, today)
}
