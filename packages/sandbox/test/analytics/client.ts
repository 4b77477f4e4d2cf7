import { expect } from 'vitest'
import { providerError, type ApiResponse, type sandboxForSuite } from '../support/sandbox.js'

/** Helpers for the analytics API tests: a fresh user with a token and their two properties. */

type Sandbox = ReturnType<typeof sandboxForSuite>
export type Body = Record<string, unknown>

let users = 0

export async function analyticsUser(sandbox: Sandbox, scopes = ['analytics.readonly']) {
  const name = `analyst${++users}`
  const token = await sandbox.token(name, scopes)
  const assets = await sandbox.request('GET', `/_sandbox/users/${name}`)
  const properties = assets.body.properties as [string, string]
  const call = (method: string, path: string, body?: unknown) =>
    sandbox.request(method, `/analytics/v1${path}`, {
      token,
      ...(body !== undefined && { body }),
    })
  const user = {
    name,
    token,
    properties,
    property: properties[0],
    call,
    metadata: (property = properties[0]) => call('GET', `/properties/${property}/metadata`),
    post: (
      kind: 'report' | 'reports' | 'realtime-report',
      body: unknown,
      property = properties[0],
    ) => call('POST', `/properties/${property}/${kind}`, body),
    /** A successful runReport. */
    async report(body: Body, property = properties[0]) {
      return ok(await user.post('report', body, property))
    },
    async realtime(body: Body, property = properties[0]) {
      return ok(await user.post('realtime-report', body, property))
    },
  }
  return user
}

export type AnalyticsUser = Awaited<ReturnType<typeof analyticsUser>>

export function ok(res: ApiResponse) {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text}`)
  return res.body
}

/** Asserts a 400 INVALID_ARGUMENT in the provider's shape; returns its message. */
export function invalid(res: ApiResponse): string {
  if (res.status !== 400) throw new Error(`expected 400, got ${res.status}: ${res.text}`)
  const error = providerError(res)
  expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
  expect(error.errors[0]).toMatchObject({ reason: 'invalid', domain: 'global' })
  return error.message
}

/** The rows of a report as plain arrays: dimension values and metric values, all strings. */
export function table(report: any): { dims: string[]; metrics: string[] }[] {
  return (report.rows ?? []).map((row: any) => ({
    dims: (row.dimensionValues ?? []).map((v: any) => v.value),
    metrics: row.metricValues.map((v: any) => v.value),
  }))
}

/** A column of metric values as numbers. */
export const column = (report: any, index: number): number[] =>
  table(report).map((row) => Number(row.metrics[index]))

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

export const names = (list: { name: string }[]) => list.map((item) => item.name)
export const dims = (...list: string[]) => list.map((name) => ({ name }))
export const metrics = dims

/** The last 28 full days: the usual window. */
export const LAST_28_DAYS = [{ startDate: '28daysAgo', endDate: 'yesterday' }]
