import type { CallToolResult } from '@modelcontextprotocol/client'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { checkPage, chromiumForSuite, realBrowserAvailable } from '../support/browser.js'
import {
  approvalFlow,
  approvalLink,
  connectorForSuite,
  mcpClientWithToken,
  taskFixtures,
  textOf,
} from '@countersign/connector/testing'

/**
 * The person's pages in a real browser (docs/design.md, "The person's pages"), Debian's Chromium
 * driven by playwright-core: five changes asked by two assistants approved in one visit, each then
 * made once; and every page of the family (consent, approval, approvals, activity, connections, the
 * front page, the sign-in and error pages, an app that cannot be reached) in light and dark, at 360 px and 1280 px, with no sideways scrolling and
 * no serious or critical axe-core violation. Screenshots are kept in .tmp/screenshots, for people
 * to look at (never compared pixel by pixel).
 */
const browserAvailable = realBrowserAvailable('the real-browser tests of the approval pages')

const suite = connectorForSuite()
const flow = approvalFlow(suite)
const { seed, upstreamCalls, auditOf, deleteStatus } = taskFixtures(suite)

/** An MCP client that cannot ask the person (2025-11-25): every change arrives as a link. */
async function assistant(token: string) {
  const { client } = await mcpClientWithToken(suite.resource('tasks'), token, '2025-11-25')
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult
  return { client, call }
}

/** Signs in through the provider from a page with a Sign in button, as `user`. */
async function signIn(page: Page, user: string) {
  const back = page.url()
  await page.getByRole('button', { name: /^Sign in with/ }).click()
  await page.waitForURL(`${suite.providerPage}**`)
  await page.locator('input[name="user"]').fill(user)
  await page.getByRole('button', { name: 'Allow' }).click()
  await page.waitForURL(back)
}

describe.skipIf(!browserAvailable)('the person’s pages in a real browser (Chromium)', () => {
  const chrome = chromiumForSuite()

  it('five changes from two assistants, approved in one visit; each is then made once', async () => {
    const user = 'browser-five'
    const person = suite.person(user)
    const first = await flow.connected(user, 'Helpful Assistant', person)
    const second = await flow.connected(user, 'Planning Assistant', person)
    const { tasklist, ids } = await seed(user, 3)
    const a = await assistant(first.tokens.access_token)
    const b = await assistant(second.tokens.access_token)
    const calls: [typeof a, string, Record<string, unknown>][] = [
      [a, 'create_task', { tasklist, title: 'Buy oat milk' }],
      [a, 'create_task', { tasklist, title: 'Eggs' }],
      [b, 'update_task', { tasklist, task: ids[0], title: 'Task one, renamed' }],
      [b, 'move_task', { tasklist, task: ids[2], parent: ids[1] }],
      [b, 'delete_task', { tasklist, task: ids[1] }],
    ]
    const links: string[] = []
    for (const [who, name, args] of calls) links.push(approvalLink(await who.call(name, args)))

    // One visit: the first link, a sign-in, Approve all, then the deletion's own Approve.
    const context = await chrome.browser.newContext()
    const page = await context.newPage()
    await page.goto(links[0]!)
    await signIn(page, user)
    const shown = await page.locator('main').innerText()
    expect(shown).toContain('Also waiting for your approval (4)')
    for (const words of [
      'Buy oat milk',
      'Eggs',
      'Task one, renamed',
      'Delete task',
      'Planning Assistant',
    ])
      expect(shown).toContain(words)
    await page.getByRole('button', { name: 'Approve all' }).click()
    await page.getByText('Approved 4 changes: go back to your assistant').waitFor()
    // What is left is the deletion, with its own Approve.
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(1)
    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await page.getByText('Approved: go back to your assistant and ask it to try again.').waitFor()
    expect(await page.locator('main').innerText()).toContain('Nothing is waiting for your approval')
    await context.close()

    // Each assistant calls again: each change is made once, and once only.
    const { next } = await upstreamCalls()
    for (const [who, name, args] of calls) {
      const result = await who.call(name, args)
      expect(result.isError ?? false, textOf(result)).toBe(false)
    }
    for (const [who, name, args] of calls) expect((await who.call(name, args)).isError).toBe(true)
    const writes = (await upstreamCalls(next)).writes.map((w) => `${w.method} ${w.status}`)
    expect(writes.sort()).toEqual(
      ['POST 200', 'POST 200', 'PATCH 200', 'POST 200', `DELETE ${deleteStatus}`].sort(),
    )
    const audit = [...(await auditOf(first.grantId)), ...(await auditOf(second.grantId))]
    expect(audit.filter((e) => e.startsWith('approved'))).toHaveLength(5)
    expect(audit.filter((e) => e.startsWith('executed'))).toHaveLength(5)
    await Promise.all([a.client.close(), b.client.close()])
  }, 120_000)

  it('every page of the family: no sideways scrolling at 360 px, no serious or critical axe violation, light and dark', async () => {
    const user = 'browser-axe'
    const person = suite.person(user)
    const { tokens, grantId } = await flow.connected(user, 'Helpful Assistant', person)
    const { tasklist, ids } = await seed(user, 2)
    const a = await assistant(tokens.access_token)
    const add = approvalLink(await a.call('create_task', { tasklist, title: 'Buy oat milk' }))
    await a.call('update_task', { tasklist, task: ids[0], title: 'Renamed', status: 'completed' })
    const deletion = approvalLink(await a.call('delete_task', { tasklist, task: ids[1] }))
    // Something to show on the activity page.
    const declined = await flow.approvals.request(flow.deleteCall(grantId))
    await flow.onThePage(person, declined.url, 'Decline')
    // A consent page: an authorization begun in the browser, which stops there.
    const consentClient = await suite.registerClient({ client_name: 'Helpful Assistant' })
    const unreachableApp = {
      client_id: 'https://127.0.0.1:1/client.json',
      redirect_uri: 'http://127.0.0.1:45123/callback',
      registration: {},
    }

    const problems: string[] = []
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await chrome.browser.newContext({ colorScheme })
      const page = await context.newPage()
      const check = (name: string) => checkPage(page, `${name}-${colorScheme}`, problems)
      await page.goto(suite.authorizationUrl(consentClient, 'tasks', suite.pkce()).toString())
      await page.waitForURL(/\/consent\//)
      await check('consent')
      await page.goto(add)
      await check('sign-in')
      await signIn(page, user)
      await check('approval')
      await page.goto(deletion)
      await check('deletion')
      await page.goto(`${suite.url}/approvals`)
      await check('approvals')
      await page.goto(`${suite.url}/activity`)
      await check('activity')
      await page.goto(`${suite.url}/connections`)
      await check('connections')
      await page.goto(`${suite.url}/approvals/not-a-change`)
      await check('error')
      await page.goto(`${suite.url}/`)
      await check('home')
      // An app whose sign-in document cannot be fetched (nothing listens at port 1).
      await page.goto(suite.authorizationUrl(unreachableApp, 'tasks', suite.pkce()).toString())
      await check('app-unreachable')
      await context.close()
    }
    expect(problems).toEqual([])
    await a.client.close()
  }, 180_000)
})
