import { describe, expect, it } from 'vitest'
import { connectorForSuite, csrfOf, Person } from '../support/connector.js'

/**
 * The connector's consent page: what it shows, when it is shown again, and which browser may
 * answer it. (Its CSRF and framing protections are in test/security/csrf-and-framing.test.ts,
 * per-client consent in test/security/per-client-consent.test.ts.)
 */

const suite = connectorForSuite()

const openConsent = suite.openConsent

describe('the consent page', () => {
  it('names the client, its redirect host, the service and each permission in words', async () => {
    const { client, html, res } = await openConsent(suite.person('reader'))
    expect(res.status).toBe(200)
    expect(html).toContain('Helpful Assistant')
    expect(html).toContain(new URL(client.redirect_uri).host)
    expect(html).toContain('Tasks')
    expect(html).toContain('See your task lists and tasks')
    expect(html).toContain('Create, change, move and delete your tasks and lists')
    expect(html).toContain('<button name="Allow" value="Allow">Allow</button>')
    expect(html).toContain('<button name="Deny" value="Deny">Deny</button>')
    expect(html).not.toContain('<script')
  })

  it('lists only the permissions asked for', async () => {
    const { html } = await openConsent(suite.person('narrow'), undefined, 'tasks.readonly')
    expect(html).toContain('See your task lists and tasks')
    expect(html).not.toContain('Create, change, move and delete')
  })

  it('names a client without a name by its id', async () => {
    const client = await suite.registerClient({ client_name: undefined })
    const { html } = await openConsent(suite.person('nameless'), client)
    expect(html).toContain(client.client_id)
  })

  it('is shown only to the browser that started the authorization', async () => {
    const { consentUrl } = await openConsent(suite.person('owner'))
    const stranger = suite.person('stranger')
    const res = await stranger.fetch('GET', consentUrl)
    expect(res.status).toBe(410)
  })
})

describe('the consent form', () => {
  /** Posts the form as `person`; answers the status and where it sends the browser. */
  async function post(person: Person, url: string, form: Record<string, string>, headers = {}) {
    const res = await person.fetch('POST', url, form, headers)
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }

  it('asks for a choice when neither button was pressed', async () => {
    const person = suite.person('undecided')
    const { consentUrl, html } = await openConsent(person)
    expect((await post(person, consentUrl, { csrf: csrfOf(html) })).status).toBe(400)
  })
})

describe('consent', () => {
  it('is remembered for the same client and service: no pages the second time', async () => {
    const person = suite.person('returning')
    const client = await suite.registerClient({ redirect_uris: ['https://app.example/callback'] })
    const first = await suite.connect({ person, client })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    const second = await suite.connect({ person, client })
    expect(person.seen).toEqual([])
    expect(second.tokens.access_token).not.toBe(first.tokens.access_token)
    // One grant per person, client and service.
    const links = await suite.store.db
      .selectFrom('grant_links')
      .selectAll()
      .where('account', '=', 'returning')
      .execute()
    expect(links).toHaveLength(1)
    expect((await suite.mcp('tasks', first.tokens.access_token)).status).toBe(200)
  })

  it('is asked every time a code goes back to a loopback port, whatever the client', async () => {
    // Any program on the person's machine can listen on a loopback port and give the id of an app
    // they use: only the person can tell that it is the app.
    const person = suite.person('asked-again')
    const client = await suite.registerClient({ redirect_uris: ['http://localhost/callback'] })
    const at = (port: number) => ({ ...client, redirect_uri: `http://localhost:${port}/callback` })
    await suite.connect({ person, client: at(41001) })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    await suite.connect({ person, client: at(41002) })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
  })

  it('is asked again of the same client for another service, and for more permissions', async () => {
    const person = suite.person('widening')
    const client = await suite.registerClient()
    await suite.connect({ person, client, service: 'tasks', scope: 'tasks.readonly' })
    await suite.connect({ person, client, service: 'search' })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    const wider = await suite.connect({ person, client, service: 'tasks', scope: 'tasks' })
    expect(person.seen).toEqual(['consent', 'provider', 'choice'])
    expect(wider.tokens.scope).toBe('tasks')
    // The wider grant replaced the narrower one: still one grant per client and service.
    const links = await suite.store.db
      .selectFrom('grant_links')
      .select('service')
      .where('account', '=', 'widening')
      .orderBy('service')
      .execute()
    expect(links).toEqual([{ service: 'search' }, { service: 'tasks' }])
  })

  it('replacing a grant ends the old one', async () => {
    const person = suite.person('replaced')
    const client = await suite.registerClient()
    const old = await suite.connect({ person, client, scope: 'tasks.readonly' })
    await suite.connect({ person, client, scope: 'tasks' })
    expect((await suite.mcp('tasks', old.tokens.access_token)).status).toBe(401)
  })
})

describe('the person', () => {
  it('is whoever signs in at the provider: another account there gets its own grant', async () => {
    const browser = suite.person('first-account')
    const first = await suite.connect({ person: browser })
    // The same browser, another assistant; at the provider, someone else signs in. The
    // connector's session of the first account ends; its grant does not.
    Object.assign(browser, { user: 'second-account' })
    const second = await suite.connect({ person: browser })
    expect(browser.seen).toEqual(['consent', 'provider', 'choice'])
    const accounts = await suite.store.db
      .selectFrom('grant_links')
      .select(['account', 'client_id'])
      .where('account', 'in', ['first-account', 'second-account'])
      .orderBy('account')
      .execute()
    expect(accounts).toEqual([
      { account: 'first-account', client_id: first.client.client_id },
      { account: 'second-account', client_id: second.client.client_id },
    ])
    expect((await suite.mcp('tasks', first.tokens.access_token)).status).toBe(200)
    expect((await suite.mcp('tasks', second.tokens.access_token)).status).toBe(200)
  })
})

describe('the return from the provider', () => {
  it('is refused in another browser than the one that pressed Allow', async () => {
    const person = suite.person('carried')
    const { consentUrl, html } = await openConsent(person)
    const allow = await person.fetch('POST', consentUrl, { Allow: 'Allow', csrf: csrfOf(html) })
    const providerUrl = allow.headers.get('location')!
    // The person signs in at the provider; someone else's browser brings the callback back.
    const form = await person.fetch('GET', providerUrl)
    const action = /<form method="post" action="([^"]+)"/.exec(await form.text())![1]!
    const back = await person.fetch(
      'POST',
      new URL(action.replace(/&amp;/g, '&'), providerUrl).toString(),
      {
        user: 'carried',
        Allow: 'Allow',
      },
    )
    const callback = back.headers.get('location')!
    expect(callback).toContain('/upstream/callback')
    const other = new Person({ url: suite.url, sandbox: suite.sandbox }, 'other')
    const res = await other.fetch('GET', callback)
    expect(res.status).toBe(403)
    // Nothing kept from it.
    const credentials = await suite.store.db
      .selectFrom('upstream_credentials')
      .selectAll()
      .where('subject', '=', 'carried')
      .execute()
    expect(credentials).toEqual([])
  })

  it('is refused when its state was already used', async () => {
    const res = await suite.request('GET', '/upstream/callback?state=made-up&code=x')
    expect(res.status).toBe(400)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})
