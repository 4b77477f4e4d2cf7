import { pacificNow } from '../../src/search/analytics/calendar.js'
import type { Row } from '../../src/search/analytics/engine.js'
import { isoDay } from '../../src/synthetic/calendar.js'
import type { ApiResponse, sandboxForSuite } from '../support/sandbox.js'

/** Helpers for the search API tests: a fresh user per test with a token, and calls by site. */

export { expectError, expectInvalid, expectNotFound } from '../tasks/client.js'

type Sandbox = ReturnType<typeof sandboxForSuite>

export const enc = encodeURIComponent

let users = 0

export type { Row }

export interface Answer {
  rows?: Row[]
  responseAggregationType: string
  metadata?: { firstIncompleteDate?: string; firstIncompleteHour?: string }
}

/** A new user with a token of `scopes`, their two sites, and the calls the tests make. */
export async function searchUser(sandbox: Sandbox, scopes = ['webmasters'], prefix = 'searcher') {
  const name = `${prefix}${++users}`
  const token = await sandbox.token(name, scopes)
  const prefixSite = `https://www.${name}.example/`
  const domainSite = `sc-domain:${name}.example`
  const call = <T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
    sandbox.request<T>(method, `/search/v1${path}`, { token, ...(body !== undefined && { body }) })
  const analytics = (body: Record<string, unknown>, site = prefixSite) =>
    call<Answer>('POST', `/sites/${enc(site)}/search-analytics`, body)
  /** A successful analytics query: its answer. */
  const query = async (body: Record<string, unknown>, site = prefixSite): Promise<Answer> => {
    const res = await analytics(body, site)
    if (res.status !== 200) throw new Error(`query failed: ${res.status} ${res.text}`)
    return res.body
  }
  return { name, token, prefixSite, domainSite, call, analytics, query }
}

export type SearchUser = Awaited<ReturnType<typeof searchUser>>

/** Days relative to today in Pacific Time, as YYYY-MM-DD. */
export function daysAgo(n: number): string {
  return isoDay(pacificNow().day - n)
}

/** A range well inside the final data, whatever the day: stable while a test runs. */
export const SETTLED = { startDate: daysAgo(120), endDate: daysAgo(30) }

/** The sum of the rows' clicks and impressions, and their impression-weighted position. */
export function totals(rows: Row[] = []) {
  let clicks = 0
  let impressions = 0
  let weighted = 0
  for (const row of rows) {
    clicks += row.clicks
    impressions += row.impressions
    weighted += row.position * row.impressions
  }
  return { clicks, impressions, position: impressions ? weighted / impressions : 0 }
}
