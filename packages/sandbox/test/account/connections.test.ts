import { describe, expect, it } from 'vitest'
import { providerError, sandboxForSuite } from '../support/sandbox.js'
import { fieldValue } from '../auth/person.js'
import { sandboxAccount } from './account.js'

const sandbox = sandboxForSuite()

const { form, FORM, signIn, connections, revoke, controlTokens, works } = sandboxAccount(sandbox)

describe("the connections page (the person's list of third-party apps)", () => {
  it('without a session cookie, shows the sign-in form: field user, button Sign in', async () => {
    for (const cookie of [undefined, 'sandbox_session=forged', 'sandbox_session=%zz']) {
      const res = await connections(cookie)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(res.text).toContain('<form method="post" action="/account/sign-in">')
      expect(res.text).toContain('name="user"')
      expect(res.text).toContain('<input type="hidden" name="next" value="/account/connections" />')
      expect(res.text).toMatch(/<button[^>]*>Sign in<\/button>/)
      expect(res.text).not.toContain('Signed in as')
    }
  })

  it("lists an app that got tokens, and Revoke kills that app's access and refresh tokens at once; another app's keep working", async () => {
    const some = await controlTokens('carol', 'Some App', ['tasks.readonly'])
    const someAgain = await controlTokens('carol', 'Some App', ['tasks'])
    const other = await controlTokens('carol', 'Other App', ['analytics.readonly'])
    const elsewhere = await controlTokens('dave', 'Some App')

    const cookie = await signIn('carol')
    const page = await connections(cookie)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Signed in as <strong>carol</strong>')
    expect(page.text).toContain('<h2>Some App</h2>')
    expect(page.text).toContain('<h2>Other App</h2>')
    expect(page.text).toContain('See your task lists and tasks')
    expect(page.text).toContain('See, create, change and delete your task lists and tasks')
    expect(page.text).toContain('See reports on your analytics properties')
    expect(page.text).toMatch(
      /Has access since <time datetime="\d{4}-\d\d-\d\dT[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/,
    )
    expect(page.text).toContain('<form method="post" action="/account/connections/revoke">')
    expect(page.text).toContain('<input type="hidden" name="client" value="Some App" />')
    expect(page.text).toContain('<button name="Revoke" value="Revoke">Revoke</button>')
    expect(page.text.match(/<h2>Some App<\/h2>/g)).toHaveLength(1)

    const res = await revoke(cookie, 'Some App')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/account/connections')
    expect(await works(some, 'Some App')).toEqual({ access: false, refresh: false })
    expect(await works(someAgain, 'Some App')).toEqual({ access: false, refresh: false })
    expect(await works(other, 'Other App')).toEqual({ access: true, refresh: true })
    // Another person's grant to an app of the same name is theirs alone.
    expect(await works(elsewhere, 'Some App')).toEqual({ access: true, refresh: true })

    const after = await connections(cookie)
    expect(after.text).not.toContain('Some App')
    expect(after.text).toContain('<h2>Other App</h2>')

    expect((await revoke(cookie, 'Other App')).status).toBe(303)
    const empty = await connections(cookie)
    expect(empty.text).toContain('No apps have access to your account.')
    expect(await works(other, 'Other App')).toEqual({ access: false, refresh: false })
    // Revoking again is not an error.
    expect((await revoke(cookie, 'Other App')).status).toBe(303)
  })

  it('app names are escaped on the page, and revoking one by its exact name works', async () => {
    const tokens = await controlTokens('erin', '<i>Sly</i> & "Co"')
    const cookie = await signIn('erin')
    const page = await connections(cookie)
    expect(page.text).toContain('<h2>&lt;i&gt;Sly&lt;/i&gt; &amp; &quot;Co&quot;</h2>')
    expect((await revoke(cookie, '<i>Sly</i> & "Co"')).status).toBe(303)
    expect((await works(tokens, '<i>Sly</i> & "Co"')).access).toBe(false)
  })

  it('sign-out ends the session: the cookie is cleared and no longer works', async () => {
    const cookie = await signIn('frank')
    const out = await sandbox.request('POST', '/account/sign-out', {
      rawBody: '',
      headers: { ...FORM, cookie },
    })
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/account/connections')
    expect(out.headers.get('set-cookie')).toMatch(/^sandbox_session=; Max-Age=0; Path=\//)
    const page = await connections(cookie)
    expect(page.text).not.toContain('Signed in as')
    expect(page.text).toContain('Sign in')
  })

  it('sign-in goes only to a same-origin path: anything else goes to /account/connections', async () => {
    const keep = await sandbox.request('POST', '/account/sign-in', {
      rawBody: form({ user: 'gina', next: '/tasks/web?list=a%20b' }),
      headers: FORM,
    })
    expect(keep.headers.get('location')).toBe('/tasks/web?list=a%20b')
    for (const next of [
      '//evil.example/',
      'https://evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/%0d%0aSet-Cookie:x',
      '/a b',
      '',
      'relative',
    ]) {
      const res = await sandbox.request('POST', '/account/sign-in', {
        rawBody: form({ user: 'gina', next }),
        headers: FORM,
      })
      expect(res.status, next).toBe(303)
      expect(res.headers.get('location'), next).toBe(
        next === '/%0d%0aSet-Cookie:x' ? next : '/account/connections',
      )
    }
  })

  it('bad form input gets a 400 page saying what to change, never a 5xx', async () => {
    const badUser = await sandbox.request('POST', '/account/sign-in', {
      rawBody: form({ user: 'no spaces please' }),
      headers: FORM,
    })
    expect(badUser.status).toBe(400)
    expect(badUser.text).toContain('Change the user name')
    expect(fieldValue(badUser.text, 'user')).toBe('no spaces please')
    expect(badUser.headers.get('set-cookie')).toBeNull()
    const json = await sandbox.request('POST', '/account/sign-in', { body: { user: 'x' } })
    expect(json.status).toBe(400)
    expect(json.text).toContain('application/x-www-form-urlencoded')

    const cookie = await signIn('hana')
    const noClient = await sandbox.request('POST', '/account/connections/revoke', {
      rawBody: '',
      headers: { ...FORM, cookie },
    })
    expect(noClient.status).toBe(400)
    expect(noClient.text).toContain('client')
    const signedOut = await revoke('sandbox_session=forged', 'Some App')
    expect(signedOut.status).toBe(400)
    expect(signedOut.text).toContain('Sign in')
  })

  it('other paths under /account/ fall through to the 404', async () => {
    for (const [method, path] of [
      ['GET', '/account/sign-in'],
      ['GET', '/account/connections/revoke'],
      ['GET', '/account/nothing'],
      ['DELETE', '/account/connections'],
    ] as const) {
      const res = await sandbox.request(method, path)
      expect(res.status, path).toBe(404)
      expect(providerError(res).status).toBe('NOT_FOUND')
    }
  })
})
