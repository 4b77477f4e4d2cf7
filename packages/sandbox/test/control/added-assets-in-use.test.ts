import { describe, expect, it } from 'vitest'
import { sandboxForSuite, type ApiResponse } from '../support/sandbox.js'

/**
 * Sites and properties added through the control API are owned exactly like the built-in
 * ones, by every call that checks ownership, in both dialects; and by no one else.
 */

const sandbox = sandboxForSuite()

const enc = encodeURIComponent
const SCOPES = ['webmasters', 'analytics.readonly']
const PREFIX_SITE = 'https://shop.example.com/catalog/'
const DOMAIN_SITE = 'sc-domain:example.org'
const A_WEEK = [{ startDate: '2026-01-05', endDate: '2026-01-11' }]
const REPORT = {
  dateRanges: A_WEEK,
  dimensions: [{ name: 'country' }],
  metrics: [{ name: 'sessions' }],
}
const REALTIME = { metrics: [{ name: 'activeUsers' }] }

/** A user with the two sites and a property added, and a token for both APIs. */
async function owner(user: string) {
  for (const siteUrl of [PREFIX_SITE, DOMAIN_SITE])
    await sandbox.request('POST', `/_sandbox/users/${user}/sites`, { body: { siteUrl } })
  const added = await sandbox.request('POST', `/_sandbox/users/${user}/properties`, {
    body: { displayName: 'Shop catalog' },
  })
  return { token: await sandbox.token(user, SCOPES), property: added.body.propertiesId as string }
}

/** The status of every site call, at S or at G. */
async function siteCalls(token: string, site: string, dialect: 'generic' | 'google') {
  const feed = site.startsWith('sc-domain:')
    ? `https://www.${site.slice('sc-domain:'.length)}/extra.xml`
    : `${site}extra.xml`
  const page = site.startsWith('sc-domain:')
    ? `https://blog.${site.slice('sc-domain:'.length)}/`
    : `${site}boots/`
  const query = { startDate: '2026-01-01', endDate: '2026-01-31', dimensions: ['query'] }
  const calls: [string, string, unknown?][] =
    dialect === 'generic'
      ? [
          ['GET', `/search/v1/sites/${enc(site)}`],
          ['GET', `/search/v1/sites/${enc(site)}/sitemaps`],
          ['PUT', `/search/v1/sites/${enc(site)}/sitemaps/${enc(feed)}`],
          ['POST', `/search/v1/sites/${enc(site)}/search-analytics`, query],
          ['POST', '/search/v1/inspect-url', { inspectionUrl: page, siteUrl: site }],
        ]
      : [
          ['GET', `/webmasters/v3/sites/${enc(site)}`],
          ['GET', `/webmasters/v3/sites/${enc(site)}/sitemaps`],
          ['PUT', `/webmasters/v3/sites/${enc(site)}/sitemaps/${enc(feed)}`],
          ['POST', `/webmasters/v3/sites/${enc(site)}/searchAnalytics/query`, query],
          ['POST', '/v1/urlInspection/index:inspect', { inspectionUrl: page, siteUrl: site }],
        ]
  const send = dialect === 'generic' ? sandbox.request : sandbox.googleRequest
  const answers: ApiResponse[] = []
  for (const [method, path, body] of calls)
    answers.push(
      await send(method, path, {
        token,
        ...(body !== undefined ? { body } : { headers: { 'content-length': '0' } }),
      }),
    )
  return answers
}

/** The status of every analytics call on a property, at S or at G. */
async function propertyCalls(token: string, id: string, dialect: 'generic' | 'google') {
  const calls: [string, string, unknown?][] =
    dialect === 'generic'
      ? [
          ['GET', `/analytics/v1/properties/${id}/metadata`],
          ['POST', `/analytics/v1/properties/${id}/report`, REPORT],
          ['POST', `/analytics/v1/properties/${id}/reports`, { requests: [REPORT, REPORT] }],
          ['POST', `/analytics/v1/properties/${id}/realtime-report`, REALTIME],
        ]
      : [
          ['GET', `/v1beta/properties/${id}/metadata`],
          ['POST', `/v1beta/properties/${id}:runReport`, REPORT],
          ['POST', `/v1beta/properties/${id}:batchRunReports`, { requests: [REPORT, REPORT] }],
          ['POST', `/v1beta/properties/${id}:runRealtimeReport`, REALTIME],
        ]
  const send = dialect === 'generic' ? sandbox.request : sandbox.googleRequest
  const answers: ApiResponse[] = []
  for (const [method, path, body] of calls)
    answers.push(await send(method, path, { token, ...(body !== undefined && { body }) }))
  return answers
}

const statuses = (answers: ApiResponse[]) => answers.map((res) => res.status)

describe('added sites and properties in use', () => {
  it('sites.list shows added sites as siteOwner, after the built-in ones, in both dialects', async () => {
    const { token } = await owner('use-ana')
    const { sites } = (await sandbox.request('GET', '/_sandbox/users/use-ana')).body
    const expected = {
      siteEntry: sites.map((siteUrl: string) => ({ siteUrl, permissionLevel: 'siteOwner' })),
    }
    expect(sites.slice(2)).toEqual([PREFIX_SITE, DOMAIN_SITE])
    expect((await sandbox.request('GET', '/search/v1/sites', { token })).body).toEqual(expected)
    expect((await sandbox.googleRequest('GET', '/webmasters/v3/sites', { token })).body).toEqual(
      expected,
    )
  })

  it.each(['generic', 'google'] as const)(
    'every site call answers on an added site at %s, and refuses another user with 403',
    async (dialect) => {
      const { token } = await owner(`use-ben-${dialect}`)
      for (const site of [PREFIX_SITE, DOMAIN_SITE]) {
        const answers = await siteCalls(token, site, dialect)
        // A submitted sitemap: 200 in the generic dialect, 204 in Google's.
        const submitted = dialect === 'generic' ? 200 : 204
        expect(statuses(answers), site).toEqual([200, 200, submitted, 200, 200])
        expect(answers[3]!.body.rows.length).toBeGreaterThan(0)
        expect(answers[4]!.body.inspectionResult.indexStatusResult).toBeDefined()
      }
      const stranger = await sandbox.token(`use-ben-other-${dialect}`, SCOPES)
      for (const site of [PREFIX_SITE, DOMAIN_SITE]) {
        const answers = await siteCalls(stranger, site, dialect)
        expect(statuses(answers), site).toEqual([403, 403, 403, 403, 403])
        expect(answers[0]!.body.error.message).toMatch(/does not have sufficient permission/)
      }
    },
  )

  it.each(['generic', 'google'] as const)(
    'every analytics call answers on an added property at %s, and refuses another user with 403',
    async (dialect) => {
      const { token, property } = await owner(`use-cy-${dialect}`)
      const answers = await propertyCalls(token, property, dialect)
      expect(statuses(answers)).toEqual([200, 200, 200, 200])
      expect(answers[0]!.body.dimensions.length).toBeGreaterThan(10)
      expect(answers[1]!.body.rows.length).toBeGreaterThan(0)
      expect(answers[2]!.body.reports[0]).toEqual(answers[1]!.body)
      const stranger = await sandbox.token(`use-cy-other-${dialect}`, SCOPES)
      const refused = await propertyCalls(stranger, property, dialect)
      expect(statuses(refused)).toEqual([403, 403, 403, 403])
      expect(refused[0]!.body.error.message).toMatch(/sufficient permissions for this property/)
    },
  )

  it('an added property has synthetic data of its own, the same at both origins', async () => {
    const { token, property } = await owner('use-dee')
    const [builtIn] = (await sandbox.request('GET', '/_sandbox/users/use-dee')).body.properties
    const report = (id: string) =>
      sandbox.request('POST', `/analytics/v1/properties/${id}/report`, { token, body: REPORT })
    const added = (await report(property)).body
    expect(added.rows).not.toEqual((await report(builtIn)).body.rows)
    const atG = await sandbox.googleRequest('POST', `/v1beta/properties/${property}:runReport`, {
      token,
      body: REPORT,
    })
    expect(atG.body.rows).toEqual(added.rows)
    expect((await report(property)).body.rows).toEqual(added.rows)
  })
})
