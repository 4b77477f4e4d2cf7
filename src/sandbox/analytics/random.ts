import { createHash } from 'node:crypto'

/**
 * Deterministic randomness for the synthetic analytics data: the same property and day (or
 * minute) always give the same numbers, on every machine and run, whatever was generated before.
 */

/** A 32-bit seed from any parts, through SHA-256 (stable across Node versions, unlike Math.random). */
export function seedOf(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('|')).digest().readUInt32BE(0)
}

/** mulberry32: small, fast and good enough for synthetic traffic. Values in [0, 1). */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Picks indexes by weight: the cumulative table is built once, each pick is a short scan. */
export class Weighted {
  readonly #cumulative: Float64Array
  readonly #total: number

  constructor(weights: readonly number[]) {
    this.#cumulative = new Float64Array(weights.length)
    let sum = 0
    weights.forEach((w, i) => (this.#cumulative[i] = sum += Math.max(0, w)))
    this.#total = sum
  }

  pick(random: () => number): number {
    const target = random() * this.#total
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

/** A whole number near `mean`, never below `min`: traffic is lumpy, not flat. */
export function around(random: () => number, mean: number, spread: number, min = 0): number {
  const factor = 1 + spread * (random() + random() - 1)
  return Math.max(min, Math.round(mean * factor))
}
