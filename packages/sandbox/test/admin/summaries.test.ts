import { describe, expect, it } from 'vitest'
import { requestsSince } from '../support/request-log.js'
import { providerError, sandboxForSuite, type ApiResponse } from '../support/sandbox.js'

/**
 * The Analytics Admin API's accountSummaries.list at `S/analytics/v1/accountSummaries`: the
 * accounts a person would recognize, paged in accounts as Google pages them.
 */

const sandbox = sandboxForSuite()

const PATH = '/analytics/v1/accountSummaries'

async function person(user: string, scopes = ['analytics.readonly']) {
  const token = await sandbox.token(user, scopes)
  const list = (query = '') => sandbox.request('GET', `${PATH}${query}`, { token })
  const { properties } = (await sandbox.request('GET', `/_sandbox/users/${user}`)).body
  return { token, list, properties: properties as string[] }
}

function ok(res: ApiResponse) {
  expect(res.status, res.text).toBe(200)
  return res.body
}

function invalid(res: ApiResponse): string {
  expect(res.status, res.text).toBe(400)
  expect(providerError(res)).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
  return providerError(res).message
}

const addProperty = (user: string, body: Record<string, string>) =>
  sandbox.request('POST', `/_sandbox/users/${user}/properties`, { body })

/** Every summary of a listing, page after page, with the page sizes seen. */
async function allPages(list: (query: string) => Promise<ApiResponse>, pageSize: number) {
  const summaries: any[] = []
  const sizes: number[] = []
  let token: string | undefined
  do {
    const query = `?pageSize=${pageSize}${token ? `&pageToken=${token}` : ''}`
    const page = ok(await list(query))
    summaries.push(...page.accountSummaries)
    sizes.push(page.accountSummaries.length)
    token = page.nextPageToken
  } while (token)
  return { summaries, sizes }
}

describe('Admin API accountSummaries.list at S', () => {
  it("a user's business account holds their two properties, named after their sites", async () => {
    const ana = await person('ana-smith')
    const body = ok(await ana.list())
    expect(Object.keys(body)).toEqual(['accountSummaries'])
    const [business, personal] = body.accountSummaries
    expect(business).toEqual({
      name: expect.stringMatching(/^accountSummaries\/\d{8}$/),
      account: expect.stringMatching(/^accounts\/\d{8}$/),
      displayName: 'Ana Smith Ltd',
      propertySummaries: ana.properties.map((id) => ({
        property: `properties/${id}`,
        displayName: expect.stringMatching(/^[a-z]+\.ana-smith\.example – [A-Z][a-z ]+$/),
        propertyType: 'PROPERTY_TYPE_ORDINARY',
        parent: business.account,
      })),
    })
    expect(business.name).toBe(`accountSummaries/${business.account.slice('accounts/'.length)}`)
    const [first, second] = business.propertySummaries.map((p: any) => p.displayName)
    expect(first).toMatch(/^www\.ana-smith\.example – (Shop|Web app|News)$/)
    expect(second).toMatch(/^(shop|app|news)\.ana-smith\.example – (Shop|Web app|News)$/)
    expect(second.split(' – ')[1]).not.toBe(first.split(' – ')[1])
    // An account without properties has no propertySummaries key at all.
    expect(personal).toEqual({
      name: expect.stringMatching(/^accountSummaries\/\d+$/),
      account: expect.stringMatching(/^accounts\/\d+$/),
      displayName: 'Ana Smith (personal)',
    })
    expect(personal.account).not.toBe(business.account)
    // The same every time.
    expect(ok(await ana.list())).toEqual(body)
  })

  it('names come from the user name: an email address names its person, odd names still read', async () => {
    const names = async (user: string) =>
      ok(await (await person(user)).list()).accountSummaries.map((a: any) => a.displayName)
    expect(await names('dave@example.com')).toEqual(['Dave Ltd', 'Dave (personal)'])
    expect(await names('o.brien_Co')).toEqual(['O Brien Co Ltd', 'O Brien Co (personal)'])
    expect(await names('---')).toEqual(['Sandbox User Ltd', 'Sandbox User (personal)'])
    const other = ok(await (await person('ana-smith-2')).list()).accountSummaries[0]
    const ana = ok(await (await person('ana-smith')).list()).accountSummaries[0]
    expect(other.account).not.toBe(ana.account)
  })

  it('lists added properties in the account they name, new accounts after the built-in ones', async () => {
    const bo = await person('bo-lind')
    const inBusiness = (await addProperty('bo-lind', { displayName: 'Bo’s landing page' })).body
    const named = (
      await addProperty('bo-lind', { displayName: 'Bo Lind Ltd shop', account: 'Bo Lind Ltd' })
    ).body
    const client = (
      await addProperty('bo-lind', { displayName: 'Client site', account: 'Agency clients' })
    ).body
    const second = (
      await addProperty('bo-lind', { displayName: 'Other client', account: 'Agency clients' })
    ).body
    const personal = (
      await addProperty('bo-lind', { displayName: 'My blog', account: 'Bo Lind (personal)' })
    ).body
    const { accountSummaries: accounts } = ok(await bo.list())
    expect(accounts.map((a: any) => a.displayName)).toEqual([
      'Bo Lind Ltd',
      'Bo Lind (personal)',
      'Agency clients',
    ])
    const propertiesOf = (a: any) =>
      a.propertySummaries.map((p: any) => [p.property, p.displayName, p.parent])
    expect(propertiesOf(accounts[0]).slice(2)).toEqual([
      [inBusiness.property, 'Bo’s landing page', accounts[0].account],
      [named.property, 'Bo Lind Ltd shop', accounts[0].account],
    ])
    expect(propertiesOf(accounts[1])).toEqual([[personal.property, 'My blog', accounts[1].account]])
    expect(propertiesOf(accounts[2])).toEqual([
      [client.property, 'Client site', accounts[2].account],
      [second.property, 'Other client', accounts[2].account],
    ])
    expect(accounts[2].name).toBe(`accountSummaries/${accounts[2].account.split('/')[1]}`)
    // Another user's account of the same name is theirs alone.
    await addProperty('bo-other', { displayName: 'Theirs', account: 'Agency clients' })
    const theirs = ok(await (await person('bo-other')).list()).accountSummaries[2]
    expect(theirs.displayName).toBe('Agency clients')
    expect(theirs.account).not.toBe(accounts[2].account)
  })

  it('pages in accounts: pageSize 1 gives one account a page, each exactly once', async () => {
    const cy = await person('cy-paging')
    for (const account of ['One', 'Two', 'Three'])
      await addProperty('cy-paging', { displayName: `${account} site`, account })
    const whole = ok(await cy.list()).accountSummaries
    expect(whole).toHaveLength(5)
    const paged = await allPages(cy.list, 1)
    expect(paged.sizes).toEqual([1, 1, 1, 1, 1])
    expect(paged.summaries).toEqual(whole)
    const byTwo = await allPages(cy.list, 2)
    expect(byTwo.sizes).toEqual([2, 2, 1])
    expect(byTwo.summaries).toEqual(whole)
  })

  it('the last page has no nextPageToken; 0 or no pageSize is 50, above 200 is 200', async () => {
    const di = await person('di-sizes')
    for (const query of [
      '',
      '?pageSize=0',
      '?pageSize=50',
      '?pageSize=500',
      '?pageSize=2147483647',
    ]) {
      const body = ok(await di.list(query))
      expect(body.accountSummaries).toHaveLength(2)
      expect(body).not.toHaveProperty('nextPageToken')
    }
  })

  it('counts 200 accounts at most to a page, whatever pageSize asks', async () => {
    const user = 'ed-many'
    const ed = await person(user)
    // 199 added accounts and the two built-in ones: 201 in all.
    for (let i = 1; i <= 199; i++)
      await addProperty(user, { displayName: `Site ${i}`, account: `Client ${i}` })
    const first = ok(await ed.list('?pageSize=500'))
    expect(first.accountSummaries).toHaveLength(200)
    expect(first.nextPageToken).toEqual(expect.any(String))
    const rest = ok(await ed.list(`?pageSize=500&pageToken=${first.nextPageToken}`))
    expect(rest.accountSummaries.map((a: any) => a.displayName)).toEqual(['Client 199'])
    expect(rest).not.toHaveProperty('nextPageToken')
    // The default is 50.
    const byDefault = ok(await ed.list())
    expect(byDefault.accountSummaries).toHaveLength(50)
    // A token of pageSize 500 goes on with 200 (what 500 became), not with another size.
    const same = ok(await ed.list(`?pageSize=200&pageToken=${first.nextPageToken}`))
    expect(same.accountSummaries).toHaveLength(1)
  })

  it('a pageToken is used with the pageSize that gave it, by the user it was given to', async () => {
    const fi = await person('fi-tokens')
    await addProperty('fi-tokens', { displayName: 'x', account: 'Third' })
    const { nextPageToken } = ok(await fi.list('?pageSize=1'))
    expect(nextPageToken).toEqual(expect.any(String))
    // Again and again: a token is not used up.
    const again = ok(await fi.list(`?pageSize=1&pageToken=${nextPageToken}`))
    expect(ok(await fi.list(`?pageSize=1&pageToken=${nextPageToken}`))).toEqual(again)
    expect(again.accountSummaries[0].displayName).toBe('Fi Tokens (personal)')
    expect(invalid(await fi.list(`?pageSize=2&pageToken=${nextPageToken}`))).toMatch(
      /must match the call that gave the token, which had pageSize 1/,
    )
    expect(invalid(await fi.list(`?pageToken=${nextPageToken}`))).toMatch(/pageSize 1/)
    const other = await person('fi-other')
    expect(invalid(await other.list(`?pageSize=1&pageToken=${nextPageToken}`))).toMatch(
      /Invalid pageToken: give the nextPageToken of a previous page/,
    )
    for (const forged of ['abc', 'not!base64', Buffer.from('{"a":1}').toString('base64url')])
      expect(invalid(await fi.list(`?pageSize=1&pageToken=${forged}`))).toMatch(/Invalid pageToken/)
    // An empty token is no token.
    expect(ok(await fi.list('?pageSize=1&pageToken=')).accountSummaries[0].displayName).toBe(
      'Fi Tokens Ltd',
    )
  })

  it('refuses a pageSize that is not a whole number, and unknown parameters', async () => {
    const gil = await person('gil-query')
    for (const size of ['-1', '1.5', 'ten', '2147483648'])
      expect(invalid(await gil.list(`?pageSize=${size}`))).toMatch(/pageSize/)
    expect(invalid(await gil.list('?pageSize=1&pageSize=2'))).toMatch(/more than once/)
    expect(invalid(await gil.list('?filter=x'))).toMatch(/"pageSize", "pageToken"/)
  })

  it('needs analytics.readonly: another scope is a 403, no token a 401', async () => {
    const hu = await person('hu-scopes', ['tasks', 'webmasters.readonly'])
    const refused = await hu.list()
    expect(refused.status).toBe(403)
    expect(providerError(refused)).toMatchObject({
      status: 'PERMISSION_DENIED',
      errors: [{ reason: 'insufficientPermissions' }],
    })
    expect(providerError(refused).message).toMatch(/analytics\.readonly/)
    const anonymous = await sandbox.request('GET', PATH)
    expect(anonymous.status).toBe(401)
    const both = await person('hu-both', ['tasks', 'analytics.readonly'])
    expect(ok(await both.list()).accountSummaries).toHaveLength(2)
  })

  it('faults and the request log cover it; a usage limit there names the Admin API', async () => {
    await sandbox.request('POST', '/_sandbox/reset')
    const { token } = await person('ida-faults')
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { path: PATH }, times: 1, status: 503 },
    })
    expect((await sandbox.request('GET', `${PATH}?pageSize=1`, { token })).status).toBe(503)
    await sandbox.request('POST', '/_sandbox/faults', {
      body: { match: { path: PATH }, status: 403, reason: 'accessNotConfigured' },
    })
    const disabled = await sandbox.request('GET', PATH, { token })
    expect(disabled.status).toBe(403)
    expect(disabled.body.error).toMatchObject({
      code: 403,
      status: 'PERMISSION_DENIED',
      message: expect.stringMatching(
        /^Google Analytics Admin API has not been used in project 0 before or it is disabled\. Enable it by visiting https:\/\/console\.developers\.google\.com\/apis\/api\/analyticsadmin\.googleapis\.com\/overview\?project=0 then retry\./,
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
    expect((await sandbox.request('GET', PATH, { token })).status).toBe(200)
    expect(await requestsSince(sandbox, 0)).toEqual([
      { method: 'GET', path: PATH, status: 503, dialect: 'generic' },
      { method: 'GET', path: PATH, status: 403, dialect: 'generic' },
      { method: 'GET', path: PATH, status: 200, dialect: 'generic' },
    ])
  })
})
