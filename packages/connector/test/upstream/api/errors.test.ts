import { describe, expect, it } from 'vitest'
import { retryAfter } from '../../../src/upstream/api/attempt.js'
import { errorForAnswer } from '../../../src/upstream/api/errors.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { apiError, apiFor, grantFor, newUser, requests } from './harness.js'

const sandbox = sandboxForSuite()

const task = (id: string) => ({ tasklist: '@default', task: id })

async function newTask(api: ReturnType<typeof apiFor>, grant: any, title: string) {
  const created = await api.call(
    {
      service: 'tasks',
      method: 'POST',
      path: '/lists/{tasklist}/tasks',
      pathParams: { tasklist: '@default' },
      body: { title },
      idempotent: false,
    },
    grant,
  )
  return created.body as { id: string; etag: string }
}

describe("UpstreamApi: the provider's errors", () => {
  it('maps a 404 to not_found with the provider’s message', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks/{task}',
          pathParams: task('no-such-task'),
          idempotent: true,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'not_found', status: 404, reason: 'notFound' })
    expect(error.providerMessage).toContain('no-such-task')
    // Our own message holds nothing from the request: it is what gets logged.
    expect(error.message).not.toContain('no-such-task')
  })

  it('maps a 400 INVALID_ARGUMENT to invalid (maxResults=1000 on list tasks), without retrying', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const since = (await requests(sandbox)).length
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'GET',
          path: '/lists/{tasklist}/tasks',
          pathParams: { tasklist: '@default' },
          query: { maxResults: 1000 },
          idempotent: true,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'invalid', status: 400, reason: 'invalid' })
    expect(error.providerMessage).toMatch(/maxResults/)
    expect(await requests(sandbox, since)).toHaveLength(1)
  })

  it('maps a 400 FAILED_PRECONDITION to failed_precondition, keeping the reason', async () => {
    const api = apiFor(sandbox)
    const user = newUser()
    const grant = await grantFor(sandbox, user)
    const assigned = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
      body: { user, tasklist: '@default', title: 'Assigned', surfaceType: 'DOCUMENT' },
    })
    expect(assigned.status).toBe(200)
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'POST',
          path: '/lists/{tasklist}/tasks',
          pathParams: { tasklist: '@default' },
          query: { parent: assigned.body.id },
          body: { title: 'Under an assigned task' },
          idempotent: false,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({
      kind: 'failed_precondition',
      status: 400,
      reason: 'failedPrecondition',
    })
    expect(error.providerMessage).toMatch(/assigned task cannot be a parent/)
  })

  it('maps a 412 (If-Match with a stale etag on PATCH) to conflict, and sends If-Match', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser())
    const { id, etag } = await newTask(api, grant, 'Before')
    const patch = (title: string, ifMatch: string) =>
      api.call(
        {
          service: 'tasks',
          method: 'PATCH',
          path: '/lists/{tasklist}/tasks/{task}',
          pathParams: task(id),
          body: { title },
          ifMatch,
          idempotent: true,
        },
        grant,
      )
    const changed = await patch('After', etag)
    expect((changed.body as any).title).toBe('After')
    expect(changed.etag).toBeDefined()
    expect(changed.etag).not.toBe(etag)

    const error = await apiError(patch('Lost update', etag))
    expect(error).toMatchObject({ kind: 'conflict', status: 412, reason: 'conditionNotMet' })
    expect(error.providerMessage).toBeTruthy()
  })

  it('maps a 403 (a read-only token writing) to permission', async () => {
    const api = apiFor(sandbox)
    const grant = await grantFor(sandbox, newUser(), ['tasks.readonly'])
    const error = await apiError(
      api.call(
        {
          service: 'tasks',
          method: 'POST',
          path: '/lists',
          body: { title: 'x' },
          idempotent: false,
        },
        grant,
      ),
    )
    expect(error).toMatchObject({
      kind: 'permission',
      status: 403,
      reason: 'insufficientPermissions',
    })
  })

  it('calls a 2xx answer that is not JSON malformed, with its status, never a crash', async () => {
    // The sandbox's web pages answer HTML: a base URL pointing there stands in for a provider
    // whose API answers something other than JSON.
    const api = apiFor(sandbox, {
      apiBase: { tasks: `${sandbox.url}/web`, search: sandbox.url, analytics: sandbox.url },
    })
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(
      api.call({ service: 'tasks', method: 'GET', path: '/tasks', idempotent: true }, grant),
    )
    expect(error).toMatchObject({ kind: 'malformed', status: 200 })
    expect(error.providerMessage).toBeUndefined()
  })

  it('calls a 400 that is not the provider’s error shape malformed, with its status', async () => {
    // The sandbox's OAuth token endpoint answers errors in OAuth's shape, not the API's.
    const api = apiFor(sandbox, {
      apiBase: { tasks: `${sandbox.url}/oauth`, search: sandbox.url, analytics: sandbox.url },
    })
    const grant = await grantFor(sandbox, newUser())
    const error = await apiError(
      api.call(
        { service: 'tasks', method: 'POST', path: '/token', body: {}, idempotent: false },
        grant,
      ),
    )
    expect(error).toMatchObject({ kind: 'malformed', status: 400 })
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-05-01T00:00:00Z')
    expect(retryAfter('3', now)).toBe(3_000)
    expect(retryAfter(' 0 ', now)).toBe(0)
    expect(retryAfter('Fri, 01 May 2026 00:00:10 GMT', now)).toBe(10_000)
    expect(retryAfter('Thu, 30 Apr 2026 00:00:00 GMT', now)).toBe(0)
    expect(retryAfter('soon', now)).toBeUndefined()
    expect(retryAfter('-5', now)).toBeUndefined()
    expect(retryAfter(undefined, now)).toBeUndefined()
  })
})

describe('what a 403 or a 429 says beyond its status (Google’s usage limits)', () => {
  const apiary = (code: number, reason: string, message: string) => ({
    error: { code, message, errors: [{ reason, message, domain: 'usageLimits' }] },
  })
  const onePlatform = (code: number, status: string, reason: string, message: string) => ({
    error: {
      code,
      message,
      status,
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason,
          domain: 'googleapis.com',
          metadata: { service: 'analyticsdata.googleapis.com' },
        },
      ],
    },
  })
  it.each([
    [403, apiary(403, 'userRateLimitExceeded', 'User Rate Limit Exceeded'), 'rate_limited'],
    [403, apiary(403, 'rateLimitExceeded', "limit 'Queries per minute'"), 'rate_limited'],
    [403, apiary(403, 'dailyLimitExceeded', 'Daily Limit Exceeded'), 'quota_exhausted'],
    [403, apiary(403, 'quotaExceeded', "limit 'Queries per day'"), 'quota_exhausted'],
    [403, apiary(403, 'accessNotConfigured', 'Tasks API has not been used'), 'api_disabled'],
    [403, apiary(403, 'forbidden', 'User does not have sufficient permission'), 'permission'],
    [403, apiary(403, 'insufficientPermissions', 'Insufficient Permission'), 'permission'],
    [
      429,
      onePlatform(
        429,
        'RESOURCE_EXHAUSTED',
        'RATE_LIMIT_EXCEEDED',
        'Exhausted property tokens per day for this property.',
      ),
      'quota_exhausted',
    ],
    [
      429,
      onePlatform(
        429,
        'RESOURCE_EXHAUSTED',
        'RATE_LIMIT_EXCEEDED',
        'Exhausted concurrent requests for this property.',
      ),
      'rate_limited',
    ],
    [
      403,
      onePlatform(
        403,
        'PERMISSION_DENIED',
        'SERVICE_DISABLED',
        'Google Analytics Data API has not been used in project 1 before or it is disabled.',
      ),
      'api_disabled',
    ],
    [429, undefined, 'rate_limited'],
    [403, undefined, 'permission'],
  ])('%i %j is %s', (status, body, kind) => {
    expect(errorForAnswer(status, body, true, undefined, 'token').kind).toBe(kind)
  })

  it('a quota says its period: the day, or the hour', () => {
    const hourly = onePlatform(
      429,
      'RESOURCE_EXHAUSTED',
      'RATE_LIMIT_EXCEEDED',
      'Exhausted property tokens per hour for this property.',
    )
    expect(errorForAnswer(429, hourly, true, undefined, 't')).toMatchObject({
      kind: 'quota_exhausted',
      quotaPeriod: 'hour',
    })
  })
})
