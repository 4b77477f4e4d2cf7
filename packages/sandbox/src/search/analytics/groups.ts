import type { FactTable } from './facts.js'

/**
 * Summing facts into groups and picking a page of them: the two steps that dominate a query's
 * time, kept to typed arrays and tight loops.
 */

/** Up to this many possible groups, sums are kept in arrays indexed by code; past it, in a map. */
const DENSE_GROUPS = 1 << 18

/** The groups of an answer: codes and sums, impressions × position × 10 for the average. */
interface Groups {
  size: number
  codes: Float64Array
  clicks: Float64Array
  impressions: Float64Array
  weighted: Float64Array
}

/** Sums the picked facts by code. */
export class Sums {
  readonly #dense: boolean
  readonly #groups: number
  // Dense: indexed by code. Sparse: by slot, with the slot of each code in #slots.
  #codes: number[] = []
  #slots = new Map<number, number>()
  #clicks: Float64Array
  #impressions: Float64Array
  #weighted: Float64Array

  constructor(groups: number) {
    this.#groups = groups
    this.#dense = groups <= DENSE_GROUPS
    const size = this.#dense ? groups : 1024
    this.#clicks = new Float64Array(size)
    this.#impressions = new Float64Array(size)
    this.#weighted = new Float64Array(size)
  }

  add(table: FactTable, picked: Int32Array, n: number, codes: Float64Array): void {
    const { clicks, impressions, position10 } = table
    for (let k = 0; k < n; k++) {
      const at = this.#dense ? codes[k]! : this.#slot(codes[k]!)
      const i = picked[k]!
      this.#clicks[at]! += clicks[i]!
      this.#impressions[at]! += impressions[i]!
      this.#weighted[at]! += impressions[i]! * position10[i]!
    }
  }

  #slot(code: number): number {
    let slot = this.#slots.get(code)
    if (slot === undefined) {
      slot = this.#codes.length
      this.#slots.set(code, slot)
      this.#codes.push(code)
      if (slot === this.#clicks.length) {
        const grow = (a: Float64Array) => {
          const b = new Float64Array(a.length * 2)
          b.set(a)
          return b
        }
        this.#clicks = grow(this.#clicks)
        this.#impressions = grow(this.#impressions)
        this.#weighted = grow(this.#weighted)
      }
    }
    return slot
  }

  /** The groups that have impressions. */
  groups(): Groups {
    if (!this.#dense) {
      const size = this.#codes.length
      return {
        size,
        codes: Float64Array.from(this.#codes),
        clicks: this.#clicks.subarray(0, size),
        impressions: this.#impressions.subarray(0, size),
        weighted: this.#weighted.subarray(0, size),
      }
    }
    let size = 0
    for (let code = 0; code < this.#groups; code++) if (this.#impressions[code]! > 0) size++
    const out: Groups = {
      size,
      codes: new Float64Array(size),
      clicks: new Float64Array(size),
      impressions: new Float64Array(size),
      weighted: new Float64Array(size),
    }
    let g = 0
    for (let code = 0; code < this.#groups; code++) {
      if (this.#impressions[code]! === 0) continue
      out.codes[g] = code
      out.clicks[g] = this.#clicks[code]!
      out.impressions[g] = this.#impressions[code]!
      out.weighted[g++] = this.#weighted[code]!
    }
    return out
  }
}

/**
 * The first `k` of `n` groups in order, sorted. A bounded heap when k is small (a page of a
 * hundred thousand groups costs one comparison for most of them), a full sort otherwise.
 */
export function topRows(n: number, k: number, compare: (a: number, b: number) => number): number[] {
  if (k >= n / 4) {
    const all = new Int32Array(n)
    for (let g = 0; g < n; g++) all[g] = g
    return Array.from(all.sort(compare).subarray(0, Math.min(k, n)))
  }
  // A heap whose root is the kept group that comes last.
  const heap: number[] = []
  const later = (a: number, b: number) => compare(a, b) > 0
  const siftDown = (at: number) => {
    for (;;) {
      const l = 2 * at + 1
      const r = l + 1
      let top = at
      if (l < heap.length && later(heap[l]!, heap[top]!)) top = l
      if (r < heap.length && later(heap[r]!, heap[top]!)) top = r
      if (top === at) return
      ;[heap[at], heap[top]] = [heap[top]!, heap[at]!]
      at = top
    }
  }
  for (let g = 0; g < n; g++) {
    if (heap.length < k) {
      heap.push(g)
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1
        if (!later(heap[at]!, heap[parent]!)) break
        ;[heap[at], heap[parent]] = [heap[parent]!, heap[at]!]
        at = parent
      }
    } else if (k > 0 && compare(g, heap[0]!) < 0) {
      heap[0] = g
      siftDown(0)
    }
  }
  return heap.sort(compare)
}
