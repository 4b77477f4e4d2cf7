import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { assetsOf, rejection, tasksClient } from './clients.js'

/**
 * An API not enabled in the caller's Google Cloud project (`POST /_sandbox/apis`): every call to
 * it with a credential answers as Google does, 403 with the API's title and its activation link;
 * the other APIs answer on, and a reset enables all four again.
 */
const sandbox = sandboxForSuite()

describe('an API disabled in the caller’s project', () => {
  it('the Analytics Admin API off: its calls answer SERVICE_DISABLED with the link, the Data API answers on', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    const token = await sandbox.token('ilse', ['analytics.readonly'])
    const set = await sandbox.request('POST', '/_sandbox/apis', {
      body: { disabled: ['analyticsadmin.googleapis.com'] },
    })
    expect(set.body).toEqual({
      enabled: [
        'tasks.googleapis.com',
        'searchconsole.googleapis.com',
        'analyticsdata.googleapis.com',
      ],
      disabled: ['analyticsadmin.googleapis.com'],
    })
    const summaries = await sandbox.googleRequest('GET', '/v1beta/accountSummaries', { token })
    expect(summaries.status).toBe(403)
    expect(summaries.body.error.status).toBe('PERMISSION_DENIED')
    expect(summaries.body.error.message).toMatch(
      /^Google Analytics Admin API has not been used in project 0 before or it is disabled\. Enable it by visiting https:\/\/console\.developers\.google\.com\/apis\/api\/analyticsadmin\.googleapis\.com\/overview\?project=0 then retry\./,
    )
    expect(summaries.body.error.details).toContainEqual(
      expect.objectContaining({
        reason: 'SERVICE_DISABLED',
        metadata: { service: 'analyticsadmin.googleapis.com', consumer: 'projects/0' },
      }),
    )
    // The generic dialect says the same in its own shape.
    const generic = await sandbox.request('GET', '/analytics/v1/accountSummaries', { token })
    expect(generic.status).toBe(403)
    const { properties } = await assetsOf(sandbox, 'ilse')
    const metadata = await sandbox.googleRequest(
      'GET',
      `/v1beta/properties/${properties[0]}/metadata`,
      { token },
    )
    expect(metadata.status).toBe(200)
    // Without a credential Google cannot tell whose project it is: 401 first.
    expect((await sandbox.googleRequest('GET', '/v1beta/accountSummaries')).status).toBe(401)

    await sandbox.request('POST', '/_sandbox/reset')
    expect((await sandbox.request('GET', '/_sandbox/apis')).body.disabled).toEqual([])
    const again = await sandbox.googleRequest('GET', '/v1beta/accountSummaries', {
      token: await sandbox.token('ilse', ['analytics.readonly']),
    })
    expect(again.status).toBe(200)
  })

  it('the Tasks API off: Google’s own client sees accessNotConfigured in errors[]', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    const token = await sandbox.token('ilse', ['tasks'])
    await sandbox.request('POST', '/_sandbox/apis', {
      body: { disabled: ['tasks.googleapis.com'] },
    })
    const error = await rejection(tasksClient(sandbox, token).tasklists.list())
    expect(error.status).toBe(403)
    expect(error.cause?.errors?.[0]).toMatchObject({
      reason: 'accessNotConfigured',
      domain: 'usageLimits',
    })
    expect(error.message).toMatch(/^Google Tasks API has not been used in project 0/)
    await sandbox.request('POST', '/_sandbox/reset')
  })

  it('an API that is not one of the four is refused, naming the four', async () => {
    const refused = await sandbox.request('POST', '/_sandbox/apis', {
      body: { disabled: ['drive.googleapis.com'] },
    })
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(/tasks\.googleapis\.com/)
  })
})
