import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { PersonSessions } from '../../src/account/sessions.js'
import { connectorForSuite, csrfOf, Person } from '../support/connector.js'

/**
 * The connector's own page, /connections: the person signs in through the provider, sees each
 * assistant they connected and disconnects any of them. (Its CSRF and framing protections are
 * in test/security/csrf-and-framing.test.ts, with every other page's.)
 */

const suite = connectorForSuite()

const page = (person: Person) =>
  person.fetch('GET', `${suite.url}/connections`).then(async (res) => ({
    status: res.status,
    text: await res.text(),
  }))

/** Posts a form of the connections page as `person`, with the page's CSRF token. */
async function post(person: Person, action: string, fields: Record<string, string> = {}) {
  const { text } = await page(person)
  const res = await person.fetch('POST', `${suite.url}/connections/${action}`, {
    csrf: csrfOf(text),
    ...fields,
  })
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

const grantIdsOf = (html: string) =>
  [...html.matchAll(/name="grant" value="([^"]+)"/g)].map((match) => match[1]!)

describe('the connections page, signed out', () => {
  it('says what it is and offers to sign in with the provider, by a form post', async () => {
    const { status, text } = await page(suite.person('visitor'))
    expect(status).toBe(200)
    expect(text).toContain('Your connected assistants')
    expect(text).toContain('disconnect')
    expect(text).toContain('<form method="post" action="/connections/sign-in">')
    expect(text).toMatch(/<button[^>]*>Sign in with the sandbox provider<\/button>/)
    expect(csrfOf(text)).toBeTruthy()
    expect(text).not.toContain('Signed in as')
    expect(text).not.toContain('<script')
  })

  it('ignores a made-up session cookie', async () => {
    const res = await fetch(`${suite.url}/connections`, {
      headers: { cookie: `countersign_session=${'a'.repeat(43)}` },
    })
    expect(await res.text()).not.toContain('Signed in as')
  })
})

describe('signing in', () => {
  it('goes through the provider (identity only) and back to the page, signed in', async () => {
    const person = suite.person('signing-in')
    const end = await person.signInToConnections()
    expect(person.seen).toEqual(['provider'])
    expect(end.url).toBe(`${suite.url}/connections`)
    expect(end.status).toBe(200)
    expect(end.text).toContain('Signed in as <strong>signing-in</strong>')
    expect(end.text).toContain('No assistant is connected.')
    expect(end.text).toMatch(/<button[^>]*>Sign out<\/button>/)
    // Nothing held at the provider for a sign-in.
    expect(
      await suite.store.db
        .selectFrom('upstream_credentials')
        .selectAll()
        .where('subject', '=', 'signing-in')
        .execute(),
    ).toEqual([])
  })

  it('keeps the session in a cookie the store knows only by its SHA-256', async () => {
    const person = suite.person('cookie-holder')
    await person.signInToConnections()
    const [value] = person.cookies
      .header(new URL(`${suite.url}/`))
      .split('; ')
      .filter((pair) => pair.startsWith('countersign_session='))
      .map((pair) => pair.slice('countersign_session='.length))
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const rows = await suite.store.db
      .selectFrom('person_sessions')
      .selectAll()
      .where('subject', '=', 'cookie-holder')
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.id).not.toContain(value)
    expect(rows[0]!.expires_at - rows[0]!.created_at).toBe(12 * 60 * 60_000)
  })

  it('sets the cookie HttpOnly, SameSite=Lax, Path=/, and as __Host- on https', async () => {
    const answer = async (publicUrl: string) => {
      const sessions = new PersonSessions(suite.store, publicUrl)
      const app = new Hono().get('/', async (c) => {
        await sessions.start(c, 'cookie-check')
        return c.text('ok')
      })
      return (await app.request('/')).headers.get('set-cookie')!
    }
    expect(await answer('https://connector.example')).toMatch(
      /^__Host-countersign_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    )
    expect(await answer('http://127.0.0.1:8080')).toMatch(
      /^countersign_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/,
    )
  })

  it('ends after 12 hours', async () => {
    const person = suite.person('expiring')
    await person.signInToConnections()
    await suite.store.db
      .updateTable('person_sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('subject', '=', 'expiring')
      .execute()
    expect((await page(person)).text).not.toContain('Signed in as')
  })

  it('is refused when the return from the provider is carried to another browser', async () => {
    const person = suite.person('started-here')
    const { text } = await page(person)
    const start = await person.fetch('POST', `${suite.url}/connections/sign-in`, {
      csrf: csrfOf(text),
    })
    expect(start.status).toBe(303)
    const providerPage = start.headers.get('location')!
    expect(new URL(providerPage).searchParams.get('scope')).toBe('openid')
    const form = await person.fetch('GET', providerPage)
    const action = /<form method="post" action="([^"]+)"/.exec(await form.text())![1]!
    const back = await person.fetch(
      'POST',
      new URL(action.replace(/&amp;/g, '&'), providerPage).toString(),
      { user: 'started-here', Allow: 'Allow' },
    )
    const callback = back.headers.get('location')!
    expect(callback).toContain('/upstream/callback')

    const other = new Person({ url: suite.url, sandbox: suite.sandbox }, 'other')
    const res = await other.fetch('GET', callback)
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie') ?? '').not.toContain('countersign_session=')
    expect((await page(other)).text).not.toContain('Signed in as')
  })

  it("says so when the person declines on the provider's page", async () => {
    const person = suite.person('declining')
    const end = await person.signInToConnections({ provider: 'Deny' })
    expect(end.status).toBe(400)
    expect(end.url).toContain('/upstream/callback')
    expect(end.text).toContain('Sign in again')
    expect((await page(person)).text).not.toContain('Signed in as')
  })

  it('signing out ends the session: the old cookie no longer works', async () => {
    const person = suite.person('leaving')
    await person.signInToConnections()
    const cookie = person.cookies.header(new URL(`${suite.url}/connections`))
    const out = await post(person, 'sign-out')
    expect(out.status).toBe(303)
    expect(out.location).toBe('/connections')
    expect((await page(person)).text).not.toContain('Signed in as')
    const replayed = await fetch(`${suite.url}/connections`, { headers: { cookie } })
    expect(await replayed.text()).not.toContain('Signed in as')
  })
})

describe('the signed-in page', () => {
  it('lists each assistant: its name, redirect host, service, permissions in words, since when', async () => {
    const person = suite.person('two-assistants')
    const writer = await suite.registerClient({ client_name: 'Writing Assistant' })
    const reader = await suite.registerClient({
      client_name: 'Reading Assistant',
      redirect_uris: ['https://reader.example/callback'],
    })
    await suite.connect({ person, client: writer, service: 'tasks' })
    await suite.connect({ person, client: reader, service: 'search', scope: 'webmasters.readonly' })

    const { text } = (await person.signInToConnections()) as { text: string }
    expect(grantIdsOf(text)).toHaveLength(2)
    expect(text).toContain('Writing Assistant')
    expect(text).toContain(new URL(writer.redirect_uri).host)
    expect(text).toContain('Tasks')
    expect(text).toContain('See your task lists and tasks')
    expect(text).toContain('Create, change, move and delete your tasks and lists')
    expect(text).toContain('Reading Assistant')
    expect(text).toContain('reader.example')
    expect(text).toContain('Search performance')
    expect(text).toContain('See your sites, their search performance')
    expect(text).not.toContain('Submit sitemaps')
    expect(text).toMatch(/connected since\s*<time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC/)
    expect(
      text.match(/<button name="Disconnect" value="Disconnect">Disconnect<\/button>/g),
    ).toHaveLength(2)
  })

  it("names a client without a name by its id, and never shows another person's assistants", async () => {
    const nameless = await suite.registerClient({ client_name: undefined })
    await suite.connect({ person: suite.person('someone-else'), client: nameless })
    const person = suite.person('only-mine')
    const mine = await suite.registerClient({ client_name: undefined })
    await suite.connect({ person, client: mine })
    const { text } = await person.signInToConnections()
    expect(text).toContain(mine.client_id)
    expect(text).not.toContain(nameless.client_id)
    expect(grantIdsOf(text)).toHaveLength(1)
  })
})

describe('Disconnect', () => {
  it('ends that assistant: tokens dead, upstream token revoked and erased; the other keeps working', async () => {
    const person = suite.person('disconnecting')
    const kept = await suite.connect({
      person,
      client: await suite.registerClient({ client_name: 'Kept Assistant' }),
    })
    const gone = await suite.connect({
      person,
      client: await suite.registerClient({ client_name: 'Gone Assistant' }),
    })
    const goneLink = await suite.store.db
      .selectFrom('grant_links')
      .selectAll()
      .where('client_id', '=', gone.client.client_id)
      .executeTakeFirstOrThrow()
    const goneUpstream = await suite.upstreamOf('disconnecting', goneLink.grant_id)
    const keptUpstream = await suite.upstreamOf(
      'disconnecting',
      (
        await suite.store.db
          .selectFrom('grant_links')
          .select('grant_id')
          .where('client_id', '=', kept.client.client_id)
          .executeTakeFirstOrThrow()
      ).grant_id,
    )
    const upstreamWorks = async (token: string) =>
      (await suite.sandboxRequest('GET', '/tasks/v1/lists', { token })).status === 200
    expect(await upstreamWorks(goneUpstream.tokens!.access_token)).toBe(true)

    await person.signInToConnections()
    const res = await post(person, 'disconnect', { grant: goneLink.grant_id })
    expect(res.status).toBe(303)
    expect(res.location).toBe('/connections')

    // Its tokens are dead at the MCP endpoint and the token endpoint.
    expect((await suite.mcp('tasks', gone.tokens.access_token)).status).toBe(401)
    expect((await suite.refresh(gone.client, gone.tokens.refresh_token)).body.error).toBe(
      'invalid_grant',
    )
    // Its upstream token is erased here and revoked at the provider; at Google, whose one
    // revocation would also end the kept assistant's, it is left to expire instead.
    expect(await upstreamWorks(goneUpstream.tokens!.access_token)).toBe(suite.profile === 'google')
    expect(
      await suite.store.db
        .selectFrom('upstream_credentials')
        .selectAll()
        .where('id', '=', goneLink.credential_id)
        .execute(),
    ).toEqual([])
    expect((await suite.upstreamOf('disconnecting', goneLink.grant_id)).link).toBeUndefined()

    // The other assistant still works, upstream too.
    expect((await suite.mcp('tasks', kept.tokens.access_token)).status).toBe(200)
    expect(await upstreamWorks(keptUpstream.tokens!.access_token)).toBe(true)
    const { text } = await page(person)
    expect(text).toContain('Kept Assistant')
    expect(text).not.toContain('Gone Assistant')
  })

  it("refuses another person's grant, and ends nothing", async () => {
    const victim = suite.person('victim')
    const { tokens } = await suite.connect({ person: victim })
    const victimGrant = (await suite.upstreamOf('victim')).link!.grant_id
    const attacker = suite.person('attacker')
    await attacker.signInToConnections()
    const before = await suite.holdings()

    const res = await post(attacker, 'disconnect', { grant: victimGrant })
    expect(res.status).toBe(404)
    expect(res.location).toBeNull()
    expect(res.text).toContain('no such connection')
    expect(await suite.holdings()).toEqual(before)
    expect((await suite.mcp('tasks', tokens.access_token)).status).toBe(200)
  })

  it('answers an unknown or missing grant with 404, and a signed-out browser with 403', async () => {
    const person = suite.person('fumbling')
    await person.signInToConnections()
    expect((await post(person, 'disconnect', { grant: 'no-such-grant' })).status).toBe(404)
    expect((await post(person, 'disconnect')).status).toBe(404)
    const stranger = suite.person('signed-out')
    const res = await stranger.fetch('POST', `${suite.url}/connections/disconnect`, {
      csrf: 'x',
      grant: 'whatever',
    })
    expect(res.status).toBe(403)
  })
})
