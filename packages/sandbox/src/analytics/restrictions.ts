import { invalidArgument } from '../http/errors.js'
import type { Metric } from './fields.js'
import { fieldNames } from './filters.js'
import type { FilterExpression } from './request.js'

/**
 * Metrics blocked for the user (a role without access to cost or revenue data): a report of them
 * succeeds with zeros and says which restrictions it applied (`schemaRestrictionResponse`), but
 * a metric filter on one fails, as the real API documents.
 */

const RESTRICTED_TYPE = { NO_COST_METRICS: 'COST_DATA', NO_REVENUE_METRICS: 'REVENUE_DATA' }

export function refuseBlockedFilters(
  metricFilter: FilterExpression | undefined,
  metricOf: (name: string) => Metric | undefined,
): void {
  for (const name of fieldNames(metricFilter)) {
    const reasons = metricOf(name)?.blockedReasons
    if (reasons?.length)
      throw invalidArgument(
        `The metric filter on ${name} cannot be applied: ${name} is blocked for you (${reasons.join(', ')}), so it answers only zeros. Remove it from metricFilter.`,
      )
  }
}

/** The report's `metadata.schemaRestrictionResponse`, when it has blocked metrics. */
export function schemaRestriction(metrics: readonly Metric[]) {
  const active = metrics
    .filter((m) => m.blockedReasons?.length)
    .map((m) => ({
      metricName: m.apiName,
      restrictedMetricTypes: m.blockedReasons!.map((reason) => RESTRICTED_TYPE[reason]),
    }))
  return active.length ? { schemaRestrictionResponse: { activeMetricRestrictions: active } } : {}
}
