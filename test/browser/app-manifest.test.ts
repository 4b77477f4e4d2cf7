import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS, realBrowserAvailable } from '../support/browser.js'
import { connectorForSuite } from '@countersign/connector/testing'

/**
 * The person's pages as an app a phone installs (packages/connector/src/pages/app-manifest.ts):
 * Chromium, reading the page as a browser offering "Install" does, finds the manifest, takes it
 * without an error, and finds nothing that keeps the app from being installed; every icon it and
 * the page name is served, a PNG of its declared size.
 */
const browserAvailable = realBrowserAvailable('the installable pages')

const suite = connectorForSuite()

/** A PNG's width and height, from its header. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
}

describe.skipIf(!browserAvailable)('the pages as an installable app (Chromium)', () => {
  it('the manifest opens on the waiting changes; Chromium finds nothing against installing it', async () => {
    // A profile of its own: Chromium installs nothing from an incognito window, which is what
    // a browser without one is.
    const profile = await mkdtemp(join(tmpdir(), 'countersign-install-'))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    })
    const page = await context.newPage()
    try {
      // The front page, and the approvals page a person is sent to, both name the manifest.
      for (const path of ['/', '/approvals']) {
        await page.goto(suite.url + path)
        expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe(
          '/manifest.webmanifest',
        )
      }
      const cdp = await page.context().newCDPSession(page)
      const { url, errors, data } = await cdp.send('Page.getAppManifest', {})
      expect(url).toBe(`${suite.url}/manifest.webmanifest`)
      expect(errors).toEqual([])
      expect(JSON.parse(data!)).toMatchObject({ name: 'Countersign', start_url: '/approvals' })
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      expect(installabilityErrors).toEqual([])

      const served = (await (await fetch(`${suite.url}/manifest.webmanifest`)).json()) as {
        start_url: string
        display: string
        icons: { src: string; sizes: string; type: string; purpose?: string }[]
      }
      expect(served).toMatchObject({ start_url: '/approvals', display: 'standalone' })
      expect(served.icons.some((icon) => icon.purpose === 'maskable')).toBe(true)
      const named = [
        ...served.icons,
        {
          src: (await page.locator('link[rel="apple-touch-icon"]').getAttribute('href'))!,
          sizes: '180x180',
          type: 'image/png',
        },
      ]
      for (const icon of named) {
        const res = await fetch(suite.url + icon.src)
        expect(res.status, icon.src).toBe(200)
        expect(res.headers.get('content-type'), icon.src).toBe(icon.type)
        const bytes = Buffer.from(await res.arrayBuffer())
        if (icon.type === 'image/png') expect(pngSize(bytes).join('x'), icon.src).toBe(icon.sizes)
        else expect(bytes.toString('utf8')).toMatch(/^<svg /)
      }
      expect((await fetch(`${suite.url}/icons/other.png`)).status).toBe(404)
    } finally {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    }
  })
})
