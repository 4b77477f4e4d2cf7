import { createHash } from 'node:crypto'
import { MS_PER_DAY } from './calendar.js'

/**
 * Seeded randomness for the synthetic data of both analytics APIs: the same seed parts give the
 * same numbers on every run and every machine, whatever was generated before (SHA-256 of the
 * parts, stable across Node versions, unlike Math.random).
 *
 * One interface over two small generators, each good enough for data nobody audits: the search
 * console's data is drawn from sfc32, the analytics API's from mulberry32. Every figure of each
 * API (and the tests that pin them) follows from its own generator's stream, so neither takes
 * the other's place.
 */

const digest = (parts: readonly (string | number)[], separator: string) =>
  createHash('sha256').update(parts.join(separator)).digest()

/** A 32-bit seed from any parts; also a stable number to derive an id or a choice from. */
export function seedOf(...parts: (string | number)[]): number {
  return digest(parts, '|').readUInt32BE(0)
}

/** A stream of uniform numbers in [0, 1), and the draws made from it. */
export abstract class Random {
  /** A uniform number in [0, 1). */
  abstract next(): number

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** A count whose mean is `mean`: floor(mean + u) is unbiased and never negative. */
  count(mean: number): number {
    return Math.floor(mean + this.next())
  }

  /** A whole number near `mean`, never below `min`: traffic is lumpy, not flat. */
  around(mean: number, spread: number, min = 0): number {
    const factor = 1 + spread * (this.next() + this.next() - 1)
    return Math.max(min, Math.round(mean * factor))
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
}

/** sfc32, seeded with the whole SHA-256 of the seed parts: the search console's data. */
export class Sfc32 extends Random {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(...seed: (string | number)[]) {
    super()
    const bytes = digest(seed, '\u0000')
    this.#a = bytes.readUInt32LE(0)
    this.#b = bytes.readUInt32LE(4)
    this.#c = bytes.readUInt32LE(8)
    this.#d = bytes.readUInt32LE(12)
    for (let i = 0; i < 12; i++) this.next()
  }

  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0
    this.#d = (this.#d + 1) | 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) | 0
    this.#c = (this.#c << 21) | (this.#c >>> 11)
    this.#c = (this.#c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

/** mulberry32 from a 32-bit seed (seedOf): the analytics API's data. */
export class Mulberry32 extends Random {
  #state: number

  constructor(seed: number) {
    super()
    this.#state = seed >>> 0
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Picks indexes by weight: the first whose running total of weights passes a uniform draw
 * scaled to the whole. The running totals are built once; each pick is a short search.
 */
export class Weighted {
  readonly #cumulative: Float64Array
  readonly #total: number

  constructor(weights: readonly number[]) {
    this.#cumulative = new Float64Array(weights.length)
    let sum = 0
    weights.forEach((w, i) => (this.#cumulative[i] = sum += Math.max(0, w)))
    this.#total = sum
  }

  pick(random: Random): number {
    const target = random.next() * this.#total
    const table = this.#cumulative
    let low = 0
    let high = table.length - 1
    while (low < high) {
      const mid = (low + high) >>> 1
      if (table[mid]! > target) high = mid
      else low = mid + 1
    }
    return low
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
