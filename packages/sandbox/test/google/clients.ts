import { BetaAnalyticsDataClient } from '@google-analytics/data'
import { searchconsole } from '@googleapis/searchconsole'
import { tasks } from '@googleapis/tasks'
import { OAuth2Client } from 'google-auth-library'
import { afterAll, expect } from 'vitest'
import type { sandboxForSuite } from '../support/sandbox.js'

/**
 * Google's own client libraries pointed at the sandbox's Google origin G, exactly as
 * docs/sandbox.md, "Pointing Google's clients at it", shows. Each holds an access token and no
 * refresh token, so it never refreshes: nothing here can reach a Google host.
 */

type Sandbox = ReturnType<typeof sandboxForSuite>

export const GOOGLE_SCOPE = (short: string) => `https://www.googleapis.com/auth/${short}`

/** An OAuth2Client holding only an access token. */
export function bearer(accessToken: string): OAuth2Client {
  const client = new OAuth2Client()
  client.setCredentials({ access_token: accessToken })
  return client
}

/**
 * gaxios retries GET, PUT and DELETE on 429 and 5xx three times by default; the error tests
 * turn that off to see what one answer surfaces as, and one test keeps it on.
 */
export interface ClientOptions {
  retry?: boolean
}

export const tasksClient = (
  sandbox: Sandbox,
  token: string,
  { retry = false }: ClientOptions = {},
) => tasks({ version: 'v1', rootUrl: `${sandbox.googleUrl}/`, auth: bearer(token), retry })

export const searchClient = (
  sandbox: Sandbox,
  token: string,
  { retry = false }: ClientOptions = {},
) => searchconsole({ version: 'v1', rootUrl: `${sandbox.googleUrl}/`, auth: bearer(token), retry })

/** The analytics client over REST to G; close it after use. */
export function analyticsClient(sandbox: Sandbox, token: string): BetaAnalyticsDataClient {
  return new BetaAnalyticsDataClient({
    fallback: 'rest',
    protocol: 'http',
    apiEndpoint: '127.0.0.1',
    port: Number(new URL(sandbox.googleUrl).port),
    authClient: bearer(token),
  })
}

/**
 * What a GaxiosError carries that a caller of Google's clients reads (docs/sandbox.md, "Pointing
 * Google's clients at it").
 */
export interface SurfacedError {
  message: string
  status: number
  code: unknown
  cause?: {
    status?: string
    code?: number
    message?: string
    errors?: { reason: string; message: string; domain: string }[]
  }
  response?: { status: number; headers: Headers; data: unknown }
}

/** The error a call is rejected with; fails the test when it succeeds. */
export async function rejection(promise: Promise<unknown>): Promise<SurfacedError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome)}`)
  const error = outcome.error as SurfacedError & Error
  expect(error.constructor.name).toBe('GaxiosError')
  return error
}

/** The sites and analytics properties `user` owns, from the control API. */
export async function assetsOf(sandbox: Sandbox, user: string) {
  const res = await sandbox.request('GET', `/_sandbox/users/${encodeURIComponent(user)}`)
  return res.body as { sites: string[]; properties: string[] }
}

/**
 * People with Google's Analytics Data client for a test file: each a token for the analytics
 * scope and their first property; every client is closed after the file.
 */
export function analyticsPeople(sandbox: Sandbox) {
  const opened: BetaAnalyticsDataClient[] = []
  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()))
  })
  return async (user: string) => {
    const ga = analyticsClient(sandbox, await sandbox.token(user, ['analytics.readonly']))
    opened.push(ga)
    const { properties } = await assetsOf(sandbox, user)
    return { ga, property: `properties/${properties[0]}`, id: properties[0]! }
  }
}

/** Queues a fault on the control API (which covers G's paths too). */
export async function fault(sandbox: Sandbox, spec: Record<string, unknown>) {
  const res = await sandbox.request('POST', '/_sandbox/faults', { body: spec })
  expect(res.status, res.text).toBe(200)
}
