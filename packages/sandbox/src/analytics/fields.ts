/**
 * Dimensions and metrics as the report engines see them: how to read a value's code from a cell,
 * how a code reads as the API's string, and how a metric is computed from a row's sums. Core and
 * realtime reports have their own lists; both are described in the metadata's words.
 */

/** What a field is counted per: a session, an event, or an item of an e-commerce event. */
export type Scope = 'session' | 'event' | 'item'

export type MetricType =
  'TYPE_INTEGER' | 'TYPE_FLOAT' | 'TYPE_SECONDS' | 'TYPE_MILLISECONDS' | 'TYPE_CURRENCY'

/** Why a metric is blocked for the user: their role has no access to cost or revenue data. */
export type BlockedReason = 'NO_COST_METRICS' | 'NO_REVENUE_METRICS'

export interface Dimension<Block> {
  apiName: string
  uiName: string
  description: string
  category: string
  scope: Scope
  deprecatedApiNames?: readonly string[]
  customDefinition?: true
  /**
   * The value of cell `s` (a session cell, or a realtime cell) and, for event and item scopes,
   * of its event or item cell `x`, as a small number: equal codes are equal values.
   */
  code(block: Block, s: number, x: number): number
  label(code: number): string
}

export interface Metric {
  apiName: string
  uiName: string
  description: string
  category: string
  type: MetricType
  scope: Scope
  deprecatedApiNames?: readonly string[]
  customDefinition?: true
  /** Blocked metrics answer 0 and cannot be filtered on. */
  blockedReasons?: readonly BlockedReason[]
  /** The value from a row's (or a total's) sums. */
  value(sums: Float64Array): number
}

/** A label list without repeats, and each item's position in it. */
export function distinct<T>(items: readonly T[], labelOf: (item: T) => string) {
  const labels: string[] = []
  const codes = items.map((item) => {
    const label = labelOf(item)
    let code = labels.indexOf(label)
    if (code < 0) code = labels.push(label) - 1
    return code
  })
  return { labels, codes: Uint16Array.from(codes) }
}

/** A ratio as the API reports one: 0 when there is nothing to divide by. */
export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b)
