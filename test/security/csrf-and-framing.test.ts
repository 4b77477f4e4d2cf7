import { describe, expect, it } from 'vitest'
import {
  connectorForSuite,
  csrfOf,
  expectOnlyOwnScript,
  firstAnswer,
  type Person,
} from '@countersign/connector/testing'
import {
  authorizeUrl,
  pkcePair,
  postForm,
  sandboxAccount,
  sandboxForSuite,
  validParams,
} from '@countersign/sandbox/testing'

/**
 * CSRF and anti-framing on every page (docs/threat-model.md, "CSRF and anti-framing on every
 * page"): every HTML page of the connector (consent, the callback's error pages, oidc-provider's
 * error page, /connections) and of the sandbox provider cannot be framed and is never cached; every
 * form that acts refuses a post from another site, and the connector's forms also refuse one
 * without their CSRF token. A refused post changes nothing: no redirect, no session, nothing stored
 * or ended.
 */

const suite = connectorForSuite()
const sandbox = sandboxForSuite()

interface PageAnswer {
  status: number
  headers: Headers
  text: string
}

const answerOf = async (res: Response): Promise<PageAnswer> => ({
  status: res.status,
  headers: res.headers,
  text: await res.text(),
})

/** An HTML page that cannot be framed, is never cached and runs no script but the pages' own. */
function expectProtectedPage(what: string, page: PageAnswer, status: number) {
  expect(page.status, what).toBe(status)
  expect(page.headers.get('content-type'), what).toMatch(/^text\/html/)
  expect(page.headers.get('x-frame-options'), what).toBe('DENY')
  expect(page.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'")
  expect(page.headers.get('cache-control'), what).toBe('no-store')
  expectOnlyOwnScript(what, page.text)
}

describe('CSRF and anti-framing on every page', () => {
  describe("the connector's pages", () => {
    /** Posts a form as `person`; the status, where it sends the browser, and the page. */
    async function post(
      person: Person,
      url: string,
      form: Record<string, string>,
      headers: Record<string, string> = {},
    ) {
      const res = await person.fetch('POST', url, form, headers)
      return { status: res.status, location: res.headers.get('location'), text: await res.text() }
    }

    it('every HTML page cannot be framed and is never cached', async () => {
      const person = suite.person('framer')
      const { consentUrl, res: consent, html } = await suite.openConsent(person)
      expectProtectedPage('consent', { status: 200, headers: consent.headers, text: html }, 200)
      expectProtectedPage(
        'consent, refused post',
        await answerOf(await person.fetch('POST', consentUrl, { Allow: 'Allow' })),
        400,
      )
      expectProtectedPage(
        'consent, another browser',
        await answerOf(await suite.person('stranger').fetch('GET', consentUrl)),
        410,
      )
      expectProtectedPage(
        'callback with an unknown state',
        await answerOf(await fetch(`${suite.url}/upstream/callback?state=made-up&code=x`)),
        400,
      )
      const client = await suite.registerClient()
      const badRedirect = await firstAnswer(
        suite.authorizationUrl(client, 'tasks', suite.pkce(), {
          redirect_uri: 'https://attacker.example/cb',
        }),
      )
      expectProtectedPage("oidc-provider's error page", badRedirect, 400)

      const visitor = suite.person('connections-framer')
      expectProtectedPage(
        '/connections signed out',
        await answerOf(await visitor.fetch('GET', `${suite.url}/connections`)),
        200,
      )
      for (const path of ['/approvals', '/activity'])
        expectProtectedPage(
          `${path} signed out`,
          await answerOf(await visitor.fetch('GET', `${suite.url}${path}`)),
          200,
        )
      const signedIn = await visitor.signInToConnections()
      for (const path of ['/approvals', '/activity'])
        expectProtectedPage(
          `${path} signed in`,
          await answerOf(await visitor.fetch('GET', `${suite.url}${path}`)),
          200,
        )
      expectProtectedPage(
        '/approvals refused post',
        await answerOf(await visitor.fetch('POST', `${suite.url}/approvals`, { id: 'x' })),
        400,
      )
      expectProtectedPage(
        '/connections signed in',
        { ...signedIn, headers: (await visitor.fetch('GET', `${suite.url}/connections`)).headers },
        200,
      )
      expectProtectedPage(
        '/connections refused post',
        await answerOf(
          await visitor.fetch('POST', `${suite.url}/connections/disconnect`, { grant: 'x' }),
        ),
        400,
      )
    })

    it('the consent form refuses a post without its CSRF token, or with a wrong one, and issues nothing', async () => {
      const person = suite.person('csrf')
      const { consentUrl, html } = await suite.openConsent(person)
      const forms: Record<string, string>[] = [
        { Allow: 'Allow' },
        { Allow: 'Allow', csrf: 'forged' },
      ]
      for (const form of forms) {
        const answer = await post(person, consentUrl, form)
        expect(answer.status).toBe(400)
        expect(answer.location).toBeNull()
        expect(answer.text).toContain('out of date')
      }
      // Another authorization's token does not fit this one.
      const { html: other } = await suite.openConsent(person)
      expect((await post(person, consentUrl, { Allow: 'Allow', csrf: csrfOf(other) })).status).toBe(
        400,
      )
      expect(
        await suite.store.db.selectFrom('upstream_authorizations').selectAll().execute(),
      ).toEqual([])

      // The page still works with its own token.
      const answer = await post(person, consentUrl, { Allow: 'Allow', csrf: csrfOf(html) })
      expect(answer.status).toBe(303)
      expect(answer.location).toContain(`${suite.sandbox.url}/oauth/authorize`)
    })

    it('the consent form refuses a post from another site, and issues nothing', async () => {
      const person = suite.person('cross-site')
      const { consentUrl, html } = await suite.openConsent(person)
      const form = { Allow: 'Allow', csrf: csrfOf(html) }
      const pending = () =>
        suite.store.db.selectFrom('upstream_authorizations').selectAll().execute()
      const before = await pending()
      for (const headers of <Record<string, string>[]>[
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'https://evil.example' },
      ]) {
        const answer = await post(person, consentUrl, form, headers)
        expect(answer.status).toBe(400)
        expect(answer.location).toBeNull()
        expect(answer.text).toContain('another site')
      }
      expect(await pending()).toEqual(before)
      expect(
        (await post(person, consentUrl, form, { 'sec-fetch-site': 'same-origin' })).status,
      ).toBe(303)
    })

    it("the connections page's Sign in refuses a post without its token, with another browser's, or from another site", async () => {
      const person = suite.person('login-csrf')
      const page = await person.fetch('GET', `${suite.url}/connections`)
      const csrf = csrfOf(await page.text())
      const otherBrowser = suite.person('other-browser')
      const othersToken = csrfOf(
        await (await otherBrowser.fetch('GET', `${suite.url}/connections`)).text(),
      )
      const before = await suite.holdings()
      const attempts: [Record<string, string>, Record<string, string>][] = [
        [{}, {}],
        [{ csrf: 'forged' }, {}],
        [{ csrf: othersToken }, {}],
        [{ csrf }, { 'sec-fetch-site': 'cross-site' }],
        [{ csrf }, { origin: 'https://evil.example' }],
      ]
      for (const [form, headers] of attempts) {
        const answer = await post(person, `${suite.url}/connections/sign-in`, form, headers)
        expect(answer.status, JSON.stringify([form, headers])).toBe(400)
        expect(answer.location).toBeNull()
      }
      expect(await suite.holdings(), 'no sign-in started').toEqual(before)
      const allowed = await post(person, `${suite.url}/connections/sign-in`, { csrf })
      expect(allowed.status).toBe(303)
      expect(allowed.location).toContain(`${suite.sandbox.url}/oauth/authorize`)
    })

    it("the connections page's Disconnect and Sign out refuse a post without the session's token, with another session's, or from another site, and end nothing", async () => {
      const person = suite.person('csrf-connections')
      const { tokens } = await suite.connect({ person })
      const grant = (await suite.upstreamOf('csrf-connections')).link!.grant_id
      const page = await person.signInToConnections()
      const csrf = csrfOf(page.text)
      const other = suite.person('another-session')
      const othersToken = csrfOf((await other.signInToConnections()).text)
      const before = await suite.holdings()

      const attempts: [Record<string, string>, Record<string, string>][] = [
        [{ grant }, {}],
        [{ grant, csrf: 'forged' }, {}],
        [{ grant, csrf: othersToken }, {}],
        [{ grant, csrf }, { 'sec-fetch-site': 'cross-site' }],
        [{ grant, csrf }, { 'sec-fetch-site': 'same-site' }],
        [{ grant, csrf }, { origin: 'https://evil.example' }],
      ]
      for (const action of ['disconnect', 'sign-out']) {
        for (const [form, headers] of attempts) {
          const answer = await post(person, `${suite.url}/connections/${action}`, form, headers)
          expect(answer.status, `${action} ${JSON.stringify([form, headers])}`).toBe(400)
          expect(answer.location).toBeNull()
        }
      }
      expect(await suite.holdings(), 'nothing ended').toEqual(before)
      expect((await suite.mcp('tasks', tokens.access_token)).status).toBe(200)
      expect(
        (await person.fetch('GET', `${suite.url}/connections`).then((res) => res.text())).includes(
          'Signed in as',
        ),
      ).toBe(true)
    })
  })

  describe("the sandbox provider's pages", () => {
    const account = sandboxAccount(sandbox)

    it('every HTML page cannot be framed and is never cached', async () => {
      const { challenge } = pkcePair()
      const get = async (path: string, cookie?: string) =>
        answerOf(
          await fetch(sandbox.url + path, {
            redirect: 'manual',
            headers: cookie ? { cookie } : {},
          }),
        )
      const consent = authorizeUrl(sandbox, validParams(challenge))
      expectProtectedPage('authorize', await answerOf(await fetch(consent)), 200)
      const noClient = authorizeUrl(sandbox, validParams(challenge, { client_id: undefined }))
      expectProtectedPage('authorize error', await answerOf(await fetch(noClient)), 400)
      expectProtectedPage('connections signed out', await get('/account/connections'), 200)
      expectProtectedPage('web view signed out', await get('/web/tasks'), 200)
      const cookie = await account.signIn('framed-user')
      expectProtectedPage('connections signed in', await get('/account/connections', cookie), 200)
      expectProtectedPage('web view', await get('/web/tasks', cookie), 200)
      expectProtectedPage('unknown task', await get('/web/tasks/unknown', cookie), 404)
      const badSignIn = await sandbox.request('POST', '/account/sign-in', {
        rawBody: account.form({ user: '' }),
        headers: account.FORM,
      })
      expectProtectedPage('sign-in error', badSignIn, 400)
    })

    it('cross-site consent post (CSRF, login CSRF): refused with a 400 page, no redirect, no session', async () => {
      const { challenge } = pkcePair()
      const url = authorizeUrl(sandbox, validParams(challenge))
      for (const headers of <Record<string, string>[]>[
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
      ]) {
        const res = await postForm(url, { user: 'mallory', Allow: 'Allow' }, headers)
        expect(res.status).toBe(400)
        expect(res.headers.get('location')).toBeNull()
        expect(res.headers.get('set-cookie')).toBeNull()
        expect(await res.text()).toContain('another site')
      }
      const sameOrigin = await postForm(
        url,
        { user: 'alice', Allow: 'Allow' },
        { 'sec-fetch-site': 'same-origin', origin: sandbox.url },
      )
      expect(sameOrigin.status).toBe(303)
    })

    it('a revoke or sign-in posted from another site is refused (CSRF)', async () => {
      const { signIn, revoke, controlTokens, works, form, FORM } = account
      const tokens = await controlTokens('ivan', 'Kept App')
      const cookie = await signIn('ivan')
      for (const headers of <Record<string, string>[]>[
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'https://evil.example' },
      ]) {
        const res = await revoke(cookie, 'Kept App', headers)
        expect(res.status).toBe(400)
        expect(res.text).toContain('another site')
        const login = await sandbox.request('POST', '/account/sign-in', {
          rawBody: form({ user: 'mallory' }),
          headers: { ...FORM, ...headers },
        })
        expect(login.status).toBe(400)
        expect(login.headers.get('set-cookie')).toBeNull()
      }
      expect((await works(tokens, 'Kept App')).access).toBe(true)
      expect(
        (await revoke(cookie, 'Kept App', { 'sec-fetch-site': 'same-origin', origin: sandbox.url }))
          .status,
      ).toBe(303)
    })
  })
})
