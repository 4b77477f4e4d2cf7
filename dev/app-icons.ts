import { writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { appIconSvg } from '../packages/connector/src/pages/app-icon.js'
import { APP_ICONS } from '../packages/connector/src/pages/app-manifest.js'

/**
 * Renders the home-screen icons (packages/connector/src/pages/app-icon.ts) into
 * `app-icons.generated.ts` with Debian's Chromium: run it after changing the icon, then
 * `npm run build`. `npx tsx dev/app-icons.ts`
 */

const OUT = new URL('../packages/connector/src/pages/app-icons.generated.ts', import.meta.url)

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
})
const lines: string[] = []
try {
  for (const icon of APP_ICONS) {
    if (icon.type !== 'image/png') continue
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } })
    const svg = appIconSvg(icon.shape, icon.size)
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg}</body></html>`,
    )
    const png = await page.screenshot({ omitBackground: true, type: 'png' })
    // As prettier writes it: the key, then the value on a line of its own.
    lines.push(`  '${icon.file}':\n    '${png.toString('base64')}',`)
    await page.close()
  }
} finally {
  await browser.close()
}
writeFileSync(
  OUT,
  `// Rendered by dev/app-icons.ts from app-icon.ts: do not edit.\n` +
    `export const APP_ICON_PNGS: Readonly<Record<string, string>> = {\n${lines.join('\n')}\n}\n`,
)
