import { describe, expect, it } from 'vitest'
import { BROWSER_WAIT, chromiumForSuite, realBrowserAvailable } from '../support/browser.js'
import { newUser, sandboxForSuite } from '@countersign/sandbox/testing'

/** Debian's Chromium, driven by playwright-core: what a person's browser does with the web view. */
const browserAvailable = realBrowserAvailable("the real-browser test of the sandbox's web view")

const sandbox = sandboxForSuite()

describe.skipIf(!browserAvailable)('the web view in a real browser (Chromium)', () => {
  const chrome = chromiumForSuite()

  it('opens a webViewLink, signs in through the form, and shows the task highlighted and a completed one struck through', async () => {
    const user = await newUser(sandbox)
    const target = await user.createTask({ title: 'Water the plants' })
    const finished = await user.createTask({ title: 'Buy soil' }, { previous: target.id })
    await user.patch(finished.id, { status: 'completed' })

    const page = await chrome.browser.newPage()

    await page.goto(target.webViewLink)
    await page.locator('input[name="user"]').pressSequentially(user.name)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(target.webViewLink)

    await expect
      .poll(() => page.textContent('body'), BROWSER_WAIT)
      .toContain(`Signed in as ${user.name}`)
    const highlighted = page.locator(`#task-${target.id}`)
    expect(await highlighted.getAttribute('class')).toContain('target')
    expect(await highlighted.locator('.title').textContent()).toBe('Water the plants')

    const struck = page.locator(`#task-${finished.id} .title`)
    expect(await struck.textContent()).toBe('Buy soil')
    const decoration = await struck.evaluate((el) => getComputedStyle(el).textDecorationLine)
    expect(decoration).toContain('line-through')
    const open = await highlighted
      .locator('.title')
      .evaluate((el) => getComputedStyle(el).textDecorationLine)
    expect(open).not.toContain('line-through')
  }, 90_000)
})
