import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../../support/sandbox.js'
import { newUser } from '../tasks/client.js'

/** Debian's Chromium, driven by playwright-core: what a person's browser does with the web view. */
const CHROMIUM = '/usr/bin/chromium'
const haveChromium = existsSync(CHROMIUM)
const onCi = process.env.CI === 'true'

if (!haveChromium && !onCi)
  console.warn(
    `\n!!! SKIPPED: the real-browser test of the sandbox's web view needs ${CHROMIUM} ` +
      '(apt-get install -y chromium). CI installs it and always runs this test. !!!\n',
  )

const sandbox = sandboxForSuite()

describe.skipIf(!haveChromium && !onCi)('the web view in a real browser (Chromium)', () => {
  let browser: Browser | undefined
  afterAll(async () => {
    await browser?.close()
  })

  it('opens a webViewLink, signs in through the form, and shows the task highlighted and a completed one struck through', async () => {
    const user = await newUser(sandbox)
    const target = await user.createTask({ title: 'Water the plants' })
    const finished = await user.createTask({ title: 'Buy soil' }, { previous: target.id })
    await user.patch(finished.id, { status: 'completed' })

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
    const page = await browser.newPage()

    await page.goto(target.webViewLink)
    await page.locator('input[name="user"]').pressSequentially(user.name)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(target.webViewLink)

    await expect.poll(() => page.textContent('body')).toContain(`Signed in as ${user.name}`)
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
