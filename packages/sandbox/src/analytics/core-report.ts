import type { PropertyQuotas } from '../core/property-quotas.js'
import { invalidArgument } from '../http/errors.js'
import { localNow, parseDay } from '../synthetic/calendar.js'
import { addUp, type DayRange } from './aggregate.js'
import { catalogOf } from './catalog.js'
import { compatibleScope } from './compatibility.js'
import { dimensionTest, metricTest } from './filters.js'
import type { PropertyProfile } from './property.js'
import type { ReportRequest } from './request.js'
import { refuseBlockedFilters, schemaRestriction } from './restrictions.js'
import {
  checkProperty,
  CORE_SCHEMA_HELP,
  notSupported,
  rangeName,
  resolveFields,
  rowLimit,
  rowOffset,
} from './rules.js'
import { reportTable } from './table.js'
import { USD_RATES } from './vocabulary.js'

/** runReport: one core report of a property, as `POST /properties/{id}/report` answers it. */
export function runReport(
  profile: PropertyProfile,
  request: ReportRequest,
  quotas: PropertyQuotas,
  now = Date.now(),
) {
  if (request.cohortSpec !== undefined) throw notSupported('cohortSpec')
  if (request.comparisons !== undefined) throw notSupported('comparisons')
  checkProperty(request.property, profile.id)
  const catalog = catalogOf(profile)
  const today = localNow(profile.timeZone, now)
  const named = dateRanges(request.dateRanges, today.day)
  const fields = resolveFields(
    request,
    { dimensions: catalog.dimensions, metrics: catalog.metrics, help: CORE_SCHEMA_HELP },
    named.length,
  )
  refuseCohortFields([...fields.dimensions, ...fields.filterDimensions, ...fields.metrics])
  refuseBlockedFilters(request.metricFilter, (name) => catalog.metrics.get(name))
  const scope = compatibleScope([...fields.dimensions, ...fields.filterDimensions], fields.metrics)
  const limit = rowLimit(request.limit)
  const offset = rowOffset(request.offset)
  const currencyCode = request.currencyCode || profile.currency
  const rate = conversionRate(profile.currency, currencyCode)
  const metricIndex = (name: string) => fields.metrics.findIndex((m) => m.apiName === name)
  // Both filters are compiled (and refused if wrong) before any adding up.
  const metricFilter = request.metricFilter && metricTest(request.metricFilter, metricIndex)
  const test =
    request.dimensionFilter &&
    dimensionTest(request.dimensionFilter, (name) => catalog.dimensions.get(name)!)
  const { rows, totalSums, dataLossFromOtherRow } = addUp({
    profile,
    scope,
    ranges: named,
    today,
    dimensions: fields.dimensions,
    test,
    rate,
    totals: (request.metricAggregations ?? []).length > 0,
  })
  const table = reportTable({
    dimensions: fields.dimensions,
    rangeNames: named.map((r) => r.name),
    metrics: fields.metrics,
    visible: fields.visible,
    rows,
    metricFilter,
    orderBys: request.orderBys ?? [],
    offset,
    limit,
    aggregations: request.metricAggregations ?? [],
    keepEmptyRows: request.keepEmptyRows === true,
    totalSums,
  })
  const quota = quotas.charge(profile.id, now)
  return {
    ...table,
    metadata: {
      ...(dataLossFromOtherRow && { dataLossFromOtherRow }),
      ...schemaRestriction(fields.metrics.slice(0, fields.visible)),
      currencyCode,
      timeZone: profile.timeZone,
    },
    ...(request.returnPropertyQuota && { propertyQuota: quota }),
    kind: 'analyticsData#runReport',
  }
}

/** Cohort dimensions and metrics describe a cohortSpec's cohorts, which this sandbox lacks. */
function refuseCohortFields(fields: readonly { apiName: string; category: string }[]) {
  const cohort = fields.find((field) => field.category === 'Cohort')
  if (cohort)
    throw invalidArgument(
      `${cohort.apiName} is a cohort field: it needs a cohortSpec, which is not supported by this sandbox provider. Leave it out.`,
    )
}

const MAX_DATE_RANGES = 4

const RELATIVE_DATE = /^(today|yesterday|(\d{1,5})daysAgo)$/
/** This API has always refused dates before the year 100 (search analytics takes them). */
const FIRST_DATE = parseDay('0100-01-01')!

/** The day a request's date names, relative dates counted back from `today`. */
function resolveDate(text: string, today: number): number | undefined {
  const relative = RELATIVE_DATE.exec(text)
  if (relative) {
    if (relative[1] === 'today') return today
    if (relative[1] === 'yesterday') return today - 1
    return today - Number(relative[2])
  }
  const day = parseDay(text)
  return day !== undefined && day >= FIRST_DATE ? day : undefined
}

function dateRanges(
  ranges: ReportRequest['dateRanges'],
  today: number,
): (DayRange & { name: string })[] {
  if (!ranges?.length)
    throw invalidArgument(
      'The request has no dateRanges; give 1 to 4, such as {"startDate": "28daysAgo", "endDate": "yesterday"}.',
    )
  if (ranges.length > MAX_DATE_RANGES)
    throw invalidArgument(
      `The request has ${ranges.length} dateRanges; requests are allowed up to ${MAX_DATE_RANGES} date ranges.`,
    )
  return ranges.map((range, i) => {
    const day = (field: 'startDate' | 'endDate') => {
      const text = range[field]
      const resolved = resolveDate(text, today)
      if (resolved === undefined)
        throw invalidArgument(
          `Invalid ${field} "${text.slice(0, 40)}" in date_ranges[${i}]: a date is YYYY-MM-DD (a real date), today, yesterday or NdaysAgo.`,
        )
      return resolved
    }
    const first = day('startDate')
    const last = day('endDate')
    if (first > last)
      throw invalidArgument(
        `Invalid date range date_ranges[${i}]: startDate ${range.startDate} is after endDate ${range.endDate}.`,
      )
    return { first, last, name: rangeName(range.name, i, 'date range') }
  })
}

function conversionRate(from: string, to: string): number {
  const target = USD_RATES[to]
  if (!/^[A-Z]{3}$/.test(to) || target === undefined)
    throw invalidArgument(
      `currencyCode "${to.slice(0, 10)}" is not a supported currency: give an ISO 4217 code, one of ${Object.keys(USD_RATES).join(', ')}.`,
    )
  return target / USD_RATES[from]!
}
