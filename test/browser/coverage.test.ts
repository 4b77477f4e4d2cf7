import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  BROWSER_WAIT,
  checkPage,
  chromiumForSuite,
  realBrowserAvailable,
} from '../support/browser.js'
import {
  connectorForSuite,
  mcpClientWithToken,
  redirectReceiverForSuite,
} from '@countersign/connector/testing'

/**
 * The choice of what a grant covers, in Debian's Chromium: a consultant with two hundred
 * properties in eight client accounts finds one client's property by searching, ticks it and
 * allows; the assistant then sees that property alone. The choice at consent (few lists, many
 * properties, a search) and on the connections page, light and dark, at 360 and 1280 px: no
 * sideways scrolling, no serious or critical axe-core violation; screenshots in .tmp/screenshots.
 */
const browserAvailable = realBrowserAvailable('the real-browser tests of the choice of coverage')

const suite = connectorForSuite()
const receiver = redirectReceiverForSuite()

const CLIENTS = 8
const PROPERTIES_EACH = 25

/** A consultant: their own two properties, and 25 properties in each of eight clients' accounts. */
async function consultant(user: string) {
  for (let client = 1; client <= CLIENTS; client++)
    for (let site = 1; site <= PROPERTIES_EACH; site++)
      await suite.sandboxRequest('POST', `/_sandbox/users/${user}/properties`, {
        json: {
          displayName: `shop${site}.client${client}.example`,
          account: `Client ${client} Ltd`,
        },
      })
}

/** From an authorization URL, through consent and the provider's sign-in, to the choice. */
async function toTheChoice(page: Page, service: 'tasks' | 'analytics', user: string) {
  const client = await suite.registerClient({
    client_name: 'Browser Assistant',
    redirect_uris: [receiver.uri],
  })
  const pkce = suite.pkce()
  await page.goto(suite.authorizationUrl(client, service, pkce).toString())
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL(`${suite.providerPage}**`)
  await page.locator('input[name="user"]').fill(user)
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL(/\/consent\/[^/]+\/choose/)
  return { client, pkce }
}

describe.skipIf(!browserAvailable)('the choice of what a grant covers (Chromium)', () => {
  const chrome = chromiumForSuite()

  it('two hundred properties: search for one client, tick one property, Allow; the assistant sees it alone', async () => {
    const user = 'browser-consultant'
    await consultant(user)
    const page = await chrome.browser.newContext().then((context) => context.newPage())
    const { client, pkce } = await toTheChoice(page, 'analytics', user)
    // Each account folds; the first property is ticked, so Allow alone would work.
    expect(await page.locator('details.group').count()).toBe(CLIENTS + 1)
    expect(await page.locator('input[name="resource"]:checked').count()).toBe(1)

    await page.getByLabel('Find a property').fill('client7 shop12')
    await page.getByRole('button', { name: 'Find' }).click()
    await expect.poll(() => page.locator('input[name="resource"]').count(), BROWSER_WAIT).toBe(1)
    expect(await page.getByText('1 of 202 properties match').isVisible()).toBe(true)
    await page.getByRole('checkbox', { name: /shop12\.client7\.example/ }).check()
    const landed = receiver.next()
    await page.getByRole('button', { name: 'Allow' }).click()
    const code = (await landed).searchParams.get('code')!
    const tokens = await suite.exchangeCode(client, code, pkce)
    expect(tokens.status).toBe(200)

    const { client: mcp } = await mcpClientWithToken(
      suite.resource('analytics'),
      tokens.body.access_token,
      '2026-07-28',
    )
    // The tools name the one property ticked, by name and account.
    const { tools } = await mcp.listTools()
    const report = tools.find((tool) => tool.name === 'run_report')!
    expect((report.inputSchema.properties!.propertiesId as any).oneOf).toEqual([
      { const: expect.stringMatching(/^[0-9]+$/), title: 'shop12.client7.example (Client 7 Ltd)' },
    ])
    await mcp.close()
    await page.context().close()
  }, 120_000)

  it('every page of the choice: no sideways scrolling at 360 px, no serious or critical axe violation, light and dark', async () => {
    const user = 'browser-chooser-axe'
    await consultant(user)
    const problems: string[] = []
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await chrome.browser.newContext({ colorScheme })
      const page = await context.newPage()
      const check = (name: string) => checkPage(page, `${name}-${colorScheme}`, problems)
      await toTheChoice(page, 'tasks', user)
      await check('choice-lists')
      await toTheChoice(page, 'analytics', user)
      await check('choice-properties')
      await page.getByLabel('Find a property').fill('client3')
      await page.getByRole('button', { name: 'Find' }).click()
      await page.waitForURL(/q=client3/)
      await check('choice-properties-found')
      await page.locator('input[name="resource"]').first().check()
      const landed = receiver.next()
      await page.getByRole('button', { name: 'Allow' }).click()
      await landed
      await page.goto(`${suite.url}/connections`)
      await page.getByRole('button', { name: /^Sign in with/ }).click()
      await page.waitForURL(`${suite.providerPage}**`)
      await page.locator('input[name="user"]').fill(user)
      await page.getByRole('button', { name: 'Allow' }).click()
      await page.waitForURL(`${suite.url}/connections`)
      await check('connections-coverage')
      await page.getByRole('link', { name: 'Change what it may use' }).first().click()
      await check('coverage-change')
      await context.close()
    }
    expect(problems).toEqual([])
  }, 180_000)
})
