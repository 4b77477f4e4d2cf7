import { computedDimensions } from './computed-dimensions.js'
import { COMPUTED_METRICS } from './computed-metrics.js'
import type { CoreDimension } from './core-dimension.js'
import { customDimensions } from './custom-definitions.js'
import type { Metric } from './fields.js'
import { keyEventMetrics } from './key-event-metrics.js'
import type { PropertyProfile } from './property.js'
import { STANDARD_DIMENSIONS } from './schema/dimensions.js'
import { STANDARD_METRICS, type MetricSchema } from './schema/metrics.js'
import { NOT_SET } from './vocabulary.js'

/**
 * The dimensions and metrics of core reports (runReport), per property, as getMetadata lists
 * them: GA4's standard set at its real size (schema/), the property's custom definitions and its
 * per-key-event metrics. Each is computed from the synthetic days where the engine can
 * (computed-dimensions.ts, computed-metrics.ts); the others answer as a property without such
 * data does: "(not set)" for a dimension, 0 for a metric.
 */

export interface Catalog {
  profile: PropertyProfile
  /** Every name a report may use, deprecated names included, answered under the name used. */
  dimensions: ReadonlyMap<string, CoreDimension>
  metrics: ReadonlyMap<string, Metric>
  /** What getMetadata lists, in its order. */
  listed: { dimensions: readonly CoreDimension[]; metrics: readonly Metric[] }
}

/**
 * The sandbox's users hold a role without access to cost data on their properties, as many
 * analysts do: cost metrics are listed as blocked, answer 0 and cannot be filtered on.
 */
const COST_DATA_ACCESS = false

const catalogs = new WeakMap<PropertyProfile, Catalog>()

export function catalogOf(profile: PropertyProfile): Catalog {
  let catalog = catalogs.get(profile)
  if (!catalog) {
    const dimensions = [...standardDimensions(profile), ...customDimensions(profile)]
    const metrics = [...STANDARD_METRICS.map(standardMetric), ...keyEventMetrics(profile)]
    catalog = {
      profile,
      dimensions: byName(dimensions),
      metrics: byName(metrics),
      listed: { dimensions, metrics },
    }
    catalogs.set(profile, catalog)
  }
  return catalog
}

function standardDimensions(profile: PropertyProfile): CoreDimension[] {
  const computed = computedDimensions(profile)
  return STANDARD_DIMENSIONS.map((schema) => ({
    ...schema,
    ...(computed.get(schema.apiName) ?? { code: () => 0, label: () => NOT_SET }),
  }))
}

function standardMetric(schema: MetricSchema): Metric {
  const { restricted, ...metric } = schema
  if (restricted === 'COST_DATA' && !COST_DATA_ACCESS)
    return { ...metric, blockedReasons: ['NO_COST_METRICS'], value: () => 0 }
  return { ...metric, value: COMPUTED_METRICS.get(schema.apiName) ?? (() => 0) }
}

/** Fields by name: a deprecated name finds a copy of its field that answers under that name. */
function byName<Field extends { apiName: string; deprecatedApiNames?: readonly string[] }>(
  fields: readonly Field[],
): ReadonlyMap<string, Field> {
  const map = new Map<string, Field>()
  for (const field of fields) {
    map.set(field.apiName, field)
    for (const old of field.deprecatedApiNames ?? []) map.set(old, { ...field, apiName: old })
  }
  return map
}
