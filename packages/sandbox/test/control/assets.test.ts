import { describe, expect, it } from 'vitest'
import { providerError, sandboxForSuite, type ApiResponse } from '../support/sandbox.js'

/** The control calls that add sites and analytics properties to a user after the built-in ones. */

const sandbox = sandboxForSuite()

const userPath = (user: string) => `/_sandbox/users/${encodeURIComponent(user)}`

const addSite = (user: string, body: unknown) =>
  sandbox.request('POST', `${userPath(user)}/sites`, { body })

const addProperty = (user: string, body: unknown) =>
  sandbox.request('POST', `${userPath(user)}/properties`, { body })

const owned = async (user: string) => (await sandbox.request('GET', userPath(user))).body

/** A 400 INVALID_ARGUMENT in the provider's shape; returns its message. */
function invalid(res: ApiResponse): string {
  expect(res.status, res.text).toBe(400)
  const error = providerError(res)
  expect(error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
  return error.message
}

describe('control API: sites added to a user', () => {
  it('adds a URL-prefix site and a domain site after the built-in ones, answering as GET does', async () => {
    const before = await owned('adder-ana')
    const prefix = await addSite('adder-ana', { siteUrl: 'https://shop.example.com/' })
    expect(prefix.status).toBe(200)
    expect(prefix.body).toEqual({
      user: 'adder-ana',
      sites: [...before.sites, 'https://shop.example.com/'],
      properties: before.properties,
    })
    const domain = await addSite('adder-ana', { siteUrl: 'sc-domain:example.org' })
    expect(domain.body.sites).toEqual([
      ...before.sites,
      'https://shop.example.com/',
      'sc-domain:example.org',
    ])
    expect(await owned('adder-ana')).toEqual(domain.body)
  })

  it('is idempotent: the same site again, or a built-in one, changes nothing', async () => {
    const first = await addSite('adder-ben', { siteUrl: 'http://blog.example.net/posts/' })
    const again = await addSite('adder-ben', { siteUrl: 'http://blog.example.net/posts/' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    const builtIn = first.body.sites[0]
    expect((await addSite('adder-ben', { siteUrl: builtIn })).body).toEqual(first.body)
    expect(first.body.sites.filter((s: string) => s === 'http://blog.example.net/posts/')).toEqual([
      'http://blog.example.net/posts/',
    ])
  })

  it('creates the user on first use', async () => {
    const res = await addSite('adder-new', { siteUrl: 'sc-domain:new.example' })
    expect(res.status).toBe(200)
    expect(res.body.sites).toHaveLength(3)
    expect(res.body.properties).toHaveLength(2)
  })

  it.each([
    ['https://www.example.com', /ends with "\/": did you mean "https:\/\/www\.example\.com\/"\?/],
    ['https://www.example.com/blog', /did you mean "https:\/\/www\.example\.com\/blog\/"/],
    [
      'HTTPS://WWW.Example.com/',
      /write the site as Search Console does: "https:\/\/www\.example\.com\/"/,
    ],
    ['https://www.example.com:443/', /"https:\/\/www\.example\.com\/"/],
    ['https://www.example.com/?q=1', /no user name, password, query or fragment/],
    ['https://www.example.com/#top', /no user name, password, query or fragment/],
    ['https://me:secret@www.example.com/', /no user name, password, query or fragment/],
    ['ftp://files.example.com/', /neither a URL-prefix site .* nor a domain property/],
    ['www.example.com', /neither a URL-prefix site/],
    ['sc-domain:Example.com', /domain name in lower case, such as sc-domain:example\.com/],
    ['sc-domain:https://example.com/', /is not a domain property/],
    ['sc-domain:localhost', /is not a domain property/],
    ['', /give a site, such as https:\/\/www\.example\.com\//],
  ])('refuses %j with a 400 that says what to write', async (siteUrl, message) => {
    expect(invalid(await addSite('adder-cat', { siteUrl }))).toMatch(message)
  })

  it('refuses a missing or mistyped siteUrl, an unknown field and a bad user name', async () => {
    expect(invalid(await addSite('adder-cat', {}))).toMatch(/siteUrl: give the site as a string/)
    expect(invalid(await addSite('adder-cat', { siteUrl: 7 }))).toMatch(/siteUrl/)
    expect(
      invalid(await addSite('adder-cat', { siteUrl: 'sc-domain:a.example', owner: 'x' })),
    ).toMatch(/owner/)
    expect(invalid(await addSite('no spaces', { siteUrl: 'sc-domain:a.example' }))).toMatch(
      /user may hold only letters, digits/,
    )
    const long = `https://www.example.com/${'a'.repeat(2030)}/`
    expect(invalid(await addSite('adder-cat', { siteUrl: long }))).toMatch(/at most 2048/)
    expect((await owned('adder-cat')).sites).toHaveLength(2)
  })
})

describe('control API: analytics properties added to a user', () => {
  it('adds a property with a new numeric id, listed after the built-in ones', async () => {
    const before = await owned('adder-dan')
    const res = await addProperty('adder-dan', { displayName: 'Dan’s pop-up shop' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['property', 'propertiesId'])
    expect(res.body.propertiesId).toMatch(/^[1-9]\d*$/)
    expect(res.body.property).toBe(`properties/${res.body.propertiesId}`)
    expect(before.properties).not.toContain(res.body.propertiesId)
    expect((await owned('adder-dan')).properties).toEqual([
      ...before.properties,
      res.body.propertiesId,
    ])
  })

  it("gives every added property an id no other property has, whoever's it is", async () => {
    const ids = new Set<string>()
    for (const user of ['adder-eve', 'adder-fay', 'adder-eve']) {
      const { body } = await addProperty(user, { displayName: 'Same name' })
      ids.add(body.propertiesId)
    }
    expect(ids.size).toBe(3)
    const builtIn = [
      ...(await owned('adder-eve')).properties.slice(0, 2),
      ...(await owned('adder-fay')).properties.slice(0, 2),
    ]
    for (const id of builtIn) expect(ids.has(id)).toBe(false)
    // Two calls with the same name are two properties, as at Google.
    expect((await owned('adder-eve')).properties).toHaveLength(4)
  })

  it('takes a display name of 1 to 100 characters, and an account name the same', async () => {
    expect((await addProperty('adder-gus', { displayName: 'x'.repeat(100) })).status).toBe(200)
    expect(
      (await addProperty('adder-gus', { displayName: 'x', account: 'y'.repeat(100) })).status,
    ).toBe(200)
    expect(invalid(await addProperty('adder-gus', { displayName: 'x'.repeat(101) }))).toBe(
      'Invalid value for displayName: must be at most 100 characters.',
    )
    expect(invalid(await addProperty('adder-gus', { displayName: '' }))).toMatch(
      /displayName: must not be empty or blank/,
    )
    expect(invalid(await addProperty('adder-gus', { displayName: '   ' }))).toMatch(/blank/)
    expect(invalid(await addProperty('adder-gus', {}))).toMatch(
      /displayName: give it as a string of 1 to 100 characters/,
    )
    expect(invalid(await addProperty('adder-gus', { displayName: 'x', account: '' }))).toMatch(
      /account: must not be empty/,
    )
    expect(invalid(await addProperty('adder-gus', { displayName: 'x', account: 3 }))).toMatch(
      /account: give it as a string/,
    )
    expect(invalid(await addProperty('adder-gus', { displayName: 'x', parent: 'a' }))).toMatch(
      /parent/,
    )
    expect((await owned('adder-gus')).properties).toHaveLength(4)
  })

  it('POST /_sandbox/reset empties what was added; the built-in ones stay', async () => {
    await addSite('adder-hal', { siteUrl: 'sc-domain:hal.example.org' })
    const { body } = await addProperty('adder-hal', { displayName: 'Hal', account: 'Hal Co' })
    expect((await owned('adder-hal')).properties).toContain(body.propertiesId)
    expect((await sandbox.request('POST', '/_sandbox/reset')).status).toBe(200)
    const after = await owned('adder-hal')
    expect(after.sites).toHaveLength(2)
    expect(after.properties).toHaveLength(2)
    expect(after.properties).not.toContain(body.propertiesId)
    // An id once handed out is not handed out again.
    const next = await addProperty('adder-hal', { displayName: 'Hal again' })
    expect(next.body.propertiesId).not.toBe(body.propertiesId)
  })

  it('is refused to a web page of another origin, like every control call', async () => {
    const res = await sandbox.request('POST', `${userPath('adder-ivy')}/properties`, {
      body: { displayName: 'Ivy' },
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(res.status).toBe(403)
    expect((await owned('adder-ivy')).properties).toHaveLength(2)
  })
})
