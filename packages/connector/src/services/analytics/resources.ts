import { z } from 'zod'

/**
 * What the analytics provider returns, loosely: the fields a model reads are described, and
 * every object keeps fields not named here, so a provider that adds one breaks nothing.
 */

const value = z.looseObject({
  value: z.string().optional().describe('Always a string, numbers included.'),
})

const row = z
  .looseObject({
    dimensionValues: z.array(value).optional().describe('In the order of dimensionHeaders.'),
    metricValues: z.array(value).optional().describe('In the order of metricHeaders.'),
  })
  .describe('One row.')

const rows = (what: string) => z.array(row).optional().describe(what)

export const report = z
  .looseObject({
    kind: z.literal('analyticsData#runReport').optional(),
    dimensionHeaders: z
      .array(z.looseObject({ name: z.string() }))
      .optional()
      .describe('The dimension columns; absent when the report has none.'),
    metricHeaders: z
      .array(
        z.looseObject({
          name: z.string(),
          type: z
            .string()
            .optional()
            .describe('TYPE_INTEGER, TYPE_FLOAT, TYPE_SECONDS, TYPE_CURRENCY, ...'),
        }),
      )
      .optional()
      .describe('The metric columns, with their types.'),
    rows: rows('This page of rows; absent when the report (or this page) is empty.'),
    totals: rows('With metricAggregations TOTAL or COUNT: one row per date range.'),
    maximums: rows('With metricAggregations MAXIMUM.'),
    minimums: rows('With metricAggregations MINIMUM.'),
    rowCount: z
      .number()
      .int()
      .optional()
      .describe('Rows in the whole report, whatever limit and offset; absent when 0.'),
    metadata: z
      .looseObject({
        currencyCode: z.string().optional(),
        timeZone: z.string().optional(),
      })
      .optional()
      .describe('The currency of revenue values and the time zone of dates.'),
    propertyQuota: z.looseObject({}).optional().describe('With returnPropertyQuota.'),
  })
  .describe('A report.')

export const realtimeReport = report
  .extend({ kind: z.literal('analyticsData#runRealtimeReport').optional() })
  .describe('A realtime report of the last 30 minutes.')

export const reports = z
  .looseObject({
    kind: z.literal('analyticsData#batchRunReports').optional(),
    reports: z.array(report).optional().describe('One report per request, in order.'),
  })
  .describe('Several reports.')

/** What every entry of the metadata has, dimension or metric. */
const entry = {
  apiName: z.string().describe('The name to use in reports.'),
  uiName: z.string().optional(),
  description: z.string().optional(),
  deprecatedApiNames: z
    .array(z.string())
    .optional()
    .describe('Older names the provider still accepts for it.'),
  customDefinition: z.boolean().optional().describe('A custom definition of this property.'),
  category: z.string().optional(),
}

export const metadata = z
  .looseObject({
    name: z.string().optional().describe('properties/{propertiesId}/metadata'),
    dimensions: z.array(z.looseObject(entry)).optional(),
    metrics: z
      .array(
        z.looseObject({
          ...entry,
          type: z.string().optional(),
          expression: z.string().optional().describe('For a derived metric: how it is computed.'),
          blockedReasons: z
            .array(z.string())
            .optional()
            .describe('Why the person may not see its values (NO_COST_METRICS, ...).'),
        }),
      )
      .optional(),
  })
  .describe('The dimensions and metrics the property offers.')
