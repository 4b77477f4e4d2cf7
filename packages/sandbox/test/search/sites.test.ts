import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { enc, expectError, expectInvalid, searchUser } from './client.js'

const sandbox = sandboxForSuite()

describe('search API: auth and scopes', () => {
  it('no token, or an unknown one: 401 UNAUTHENTICATED in the provider’s error shape', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer sat_nope' },
      { authorization: 'Basic x' },
    ]
    for (const headers of attempts) {
      const res = await sandbox.request('GET', '/search/v1/sites', { headers })
      const error = expectError(res, 401, 'UNAUTHENTICATED', 'authError')
      expect(error.message).toMatch(/token/)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    }
  })

  it('reads accept webmasters.readonly or webmasters; another service’s scope is 403', async () => {
    for (const scopes of [['webmasters.readonly'], ['webmasters']]) {
      const { call } = await searchUser(sandbox, scopes)
      expect((await call('GET', '/sites')).status).toBe(200)
    }
    const { call, prefixSite } = await searchUser(sandbox, ['tasks', 'analytics.readonly'])
    for (const [method, path, body] of [
      ['GET', '/sites'],
      ['GET', `/sites/${enc(prefixSite)}/sitemaps`],
      ['POST', '/inspect-url', { siteUrl: prefixSite, inspectionUrl: prefixSite }],
      [
        'POST',
        `/sites/${enc(prefixSite)}/search-analytics`,
        { startDate: '2026-01-01', endDate: '2026-01-02' },
      ],
    ] as const) {
      const error = expectError(
        await call(method, path, body),
        403,
        'PERMISSION_DENIED',
        'insufficientPermissions',
      )
      expect(error.message).toContain('webmasters.readonly or')
    }
  })

  it('submitting a sitemap needs webmasters: webmasters.readonly is 403 and nothing is stored', async () => {
    const { call, prefixSite } = await searchUser(sandbox, ['webmasters.readonly'])
    const feed = `${prefixSite}new.xml`
    const res = await call('PUT', `/sites/${enc(prefixSite)}/sitemaps/${enc(feed)}`)
    const error = expectError(res, 403, 'PERMISSION_DENIED', 'insufficientPermissions')
    expect(error.message).toMatch(/webmasters\.$/)
    expect((await call('GET', `/sites/${enc(prefixSite)}/sitemaps/${enc(feed)}`)).status).toBe(404)
  })
})

describe('search API: sites', () => {
  it('list_sites: the user’s URL-prefix site and domain property, as siteOwner', async () => {
    const { call, name } = await searchUser(sandbox)
    const res = await call('GET', '/sites')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      siteEntry: [
        { siteUrl: `https://www.${name}.example/`, permissionLevel: 'siteOwner' },
        { siteUrl: `sc-domain:${name}.example`, permissionLevel: 'siteOwner' },
      ],
    })
    // The same sites as the control API's view of the user.
    const assets = await sandbox.request('GET', `/_sandbox/users/${name}`)
    expect(res.body.siteEntry.map((s: { siteUrl: string }) => s.siteUrl)).toEqual(assets.body.sites)
  })

  it('get_site: each site by its percent-encoded siteUrl as one path segment', async () => {
    const { call, prefixSite, domainSite } = await searchUser(sandbox)
    for (const site of [prefixSite, domainSite]) {
      const res = await call('GET', `/sites/${enc(site)}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ siteUrl: site, permissionLevel: 'siteOwner' })
    }
    expect(enc(domainSite)).toMatch(/^sc-domain%3A/)
  })

  it('another user’s site, a site nobody has, or a near miss: 403 PERMISSION_DENIED', async () => {
    const me = await searchUser(sandbox)
    const other = await searchUser(sandbox)
    for (const site of [
      other.prefixSite,
      other.domainSite,
      'https://www.nobody.example/',
      `http://www.${me.name}.example/`,
      `sc-domain:www.${me.name}.example`,
      'not a site',
    ]) {
      const error = expectError(
        await me.call('GET', `/sites/${enc(site)}`),
        403,
        'PERMISSION_DENIED',
        'forbidden',
      )
      expect(error.message).toContain(`User does not have sufficient permission for site '${site}'`)
    }
    // Without the trailing slash, the message says what to write.
    const bare = me.prefixSite.slice(0, -1)
    const error = expectError(
      await me.call('GET', `/sites/${enc(bare)}`),
      403,
      'PERMISSION_DENIED',
      'forbidden',
    )
    expect(error.message).toContain(`did you mean "${me.prefixSite}"`)
  })

  it('unknown query parameters are refused', async () => {
    const { call } = await searchUser(sandbox)
    expect(expectInvalid(await call('GET', '/sites?pageSize=2')).message).toContain(
      'Unknown query parameter "pageSize"',
    )
  })
})
