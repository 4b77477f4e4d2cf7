import { invalidArgument } from '../http/errors.js'
import type { Dimension, Metric } from './fields.js'
import { fieldNames } from './filters.js'
import type { FilterExpression, OrderBy } from './request.js'

/**
 * The rules both kinds of report keep, with the real API's limits and, where known, its words:
 * names must be the property's dimensions and metrics, up to 9 dimensions and 10 metrics, order
 * by what the report shows, a positive limit (more than 250,000 gives 250,000), and so on.
 */

const LIMITS = {
  dimensions: 9,
  metrics: 10,
  defaultRows: 10_000,
  maxRows: 250_000,
} as const

export const CORE_SCHEMA_HELP =
  'For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema'
export const REALTIME_SCHEMA_HELP =
  'For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema'

interface FieldSets<Block> {
  dimensions: ReadonlyMap<string, Dimension<Block>>
  metrics: ReadonlyMap<string, Metric>
  help: string
}

interface FieldRequest {
  dimensions?: { name: string; dimensionExpression?: unknown }[]
  metrics?: { name: string; expression?: unknown; invisible?: unknown }[]
  dimensionFilter?: FilterExpression
  metricFilter?: FilterExpression
  orderBys?: OrderBy[]
  metricAggregations?: string[]
  limit?: number
}

interface ResolvedFields<Block> {
  dimensions: Dimension<Block>[]
  /** The requested metrics, then those only filtered on. */
  metrics: Metric[]
  visible: number
  /** Dimensions the filter uses: they count for compatibility too. */
  filterDimensions: Dimension<Block>[]
}

export const notSupported = (field: string) =>
  invalidArgument(`${field} is not supported by this sandbox provider; leave it out.`)

export function resolveFields<Block>(
  request: FieldRequest,
  sets: FieldSets<Block>,
  rangeCount: number,
): ResolvedFields<Block> {
  const dimensionRequests = request.dimensions ?? []
  const metricRequests = request.metrics ?? []
  if (dimensionRequests.some((d) => d.dimensionExpression !== undefined))
    throw notSupported('dimensionExpression')
  if (metricRequests.some((m) => m.expression !== undefined))
    throw notSupported('Metric expression')
  if (metricRequests.some((m) => m.invisible !== undefined)) throw notSupported('Metric invisible')
  if (dimensionRequests.length > LIMITS.dimensions)
    throw invalidArgument(
      `The request has ${dimensionRequests.length} dimensions; requests are allowed up to ${LIMITS.dimensions} dimensions.`,
    )
  if (metricRequests.length === 0)
    throw invalidArgument('The request has no metrics; ask for at least one metric.')
  if (metricRequests.length > LIMITS.metrics)
    throw invalidArgument(
      `The request has ${metricRequests.length} metrics; requests are allowed up to ${LIMITS.metrics} metrics.`,
    )

  const dimensionOf = (name: string, where = '') => {
    const dimension = sets.dimensions.get(name)
    if (dimension) return dimension
    const hint = sets.metrics.has(name) ? ` ${name} is a metric: filter it with metricFilter.` : ''
    throw invalidArgument(`Field ${name}${where} is not a valid dimension. ${sets.help}${hint}`)
  }
  const metricOf = (name: string, where = '') => {
    const metric = sets.metrics.get(name)
    if (metric) return metric
    const hint = sets.dimensions.has(name)
      ? ` ${name} is a dimension: filter it with dimensionFilter.`
      : ''
    throw invalidArgument(`Field ${name}${where} is not a valid metric. ${sets.help}${hint}`)
  }
  const dimensions = unique(
    dimensionRequests.map((d) => d.name),
    'dimension',
  ).map((n) => dimensionOf(n))
  const metrics = unique(
    metricRequests.map((m) => m.name),
    'metric',
  ).map((n) => metricOf(n))
  const visible = metrics.length
  const filterDimensions = fieldNames(request.dimensionFilter).map((name) =>
    dimensionOf(name, ' in dimensionFilter'),
  )
  for (const name of fieldNames(request.metricFilter)) {
    const metric = metricOf(name, ' in metricFilter')
    if (!metrics.includes(metric)) metrics.push(metric)
  }

  for (const order of request.orderBys ?? []) {
    if (order.pivot !== undefined) throw notSupported('A pivot orderBy')
    if (
      order.metric &&
      !metrics.slice(0, visible).some((m) => m.apiName === order.metric!.metricName)
    )
      throw invalidArgument(
        `OrderBy metric ${order.metric.metricName} is not a metric of the request; order by one of the request's metrics.`,
      )
    const name = order.dimension?.dimensionName
    if (
      name !== undefined &&
      !dimensions.some((d) => d.apiName === name) &&
      !(name === 'dateRange' && rangeCount > 1)
    )
      throw invalidArgument(
        `OrderBy dimension ${name} is not a dimension of the request; order by one of the request's dimensions.`,
      )
  }
  if ((request.metricAggregations ?? []).includes('METRIC_AGGREGATION_UNSPECIFIED'))
    throw invalidArgument('metricAggregations takes TOTAL, MINIMUM, MAXIMUM or COUNT.')
  return { dimensions, metrics, visible, filterDimensions }
}

function unique(names: string[], what: string): string[] {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name))
      throw invalidArgument(`The ${what} ${name} is requested more than once; request it once.`)
    seen.add(name)
  }
  return names
}

/** The rows a request asks for: 10,000 by default; more than 250,000 gives 250,000. */
export function rowLimit(limit: number | undefined): number {
  if (limit === undefined) return LIMITS.defaultRows
  if (limit <= 0) throw invalidArgument(`limit must be positive; it is ${limit}.`)
  return Math.min(limit, LIMITS.maxRows)
}

export function rowOffset(offset: number | undefined): number {
  if (offset === undefined) return 0
  if (offset < 0) throw invalidArgument(`offset must not be negative; it is ${offset}.`)
  return offset
}

/** A range's name: given, or `date_range_N`; a given name cannot take the reserved prefixes. */
export function rangeName(name: string | undefined, index: number, what: string): string {
  if (name === undefined || name === '') return `date_range_${index}`
  if (name.startsWith('date_range_') || name.startsWith('RESERVED_'))
    throw invalidArgument(
      `The ${what} name "${name.slice(0, 100)}" cannot begin with date_range_ or RESERVED_.`,
    )
  return name
}

/** A `property` in a body must be the path's (the real API: unspecified or consistent). */
export function checkProperty(property: string | undefined, id: string) {
  if (property !== undefined && property !== '' && property !== `properties/${id}`)
    throw invalidArgument(
      `The request's property ${property.slice(0, 64)} is not the property of the URL, properties/${id}: leave property out, or give properties/${id}.`,
    )
}
