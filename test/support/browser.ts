import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
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
      // Without the networking switches Chromium reaches for the internet, which is closed here.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
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
