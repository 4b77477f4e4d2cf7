import { createHash } from 'node:crypto'
import { MS_PER_DAY } from '../../analytics/calendar.js'

/**
 * Seeded randomness for the synthetic data: the same seed parts give the same numbers on every
 * run and every machine. sfc32 is small, fast and good enough for data nobody audits.
 */
export class Random {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(...seed: (string | number)[]) {
    const digest = createHash('sha256').update(seed.join('\u0000')).digest()
    this.#a = digest.readUInt32LE(0)
    this.#b = digest.readUInt32LE(4)
    this.#c = digest.readUInt32LE(8)
    this.#d = digest.readUInt32LE(12)
    for (let i = 0; i < 12; i++) this.next()
  }

  /** A uniform number in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0
    this.#d = (this.#d + 1) | 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) | 0
    this.#c = (this.#c << 21) | (this.#c >>> 11)
    this.#c = (this.#c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** An index drawn with the given (unnormalized) weights. */
  weighted(weights: readonly number[]): number {
    let total = 0
    for (const w of weights) total += w
    let at = this.next() * total
    for (let i = 0; i < weights.length; i++) {
      at -= weights[i]!
      if (at < 0) return i
    }
    return weights.length - 1
  }

  /** A copy in a random order (Fisher-Yates). */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1)
      ;[out[i], out[j]] = [out[j]!, out[i]!]
    }
    return out
  }

  /** A count whose mean is `mean`: floor(mean + u) is unbiased and never negative. */
  count(mean: number): number {
    return Math.floor(mean + this.next())
  }
}

/**
 * A seeded instant of the last days, the same all day long: midnight (UTC) of `now`, less
 * `minDays` plus up to `spreadDays` whole days, plus a time of day. Draws twice from `random`.
 */
export function recentInstant(
  random: Random,
  now: number,
  minDays: number,
  spreadDays: number,
): number {
  const midnight = Math.floor(now / MS_PER_DAY) * MS_PER_DAY
  return midnight - (minDays + random.int(spreadDays)) * MS_PER_DAY + random.int(MS_PER_DAY)
}
