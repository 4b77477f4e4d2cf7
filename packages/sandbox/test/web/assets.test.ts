import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'

const sandbox = sandboxForSuite()

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

async function signIn(user: string) {
  const res = await sandbox.request('POST', '/account/sign-in', {
    rawBody: new URLSearchParams({ user, next: '/web/sites' }).toString(),
    headers: FORM,
  })
  expect(res.status).toBe(303)
  expect(res.headers.get('location')).toBe('/web/sites')
  return res.headers.get('set-cookie')!.split(';')[0]!
}

/** The text of the elements of `class` on a page, in order. */
const codes = (page: string, cls: string) =>
  [...page.matchAll(new RegExp(`<code class="${cls}">([^<]*)</code>`, 'g'))].map((m) => m[1])

describe("the web view of a person's sites and analytics properties", () => {
  it('shows the signed-in person the siteUrl and propertiesId values to give the tools', async () => {
    const cookie = await signIn('web-alice')
    const page = await sandbox.request('GET', '/web/sites', { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('cache-control')).toBe('no-store')
    const owned = (await sandbox.request('GET', '/_sandbox/users/web-alice')).body
    expect(codes(page.text, 'site')).toEqual(owned.sites)
    expect(codes(page.text, 'property')).toEqual(owned.properties)
    expect(page.text).toContain('Signed in as <strong>web-alice</strong>')

    // Another person sees their own.
    const bob = await signIn('web-bob')
    const theirs = await sandbox.request('GET', '/web/sites', { headers: { cookie: bob } })
    expect(codes(theirs.text, 'property')).not.toEqual(owned.properties)

    // The tasks page links to it.
    const tasks = await sandbox.request('GET', '/web/tasks', { headers: { cookie } })
    expect(tasks.text).toContain('<a href="/web/sites">')
  })

  it('lists added sites and properties too, each property by its name and account', async () => {
    await sandbox.request('POST', '/_sandbox/users/web-cleo/sites', {
      body: { siteUrl: 'sc-domain:cleo.example.org' },
    })
    const added = await sandbox.request('POST', '/_sandbox/users/web-cleo/properties', {
      body: { displayName: 'Cleo & Co <shop>', account: 'Cleo clients' },
    })
    const cookie = await signIn('web-cleo')
    const page = await sandbox.request('GET', '/web/sites', { headers: { cookie } })
    const owned = (await sandbox.request('GET', '/_sandbox/users/web-cleo')).body
    expect(codes(page.text, 'site')).toEqual(owned.sites)
    expect(codes(page.text, 'property')).toEqual(owned.properties)
    expect(owned.properties[2]).toBe(added.body.propertiesId)
    expect(page.text).toContain('Cleo &amp; Co &lt;shop&gt; (account Cleo clients)')
    expect(page.text).toMatch(/www\.web-cleo\.example – [A-Z][a-z ]+ \(account Web Cleo Ltd\)/)
  })

  it('asks who you are first, and comes back here after signing in', async () => {
    const page = await sandbox.request('GET', '/web/sites')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<button type="submit">Sign in</button>')
    expect(page.text).toContain('<input type="hidden" name="next" value="/web/sites" />')
    expect(codes(page.text, 'property')).toEqual([])
  })
})
