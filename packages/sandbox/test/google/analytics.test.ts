import { protos } from '@google-analytics/data'
import { describe, expect, it } from 'vitest'
import { requestsSince } from '../support/request-log.js'
import { sandboxForSuite } from '../support/sandbox.js'
import { analyticsPeople, fault, rejection } from './clients.js'

/**
 * Google's Analytics Data client (`@google-analytics/data` 6.1.0, gax 5 over REST) against the
 * sandbox's Google origin. It sends enums as numbers and int64s as strings, asks for numeric enums
 * back (`$alt=json;enum-encoding=int`), and on gax 5 surfaces an HTTP error as a GaxiosError whose
 * message is the raw JSON body (docs/sandbox.md, "Pointing Google's clients at it").
 */

const sandbox = sandboxForSuite()

const person = analyticsPeople(sandbox)

/** The Google JSON error a gax 5 GaxiosError carries as its message. */
const bodyOf = (message: string) =>
  JSON.parse(message) as { error: { code: number; message: string; status: string } }

const { MetricAggregation } = protos.google.analytics.data.v1beta

const lastWeek = [{ startDate: '7daysAgo', endDate: 'today' }]

describe("Google's Analytics Data client against G", () => {
  it('getMetadata: the property name and its fields, enums decoded from numbers', async () => {
    const { ga, property } = await person('ga-alice')
    const since = (await requestsSince(sandbox, 0)).length
    const [metadata] = await ga.getMetadata({ name: `${property}/metadata` })
    expect(metadata.name).toBe(`${property}/metadata`)
    const activeUsers = metadata.metrics!.find((m) => m.apiName === 'activeUsers')
    expect(activeUsers).toMatchObject({ uiName: 'Active users', type: 'TYPE_INTEGER' })
    expect(metadata.dimensions!.some((d) => d.apiName === 'country')).toBe(true)
    const [logged] = await requestsSince(sandbox, since)
    expect(logged).toEqual({
      method: 'GET',
      path: `/v1beta/${property}/metadata`,
      status: 200,
      dialect: 'google',
    })
  })

  it('runReport: numeric enums (TOTAL, EXACT) and string int64s in, the same report as the generic dialect out', async () => {
    const { ga, property, id } = await person('ga-bob')
    const common = {
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'activeUsers' }, { name: 'sessions' }],
      dateRanges: [{ startDate: '2026-01-01', endDate: '2026-01-31' }],
      orderBys: [{ metric: { metricName: 'sessions' }, desc: true }],
      dimensionFilter: {
        notExpression: {
          filter: {
            fieldName: 'country',
            stringFilter: { matchType: 'EXACT' as const, value: 'Japan' },
          },
        },
      },
      keepEmptyRows: false,
    }
    const [report] = await ga.runReport({
      property,
      ...common,
      metricAggregations: [MetricAggregation.TOTAL],
      limit: 5,
      offset: 1,
    })
    expect(report.kind).toBe('analyticsData#runReport')
    expect(report.metricHeaders).toEqual([
      { name: 'activeUsers', type: 'TYPE_INTEGER' },
      { name: 'sessions', type: 'TYPE_INTEGER' },
    ])
    expect(report.rows!.length).toBeGreaterThan(0)
    expect(report.rows!.length).toBeLessThanOrEqual(5)
    expect(report.rows!.map((r) => r.dimensionValues![0]!.value)).not.toContain('Japan')
    expect(report.totals).toHaveLength(1)

    const token = await sandbox.token('ga-bob', ['analytics.readonly'])
    const seed = await sandbox.request('POST', `/analytics/v1/properties/${id}/report`, {
      token,
      body: { ...common, metricAggregations: ['TOTAL'], limit: 5, offset: 1 },
    })
    expect(seed.status, seed.text).toBe(200)
    expect(report.rowCount).toBe(seed.body.rowCount)
    expect(report.rows!.map((r) => r.metricValues!.map((v) => v.value))).toEqual(
      seed.body.rows.map((r: any) => r.metricValues.map((v: any) => v.value)),
    )
  })

  it('runRealtimeReport: minute ranges within the last 30 minutes', async () => {
    const { ga, property } = await person('ga-carol')
    const [report] = await ga.runRealtimeReport({
      property,
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'activeUsers' }],
      minuteRanges: [{ startMinutesAgo: 29, endMinutesAgo: 0 }],
      limit: 5,
    })
    expect(report.kind).toBe('analyticsData#runRealtimeReport')
    expect(report.metricHeaders).toEqual([{ name: 'activeUsers', type: 'TYPE_INTEGER' }])
    expect(report.rows!.length).toBeLessThanOrEqual(5)
  })

  it('batchRunReports: two reports in one call', async () => {
    const { ga, property } = await person('ga-dave')
    const [batch] = await ga.batchRunReports({
      property,
      requests: [
        {
          dimensions: [{ name: 'country' }],
          metrics: [{ name: 'activeUsers' }],
          dateRanges: [{ startDate: '2026-01-01', endDate: '2026-01-31' }],
        },
        {
          metrics: [{ name: 'sessions' }],
          dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }],
        },
      ],
    })
    expect(batch.kind).toBe('analyticsData#batchRunReports')
    expect(batch.reports!.map((r) => r.metricHeaders![0]!.name)).toEqual([
      'activeUsers',
      'sessions',
    ])
  })

  it("403: a property of someone else; the message is Google's raw JSON body, without errors[]", async () => {
    const { ga } = await person('ga-erin')
    const error = await rejection(
      ga.runReport({
        property: 'properties/123456',
        metrics: [{ name: 'activeUsers' }],
        dateRanges: lastWeek,
      }),
    )
    expect(error.status).toBe(403)
    const body = bodyOf(error.message)
    expect(body.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' })
    expect(body.error.message).toContain('sufficient permissions for this property')
    expect(body.error).not.toHaveProperty('errors')
  })

  it('400: an unknown metric, and a property in the body that is not the one of the path', async () => {
    const { ga, property } = await person('ga-frank')
    const unknown = await rejection(
      ga.runReport({ property, metrics: [{ name: 'notAMetric' }], dateRanges: lastWeek }),
    )
    expect(unknown.status).toBe(400)
    expect(bodyOf(unknown.message).error).toMatchObject({ status: 'INVALID_ARGUMENT' })
    expect(bodyOf(unknown.message).error.message).toContain('notAMetric')

    // The client moves `property` into the path; a batch's inner requests keep theirs.
    const mismatch = await rejection(
      ga.batchRunReports({
        property,
        requests: [
          { property: 'properties/42', metrics: [{ name: 'sessions' }], dateRanges: lastWeek },
        ],
      }),
    )
    expect(mismatch.status).toBe(400)
    expect(bodyOf(mismatch.message).error.message).toContain('properties/42')
  })

  it('404 and 429 (injected): the status, the body and Retry-After as the client surfaces them', async () => {
    const { ga, property, id } = await person('ga-gina')
    await fault(sandbox, { match: { path: `/v1beta/properties/${id}/metadata` }, status: 404 })
    const missing = await rejection(ga.getMetadata({ name: `${property}/metadata` }))
    expect(missing.status).toBe(404)
    expect(bodyOf(missing.message).error).toEqual({
      code: 404,
      message: 'Injected fault: 404.',
      status: 'NOT_FOUND',
    })

    await fault(sandbox, {
      match: { path: `/v1beta/properties/${id}:runReport` },
      status: 429,
      retryAfter: 5,
    })
    const limited = await rejection(
      ga.runReport({ property, metrics: [{ name: 'sessions' }], dateRanges: lastWeek }),
    )
    expect(limited.status).toBe(429)
    expect(bodyOf(limited.message).error.status).toBe('RESOURCE_EXHAUSTED')
    expect(limited.response!.headers.get('retry-after')).toBe('5')
  })
})
