import { existsSync, mkdirSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

/** Debian's Chromium, driven by playwright-core: no browser is downloaded (no internet here). */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Whether real-browser tests run here: always on CI, which installs Chromium and must run them;
 * elsewhere only when Chromium is installed, and otherwise skipped with a loud notice.
 */
export function realBrowserAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM) || process.env.CI === 'true'
  if (!available)
    console.warn(
      `\n!!! SKIPPED: ${what} needs ${CHROMIUM} (apt-get install -y chromium). ` +
        'CI installs it and always runs this test. !!!\n',
    )
  return available
}

/** Without the networking switches Chromium reaches for the internet, which is closed here. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/**
 * One headless Chromium for the tests of a describe block: launched before them, closed after.
 * Call it inside the (skippable) describe, so a skipped block launches nothing.
 */
export function chromiumForSuite(): { readonly browser: Browser } {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })
  return {
    get browser() {
      if (!browser) throw new Error('Chromium is not launched yet: use it inside a test')
      return browser
    },
  }
}

/**
 * How long a wait on the browser may last (a poll's option): a page or a worker that fetches from
 * the connector, or follows a key, takes far longer on a loaded machine than a poll's default
 * second, and nothing comes near this.
 */
export const BROWSER_WAIT = { timeout: 20_000 }

/** Where the pages' screenshots are kept, for people to look at (never compared by pixel). */
export const SCREENSHOTS = '.tmp/screenshots'
/** A phone's width and a desktop's. */
export const WIDTHS = [360, 1280] as const

/**
 * The page at each width: kept as a screenshot (`name`-`width`.png); its width never beyond the
 * viewport's; axe-core's WCAG 2.x A and AA rules and best practices, with no serious or critical
 * violation. What is wrong is added to `problems`.
 */
export async function checkPage(page: Page, name: string, problems: string[]) {
  mkdirSync(SCREENSHOTS, { recursive: true })
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: true })
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    if (sideways > 0) problems.push(`${name} at ${width} px scrolls sideways by ${sideways} px`)
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze()
    for (const violation of results.violations)
      if (violation.impact === 'serious' || violation.impact === 'critical')
        problems.push(
          `${name} at ${width} px: ${violation.id} (${violation.impact}): ${violation.help}`,
        )
  }
}
