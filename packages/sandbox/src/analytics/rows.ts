import type { Dimension } from './fields.js'
import { MEASURE_COUNT } from './measures.js'

/**
 * The rows of a report, core or realtime, before they become its answer (table.ts): the cells it
 * reads, added up by the values of its dimensions, range by range. A row holds the codes of its
 * dimension values and the sums of its measures (measures.ts).
 */

/** The code of every dimension value of the "(other)" row of a report of too many rows. */
export const OTHER = -1

/**
 * Past this many distinct rows, new combinations are added to one "(other)" row per range, as
 * the real API does for reports of high cardinality (and says so: dataLossFromOtherRow). It
 * bounds the memory a report can take.
 */
const MAX_DISTINCT_ROWS = 100_000

export interface SumRow {
  /** The codes of the requested dimensions' values. */
  codes: number[]
  /** The date or minute range. */
  range: number
  sums: Float64Array
}

/** A row being added up. */
export interface Group extends SumRow {
  /** The session cell whose users were last added here, so that they are added once. */
  last: number
}

export const newGroup = (codes: number[], range: number): Group => ({
  codes,
  range,
  sums: new Float64Array(MEASURE_COUNT),
  last: -1,
})

/** A report's rows by their dimension values (and range, when there are several). */
export class RowGroups<Block> {
  readonly #groups = new Map<string, Group>()
  readonly #others: Group[] = []
  readonly #codes: number[]

  constructor(
    readonly dimensions: readonly Dimension<Block>[],
    readonly ranges: number,
  ) {
    this.#codes = new Array(dimensions.length)
  }

  /**
   * The row of cell `s` (and its event or item cell `x`) in `range`: found, new unless `create`
   * is false, or once there are too many, the range's "(other)" row.
   */
  rowOf(block: Block, s: number, x: number, range: number, create = true): Group {
    const { dimensions } = this
    const codes = this.#codes
    let key = this.ranges > 1 ? `${range}` : ''
    for (let i = 0; i < dimensions.length; i++) {
      codes[i] = dimensions[i]!.code(block, s, x)
      key += `,${codes[i]}`
    }
    let group = this.#groups.get(key)
    if (group) return group
    if (this.#groups.size < MAX_DISTINCT_ROWS && create) {
      this.#groups.set(key, (group = newGroup([...codes], range)))
      return group
    }
    return (this.#others[range] ??= newGroup(
      dimensions.map(() => OTHER),
      range,
    ))
  }

  /** Every row, the "(other)" rows last. */
  rows(): Group[] {
    return [...this.#groups.values(), ...this.#others.filter(Boolean)]
  }

  /** Whether some cells went to an "(other)" row. */
  get overflowed(): boolean {
    return this.#others.length > 0
  }
}

/** The sums of the rows, per range: the totals, where no user is to be counted once. */
export function sumOfRows(rows: readonly SumRow[], ranges: number): Float64Array[] {
  const totals = Array.from({ length: ranges }, () => new Float64Array(MEASURE_COUNT))
  for (const row of rows)
    for (let m = 0; m < MEASURE_COUNT; m++)
      totals[row.range]![m] = totals[row.range]![m]! + row.sums[m]!
  return totals
}
