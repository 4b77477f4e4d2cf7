import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { requestsSince } from '../support/request-log.js'
import { sandboxForSuite } from '../support/sandbox.js'
import { assetsOf, fault } from './clients.js'

/**
 * The Google dialect on the wire (docs/sandbox.md, "Google dialect"), where Google's clients cannot
 * show it: the same data as the generic dialect, Google's system parameters, enums and int64s, path
 * encodings, 204s, If-Match, error shapes per surface, and the control API over both origins.
 */

const sandbox = sandboxForSuite()

describe('the Google dialect on the wire', () => {
  it('serves the same data as the generic dialect, with selfLinks on the origin that answered', async () => {
    const token = await sandbox.token('gd-alice', ['tasks'])
    const made = await sandbox.request('POST', '/tasks/v1/lists', {
      token,
      body: { title: 'From S' },
    })
    const seen = await sandbox.googleRequest('GET', '/tasks/v1/users/@me/lists', { token })
    expect(seen.body.items.map((l: { title: string }) => l.title)).toEqual(['My Tasks', 'From S'])
    const list = seen.body.items[1]
    expect(list.id).toBe(made.body.id)
    expect(list.etag).toBe(made.body.etag)
    expect(made.body.selfLink).toBe(`${sandbox.url}/tasks/v1/lists/${list.id}`)
    expect(list.selfLink).toBe(`${sandbox.googleUrl}/tasks/v1/users/@me/lists/${list.id}`)

    const task = await sandbox.googleRequest('POST', `/tasks/v1/lists/${list.id}/tasks`, {
      token,
      body: { title: 'From G' },
    })
    const back = await sandbox.request('GET', `/tasks/v1/lists/${list.id}/tasks/${task.body.id}`, {
      token,
    })
    expect(back.body.title).toBe('From G')
    expect(back.body.etag).toBe(task.body.etag)
    expect(back.body.webViewLink).toBe(task.body.webViewLink)
    expect(task.body.webViewLink).toBe(`${sandbox.url}/web/tasks/${task.body.id}`)
  })

  it('compares path segments decoded: %40default, %40me and RFC 6570 escapes all match', async () => {
    const token = await sandbox.token('gd-bob', ['tasks'])
    const spellings = [
      '/tasks/v1/lists/@default/tasks',
      '/tasks/v1/lists/%40default/tasks',
      '/tasks/v1/lists/%40%64efault/tasks',
    ]
    for (const path of spellings)
      expect((await sandbox.googleRequest('GET', path, { token })).status, path).toBe(200)
    expect(
      (await sandbox.googleRequest('GET', '/tasks/v1/users/%40me/lists', { token })).status,
    ).toBe(200)
    const bad = await sandbox.googleRequest('GET', '/tasks/v1/lists/%E0%A4%A/tasks', { token })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('percent-encoding')
  })

  it("ignores Google's system parameters, but still refuses an unknown one", async () => {
    const token = await sandbox.token('gd-carol', ['tasks'])
    const plain = await sandbox.googleRequest('GET', '/tasks/v1/users/@me/lists', { token })
    const system =
      '?alt=json&$alt=json&prettyPrint=false&$prettyPrint=true&fields=items(id)&quotaUser=q&$.xgafv=2'
    const withSystem = await sandbox.googleRequest('GET', `/tasks/v1/users/@me/lists${system}`, {
      token,
    })
    expect(withSystem.status).toBe(200)
    expect(withSystem.body).toEqual(plain.body)
    const unknown = await sandbox.googleRequest('GET', '/tasks/v1/users/@me/lists?colour=red', {
      token,
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toContain('colour')
  })

  it('answers DELETE and a sitemap PUT with 204 and no body; ignores If-Match, which S honours', async () => {
    const token = await sandbox.token('gd-dave', ['tasks', 'webmasters'])
    const make = async () =>
      (
        await sandbox.googleRequest('POST', '/tasks/v1/lists/%40default/tasks', {
          token,
          body: { title: 'Doomed' },
        })
      ).body as { id: string }
    const stale = { 'if-match': '"stale-etag"' }
    const task = await make()
    const seedRefusal = await sandbox.request(
      'DELETE',
      `/tasks/v1/lists/@default/tasks/${task.id}`,
      {
        token,
        headers: stale,
      },
    )
    expect(seedRefusal.status).toBe(412)
    const deleted = await sandbox.googleRequest(
      'DELETE',
      `/tasks/v1/lists/@default/tasks/${task.id}`,
      {
        token,
        headers: stale,
      },
    )
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')

    const { sites } = await assetsOf(sandbox, 'gd-dave')
    const site = encodeURIComponent(sites[0]!)
    const feed = encodeURIComponent(`${sites[0]}sitemap.xml`)
    const submitted = await sandbox.googleRequest(
      'PUT',
      `/webmasters/v3/sites/${site}/sitemaps/${feed}`,
      { token },
    )
    expect(submitted.status).toBe(204)
    expect(submitted.text).toBe('')
  })

  it('analytics: numeric or named enums and int64s as strings or numbers give one report', async () => {
    const token = await sandbox.token('gd-erin', ['analytics.readonly'])
    const [id] = (await assetsOf(sandbox, 'gd-erin')).properties
    const base = {
      dimensions: [{ name: 'country' }],
      metrics: [{ name: 'sessions' }],
      dateRanges: [{ startDate: '2026-02-01', endDate: '2026-02-28' }],
    }
    const named = {
      ...base,
      metricAggregations: ['TOTAL', 'MAXIMUM'],
      dimensionFilter: {
        filter: { fieldName: 'country', stringFilter: { matchType: 'CONTAINS', value: 'an' } },
      },
      orderBys: [{ dimension: { dimensionName: 'country', orderType: 'ALPHANUMERIC' } }],
      limit: 3,
      offset: 1,
    }
    const numbered = {
      ...base,
      metricAggregations: [1, 6],
      dimensionFilter: {
        filter: { fieldName: 'country', stringFilter: { matchType: 4, value: 'an' } },
      },
      orderBys: [{ dimension: { dimensionName: 'country', orderType: 1 } }],
      limit: '3',
      offset: '1',
    }
    const path = `/v1beta/properties/${id}:runReport`
    const a = await sandbox.googleRequest('POST', path, { token, body: named })
    const b = await sandbox.googleRequest('POST', path, { token, body: numbered })
    const seed = await sandbox.request('POST', `/analytics/v1/properties/${id}/report`, {
      token,
      body: named,
    })
    expect(a.status, a.text).toBe(200)
    expect(b.body.rows).toEqual(a.body.rows)
    expect(b.body.maximums).toEqual(a.body.maximums)
    expect(seed.body.rows).toEqual(a.body.rows)
    expect(a.body.rows).toHaveLength(3)
    expect(a.body.metricHeaders).toEqual([{ name: 'sessions', type: 'TYPE_INTEGER' }])

    const unknown = await sandbox.googleRequest('POST', path, {
      token,
      body: { ...numbered, metricAggregations: [3] },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
    expect(unknown.body.error.message).toContain("'metric_aggregations[0]'")
    expect(unknown.body.error.message).toContain('TOTAL (1)')
  })

  it('answers with numeric enums under $alt=json;enum-encoding=int, with names otherwise', async () => {
    const token = await sandbox.token('gd-frank', ['analytics.readonly'])
    const [id] = (await assetsOf(sandbox, 'gd-frank')).properties
    const report = {
      metrics: [{ name: 'sessions' }, { name: 'bounceRate' }],
      dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }],
    }
    const ints = '?$alt=json%3Benum-encoding=int'
    const numeric = await sandbox.googleRequest(
      'POST',
      `/v1beta/properties/${id}:runReport${ints}`,
      {
        token,
        body: report,
      },
    )
    expect(numeric.body.metricHeaders).toEqual([
      { name: 'sessions', type: 1 },
      { name: 'bounceRate', type: 2 },
    ])
    const batch = await sandbox.googleRequest(
      'POST',
      `/v1beta/properties/${id}:batchRunReports${ints}`,
      { token, body: { property: `properties/${id}`, requests: [report] } },
    )
    expect(batch.body.reports[0].metricHeaders[1]).toEqual({ name: 'bounceRate', type: 2 })
    const metadata = await sandbox.googleRequest(
      'GET',
      `/v1beta/properties/${id}/metadata${ints}`,
      {
        token,
      },
    )
    const sessions = metadata.body.metrics.find(
      (m: { apiName: string }) => m.apiName === 'sessions',
    )
    expect(sessions.type).toBe(1)

    const named = await sandbox.googleRequest(
      'POST',
      `/v1beta/properties/${id}:runReport?alt=json`,
      {
        token,
        body: report,
      },
    )
    expect(named.body.metricHeaders[0]).toEqual({ name: 'sessions', type: 'TYPE_INTEGER' })
  })

  it("checks a body's property against the path, in a batch's requests too", async () => {
    const token = await sandbox.token('gd-gina', ['analytics.readonly'])
    const [id] = (await assetsOf(sandbox, 'gd-gina')).properties
    const report = {
      metrics: [{ name: 'sessions' }],
      dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }],
    }
    const path = `/v1beta/properties/${id}`
    const same = await sandbox.googleRequest('POST', `${path}:runReport`, {
      token,
      body: { property: `properties/${id}`, ...report },
    })
    expect(same.status).toBe(200)
    for (const [verb, body] of [
      [':runReport', { property: 'properties/1', ...report }],
      [':batchRunReports', { property: 'properties/1', requests: [report] }],
      [':batchRunReports', { requests: [report, { property: 'properties/1', ...report }] }],
    ] as const) {
      const res = await sandbox.googleRequest('POST', path + verb, { token, body })
      expect(res.status, verb).toBe(400)
      expect(res.body.error.message).toContain(`properties/${id}`)
      expect(res.body.error).not.toHaveProperty('errors')
    }
  })

  it('words errors per surface: errors[] on Tasks and webmasters, none on One Platform', async () => {
    const token = await sandbox.token('gd-hana', ['tasks', 'webmasters', 'analytics.readonly'])
    const tasks = await sandbox.googleRequest('GET', '/tasks/v1/lists/nope/tasks', { token })
    expect(tasks.status).toBe(404)
    expect(tasks.headers.get('content-type')).toMatch(/^application\/json/)
    expect(tasks.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' })
    expect(tasks.body.error.errors[0]).toMatchObject({ reason: 'notFound', domain: 'global' })

    const inspection = await sandbox.googleRequest('POST', '/v1/urlInspection/index:inspect', {
      token,
      body: { siteUrl: 'https://www.not-hana.example/' },
    })
    expect(inspection.status).toBe(400)
    expect(Object.keys(inspection.body.error).sort()).toEqual(['code', 'message', 'status'])
    expect(inspection.body.error.message).toContain('inspectionUrl')

    const unauthenticated = await sandbox.googleRequest('GET', '/webmasters/v3/sites')
    expect(unauthenticated.status).toBe(401)
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Bearer /)
    expect(unauthenticated.body.error.errors[0]).toMatchObject({
      reason: 'authError',
      location: 'Authorization',
      locationType: 'header',
    })

    const unknownPath = await sandbox.googleRequest('GET', '/v1beta/properties', { token })
    expect(unknownPath.status).toBe(404)
    expect(unknownPath.body.error).toEqual({
      code: 404,
      message: 'No such resource: GET /v1beta/properties.',
      status: 'NOT_FOUND',
    })
    const wrongMethod = await sandbox.googleRequest('PUT', '/tasks/v1/users/@me/lists', {
      token,
      body: {},
    })
    expect(wrongMethod.status).toBe(404)
    expect(wrongMethod.body.error.message).toContain('it takes GET, POST')
  })

  it('bad bodies are 400 saying what is wrong, never a 5xx: not JSON, too deep, wrong types', async () => {
    const token = await sandbox.token('gd-kate', ['analytics.readonly', 'tasks'])
    const [id] = (await assetsOf(sandbox, 'gd-kate')).properties
    const deep = (open: string, close: string) =>
      `{"metrics":[{"name":"sessions"}],"metricAggregations":[1],"dimensionFilter":${open.repeat(5000)}{}${close.repeat(5000)}}`
    const cases: [string, string, string][] = [
      [`/v1beta/properties/${id}:runReport`, '{"metrics":', 'not valid JSON'],
      [`/v1beta/properties/${id}:runReport`, deep('{"notExpression":', '}'), 'nested'],
      [
        `/v1beta/properties/${id}:batchRunReports`,
        `{"requests":${'['.repeat(50000)}${']'.repeat(50000)}}`,
        'requests',
      ],
      [`/v1beta/properties/${id}:runReport`, '{"limit":"ten"}', 'limit'],
      [
        `/v1beta/properties/${id}:runReport`,
        '{"metricAggregations":["EVERYTHING"]}',
        'metric_aggregations',
      ],
      ['/tasks/v1/lists/%40default/tasks', '{"title":7}', 'title'],
    ]
    for (const [path, rawBody, says] of cases) {
      const res = await sandbox.googleRequest('POST', path, {
        token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      })
      expect(res.status, rawBody.slice(0, 60)).toBe(400)
      expect(res.body.error.message).toContain(says)
    }
  })

  it('refuses a bodiless POST without Content-Length with 411, as Google does', async () => {
    const token = await sandbox.token('gd-ivan', ['tasks'])
    // Written by hand: HTTP clients add Content-Length: 0 (or chunked encoding) themselves.
    const { hostname, port } = new URL(sandbox.googleUrl)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          `POST /tasks/v1/lists/%40default/clear HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
            `Authorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
        ),
      )
      let received = ''
      socket.on('data', (chunk) => (received += chunk.toString()))
      socket.on('end', () => resolve(received))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 411 /)
    expect(answer).toContain('Content-Length')
    const cleared = await sandbox.googleRequest('POST', '/tasks/v1/lists/%40default/clear', {
      token,
    })
    expect(cleared.status).toBe(204)
  })

  it('logs requests to both origins with their dialect; faults match G paths, per dialect if asked', async () => {
    const token = await sandbox.token('gd-jane', ['tasks'])
    const since = (await requestsSince(sandbox, 0)).length
    await fault(sandbox, {
      match: { path: '/tasks/v1/lists/*/tasks', dialect: 'google' },
      status: 503,
      times: 2,
    })
    const path = '/tasks/v1/lists/%40default/tasks'
    expect((await sandbox.request('GET', path, { token })).status).toBe(200)
    const injected = await sandbox.googleRequest('GET', path, { token })
    expect(injected.status).toBe(503)
    expect(injected.body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' })
    expect(injected.body.error.errors[0].reason).toBe('backendError')
    await fault(sandbox, { match: { method: 'POST', path: '/v1beta/*' }, status: 500 })
    const [id] = (await assetsOf(sandbox, 'gd-jane')).properties
    const analytics = await sandbox.googleRequest('POST', `/v1beta/properties/${id}:runReport`, {
      token,
      body: {},
    })
    expect(analytics.status).toBe(500)
    expect(analytics.body.error).not.toHaveProperty('errors')
    expect(await requestsSince(sandbox, since)).toEqual([
      { method: 'GET', path, status: 200, dialect: 'generic' },
      { method: 'GET', path, status: 503, dialect: 'google' },
      {
        method: 'POST',
        path: `/v1beta/properties/${id}:runReport`,
        status: 500,
        dialect: 'google',
      },
    ])
    // The control API is only on S; G's /healthz answers and is not logged.
    expect((await sandbox.googleRequest('GET', '/_sandbox/requests')).status).toBe(404)
    expect((await sandbox.googleRequest('GET', '/healthz')).status).toBe(200)
  })
})
