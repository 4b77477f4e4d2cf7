import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chromiumForSuite, realBrowserAvailable } from '../support/browser.js'
import { connectorForSuite, redirectReceiverForSuite } from '@countersign/connector/testing'

/**
 * The whole authorization in a real browser: Debian's Chromium, driven by playwright-core,
 * clicks through the connector's consent page, the provider's sign-in page and the choice of
 * what the grant covers (Allow as it is shown), and lands on the client's loopback redirect URI
 * with a code and the issuer; the code's tokens work.
 */
const browserAvailable = realBrowserAvailable('the real-browser test of the authorization')

const suite = connectorForSuite()
const receiver = redirectReceiverForSuite()

describe.skipIf(!browserAvailable)('the authorization in a real browser (Chromium)', () => {
  const chrome = chromiumForSuite()

  /** A new client and browser page at the consent page of its authorization. */
  async function openConsent() {
    const client = await suite.registerClient({
      client_name: 'Browser Assistant',
      redirect_uris: [receiver.uri],
    })
    const pkce = suite.pkce()
    const url = suite.authorizationUrl(client, 'tasks', pkce, { state: 'browser-state' })
    const page = await chrome.browser.newContext().then((context) => context.newPage())
    await page.goto(url.toString())
    await page.waitForURL(/\/consent\//)
    return { client, pkce, page }
  }

  const bodyText = (page: Page) => page.locator('body').innerText()

  it('consent, Allow, sign in at the provider, Allow, the lists it may use, Allow: the code and iss reach the loopback redirect URI, and its tokens work', async () => {
    const { client, pkce, page } = await openConsent()
    const consent = await bodyText(page)
    expect(consent).toContain('Browser Assistant')
    expect(consent).toContain(new URL(receiver.uri).host)
    expect(consent).toContain('Tasks')
    expect(consent).toContain('See your task lists and tasks')
    expect(consent).toContain('Create, change, move and delete your tasks and lists')

    const landed = receiver.next()
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(`${suite.providerPage}**`)
    await page.locator('input[name="user"]').fill('browser-user')
    await page.getByRole('button', { name: 'Allow' }).click()

    // Which lists: the default one ticked, only the ticked ones chosen; Allow as it is.
    await page.waitForURL(/\/consent\/[^/]+\/choose/)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
      'Which task lists may Browser Assistant use?',
    )
    expect(await page.getByRole('radio', { name: /Only the task lists I tick/ }).isChecked()).toBe(
      true,
    )
    expect(await page.getByRole('checkbox', { name: 'My Tasks' }).isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Allow' }).click()

    const callback = await landed
    await page.waitForURL(`${receiver.uri}**`)
    expect(callback.searchParams.get('iss')).toBe(suite.url)
    expect(callback.searchParams.get('state')).toBe('browser-state')
    const code = callback.searchParams.get('code')
    expect(code).toBeTruthy()
    expect(await bodyText(page)).toContain('You can close this window')

    const tokens = await suite.exchangeCode(client, code!, pkce)
    expect(tokens.status).toBe(200)
    expect((await suite.mcp('tasks', tokens.body.access_token)).status).toBe(200)
    await page.context().close()
  }, 60_000)

  it('Deny on the consent page: the redirect carries access_denied and no code', async () => {
    const { page } = await openConsent()
    const before = await suite.holdings()
    const landed = receiver.next()
    await page.getByRole('button', { name: 'Deny' }).click()
    const callback = await landed
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(callback.searchParams.get('iss')).toBe(suite.url)
    expect(callback.searchParams.get('state')).toBe('browser-state')
    expect(callback.searchParams.has('code')).toBe(false)
    const after = await suite.holdings()
    expect(after.AuthorizationCode ?? 0).toBe(before.AuthorizationCode ?? 0)
    expect(after.grant_links).toBe(before.grant_links)
    expect(after.upstream_credentials).toBe(before.upstream_credentials)
    await page.context().close()
  }, 60_000)
})
