import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chromiumForSuite, realBrowserAvailable } from '../support/browser.js'
import { approvalFlow, connectorForSuite } from '@countersign/connector/testing'

/**
 * The approval page in a real browser: Debian's Chromium, driven by playwright-core, opens the
 * link an assistant gave, signs in through the sandbox provider, reads the change and approves it
 * with the page's own form (no JavaScript involved); the call then goes through.
 */
const browserAvailable = realBrowserAvailable('the real-browser test of the approval page')

const suite = connectorForSuite()
const flow = approvalFlow(suite)

describe.skipIf(!browserAvailable)('the approval page in a real browser (Chromium)', () => {
  const chrome = chromiumForSuite()

  const bodyText = (page: Page) => page.locator('body').innerText()

  it('open the link, sign in through the provider, see the change, Approve: confirmed, and the call goes through once', async () => {
    const { grantId } = await flow.connected('browser-approver', 'Browser Assistant')
    const call = flow.deleteCall(grantId, {
      description: {
        summary: 'Delete task "<b>Buy milk</b>" from list "Groceries"?',
        details: [
          { label: 'Task', value: '"<b>Buy milk</b>"' },
          { label: 'List', value: '"Groceries"' },
        ],
        ifMatch: '"etag-browser"',
      },
    })
    const { url } = await flow.approvals.request(call)

    const page = await chrome.browser.newContext().then((context) => context.newPage())
    await page.goto(url)
    expect(await bodyText(page)).not.toContain('Buy milk')
    await page.getByRole('button', { name: /^Sign in with/ }).click()
    await page.waitForURL(`${suite.providerPage}**`)
    await page.locator('input[name="user"]').fill('browser-approver')
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(url)

    const shown = await bodyText(page)
    expect(shown).toContain('Delete task "<b>Buy milk</b>" from list "Groceries"?')
    expect(shown).toContain('Browser Assistant')
    expect(shown).toContain('Tasks')
    expect(shown).toContain('expires at')
    expect(await page.locator('b').count(), 'titles are text, not markup').toBe(0)

    await page.getByRole('button', { name: 'Approve' }).click()
    await page.getByText('Approved: go back to your assistant and ask it to try again.').waitFor()

    expect(await flow.approvals.consume(call)).toMatchObject({
      ok: true,
      ifMatch: '"etag-browser"',
    })
    expect(await flow.approvals.consume(call)).toEqual({ ok: false, reason: 'used' })
    await page.context().close()
  }, 60_000)

  it('cannot be shown in a frame of another page', async () => {
    const { grantId } = await flow.connected('browser-framed')
    const { url } = await flow.approvals.request(flow.deleteCall(grantId))
    const page = await chrome.browser.newContext().then((context) => context.newPage())
    const blocked = new Promise<boolean>((resolve) => {
      page.on('response', (res) => {
        if (res.url() === url) resolve(res.headers()['x-frame-options'] === 'DENY')
      })
    })
    await page.setContent(`<iframe src="${url}"></iframe>`)
    expect(await blocked).toBe(true)
    const frame = page.frames().find((f) => f !== page.mainFrame())
    // Once the frame has loaded, what it shows is there to read: Chromium's refusal, not the page.
    await frame?.waitForLoadState('load')
    const framedText = await frame?.evaluate(() => document.body?.innerText ?? '').catch(() => '')
    expect(framedText ?? '').not.toContain('Sign in with')
    await page.context().close()
  }, 60_000)
})
