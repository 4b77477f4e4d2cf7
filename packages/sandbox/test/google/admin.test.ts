import { v1beta } from '@google-analytics/admin'
import { afterAll, describe, expect, it } from 'vitest'
import { requestsSince } from '../support/request-log.js'
import { sandboxForSuite } from '../support/sandbox.js'
import { bearer, fault, rejection } from './clients.js'

/**
 * The Analytics Admin API's accountSummaries.list at G (`/v1beta/accountSummaries`, Google's
 * analyticsadmin host), over the same data as S: by hand, and through Google's own client
 * (`@google-analytics/admin` 9.2.0, gax 5 over REST), which pages by itself.
 */

const sandbox = sandboxForSuite()

const PATH = '/v1beta/accountSummaries'

const opened: v1beta.AnalyticsAdminServiceClient[] = []
afterAll(async () => {
  await Promise.all(opened.map((client) => client.close()))
})

/** Google's Admin API client over REST to G; closed after the file. */
function adminClient(token: string) {
  const client = new v1beta.AnalyticsAdminServiceClient({
    fallback: 'rest',
    protocol: 'http',
    apiEndpoint: '127.0.0.1',
    port: Number(new URL(sandbox.googleUrl).port),
    authClient: bearer(token),
  })
  opened.push(client)
  return client
}

const addProperty = (user: string, displayName: string, account?: string) =>
  sandbox.request('POST', `/_sandbox/users/${user}/properties`, {
    body: { displayName, ...(account && { account }) },
  })

/** The Google JSON error a gax 5 GaxiosError carries as its message. */
const bodyOf = (message: string) =>
  JSON.parse(message) as { error: { code: number; message: string; status: string } }

describe('accountSummaries.list at G, by hand', () => {
  it('answers what S answers, Google’s system parameters ignored', async () => {
    const token = await sandbox.token('gadm-ana', ['analytics.readonly'])
    const atS = await sandbox.request('GET', '/analytics/v1/accountSummaries', { token })
    const atG = await sandbox.googleRequest(
      'GET',
      `${PATH}?alt=json&prettyPrint=false&fields=accountSummaries&quotaUser=x&%24.xgafv=2`,
      { token },
    )
    expect(atG.status).toBe(200)
    expect(atG.body).toEqual(atS.body)
    expect(atG.body.accountSummaries[0].displayName).toBe('Gadm Ana Ltd')
    expect(atG.body.accountSummaries[0].propertySummaries[0].propertyType).toBe(
      'PROPERTY_TYPE_ORDINARY',
    )
  })

  it('answers the property type as a number under enum-encoding=int, as Google’s client asks', async () => {
    const token = await sandbox.token('gadm-ben', ['analytics.readonly'])
    const res = await sandbox.googleRequest(
      'GET',
      `${PATH}?%24alt=json%3Benum-encoding%3Dint&pageSize=1`,
      { token },
    )
    expect(res.status).toBe(200)
    expect(res.body.accountSummaries[0].propertySummaries.map((p: any) => p.propertyType)).toEqual([
      1, 1,
    ])
  })

  it('pages with pageSize and pageToken as at S; a token of S works at G', async () => {
    const token = await sandbox.token('gadm-cy', ['analytics.readonly'])
    const first = await sandbox.request('GET', '/analytics/v1/accountSummaries?pageSize=1', {
      token,
    })
    const second = await sandbox.googleRequest(
      'GET',
      `${PATH}?pageSize=1&pageToken=${first.body.nextPageToken}`,
      { token },
    )
    expect(second.status).toBe(200)
    expect(second.body.accountSummaries.map((a: any) => a.displayName)).toEqual([
      'Gadm Cy (personal)',
    ])
    expect(second.body).not.toHaveProperty('nextPageToken')
    const mismatch = await sandbox.googleRequest(
      'GET',
      `${PATH}?pageSize=7&pageToken=${first.body.nextPageToken}`,
      { token },
    )
    expect(mismatch.status).toBe(400)
    expect(mismatch.body.error).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/which had pageSize 1/),
    })
  })

  it('words errors in Google’s One Platform shape: a scope too narrow, no token, another method', async () => {
    const token = await sandbox.token('gadm-dee', ['tasks', 'webmasters'])
    const narrow = await sandbox.googleRequest('GET', PATH, { token })
    expect(narrow.status).toBe(403)
    expect(narrow.body.error).toEqual({
      code: 403,
      status: 'PERMISSION_DENIED',
      message: expect.stringContaining('https://www.googleapis.com/auth/analytics.readonly'),
    })
    const anonymous = await sandbox.googleRequest('GET', PATH)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /)
    expect(anonymous.body.error).not.toHaveProperty('errors')
    const post = await sandbox.googleRequest('POST', PATH, { token, body: {} })
    expect(post.status).toBe(404)
    expect(post.body.error.message).toBe(`POST is not a method of ${PATH}: it takes GET.`)
  })

  it('faults match G’s path and the log keeps it as received; a disabled Admin API is SERVICE_DISABLED', async () => {
    const token = await sandbox.token('gadm-eve', ['analytics.readonly'])
    const since = (await requestsSince(sandbox, 0)).length
    await fault(sandbox, {
      match: { path: PATH, dialect: 'google' },
      status: 403,
      reason: 'accessNotConfigured',
    })
    // The fault is G's only: S answers.
    expect((await sandbox.request('GET', '/analytics/v1/accountSummaries', { token })).status).toBe(
      200,
    )
    const disabled = await sandbox.googleRequest('GET', `${PATH}?pageSize=1`, { token })
    expect(disabled.status).toBe(403)
    expect(disabled.body.error).toEqual({
      code: 403,
      status: 'PERMISSION_DENIED',
      message: expect.stringMatching(
        /^Google Analytics Admin API has not been used in project 0 before or it is disabled\./,
      ),
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'SERVICE_DISABLED',
          domain: 'googleapis.com',
          metadata: { service: 'analyticsadmin.googleapis.com', consumer: 'projects/0' },
        },
      ],
    })
    expect(await requestsSince(sandbox, since)).toEqual([
      { method: 'GET', path: '/analytics/v1/accountSummaries', status: 200, dialect: 'generic' },
      { method: 'GET', path: PATH, status: 403, dialect: 'google' },
    ])
  })
})

describe("Google's Analytics Admin client against G", () => {
  it('lists every account summary, decoded into its protos', async () => {
    const user = 'gadm-fay'
    const admin = adminClient(await sandbox.token(user, ['analytics.readonly']))
    const { properties } = (await sandbox.request('GET', `/_sandbox/users/${user}`)).body
    const [summaries] = await admin.listAccountSummaries({})
    expect(summaries.map((s) => s.displayName)).toEqual(['Gadm Fay Ltd', 'Gadm Fay (personal)'])
    const [business, personal] = summaries
    expect(business!.name).toBe(`accountSummaries/${business!.account!.split('/')[1]}`)
    expect(business!.propertySummaries!.map((p) => p.property)).toEqual(
      properties.map((id: string) => `properties/${id}`),
    )
    expect(business!.propertySummaries![0]).toMatchObject({
      displayName: expect.stringMatching(/^www\.gadm-fay\.example – /),
      propertyType: 'PROPERTY_TYPE_ORDINARY',
      parent: business!.account,
    })
    expect(personal!.propertySummaries).toEqual([])
  })

  it('pages by itself with pageSize 1: one request a page, each account once', async () => {
    const user = 'gadm-gus'
    const admin = adminClient(await sandbox.token(user, ['analytics.readonly']))
    const added = (await addProperty(user, 'Client site', 'Gus Agency')).body
    const since = (await requestsSince(sandbox, 0)).length
    // The iterator fetches page after page (gax warns unless told it does not paginate at once).
    const summaries = []
    const pages = admin.listAccountSummariesAsync({ pageSize: 1 }, { autoPaginate: false })
    for await (const summary of pages) summaries.push(summary)
    expect(summaries.map((s) => s.displayName)).toEqual([
      'Gadm Gus Ltd',
      'Gadm Gus (personal)',
      'Gus Agency',
    ])
    expect(summaries[2]!.propertySummaries!.map((p) => [p.property, p.displayName])).toEqual([
      [added.property, 'Client site'],
    ])
    expect(await requestsSince(sandbox, since)).toEqual(
      Array.from({ length: 3 }, () => ({
        method: 'GET',
        path: PATH,
        status: 200,
        dialect: 'google',
      })),
    )

    // One page alone says where the next starts.
    const [page, next, raw] = await admin.listAccountSummaries(
      { pageSize: 2 },
      { autoPaginate: false },
    )
    expect(page.map((s) => s.displayName)).toEqual(['Gadm Gus Ltd', 'Gadm Gus (personal)'])
    expect(next).toMatchObject({ pageSize: 2, pageToken: raw!.nextPageToken })
    const [rest, last] = await admin.listAccountSummaries(next!, { autoPaginate: false })
    expect(rest.map((s) => s.displayName)).toEqual(['Gus Agency'])
    expect(last).toBeNull()
  })

  it('surfaces a token without an analytics scope as a 403 PERMISSION_DENIED', async () => {
    const admin = adminClient(await sandbox.token('gadm-hal', ['tasks']))
    const error = await rejection(admin.listAccountSummaries({}))
    expect(error.status).toBe(403)
    expect(bodyOf(error.message).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' })
  })
})
