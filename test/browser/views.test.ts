import { mkdirSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { isoDay, pacificNow } from '@countersign/sandbox/testing'
import type { Browser, Frame } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BROWSER_WAIT,
  chromiumForSuite,
  realBrowserAvailable,
  SCREENSHOTS,
} from '../support/browser.js'
import { openView } from '../support/view-host.js'
import { connectorForSuite, serviceTools } from '@countersign/connector/testing'

/**
 * The views of MCP Apps (docs/design.md, "Views in the conversation") in Debian's Chromium, each
 * inside a sandboxed iframe of a test host that speaks the extension's postMessage protocol through
 * the extension's own AppBridge (test/support/view-host-page.ts), fed what the real connector
 * returned from the sandbox: the lines and bars drawn (read from the canvas's pixels), the rows
 * shown, the totals right, the controls usable with a keyboard, the host's theme followed, an error
 * result shown as its message; and every view within 500 px, without sideways scrolling at 360 px,
 * with no console error and no serious or critical axe-core violation, light and dark. Screenshots
 * are kept in .tmp/screenshots for people to look at (never compared pixel by pixel).
 */
const browserAvailable = realBrowserAvailable('the real-browser tests of the views')

const suite = connectorForSuite()
const search = serviceTools(suite, 'search', 'viewer')
const analytics = serviceTools(suite, 'analytics', 'viewer-ga')

const LOCALE = 'en-GB'

interface Shown {
  name: string
  html: string
  input: Record<string, unknown>
  result: CallToolResult
  table: Table
}

interface Table {
  dimensions: string[]
  metrics: { name: string; type: string }[]
  rows: (string | number | null)[][]
  pageOrigin?: string
  totals?: (string | number | null)[][]
  reports?: Table[]
}

/** A service's person and client, its views as the connector serves them, and a call to show. */
async function viewer(service: 'search' | 'analytics') {
  const tools = service === 'search' ? search : analytics
  const connected = await tools.newPerson('2026-07-28')
  const { tools: listed } = await connected.client.listTools()
  const documents = new Map<string, string>()
  const show = async (name: string, tool: string, input: Record<string, unknown>) => {
    const uri = (listed.find((t) => t.name === tool)!._meta!.ui as { resourceUri: string })
      .resourceUri
    if (!documents.has(uri)) {
      const { contents } = await connected.client.readResource({ uri })
      documents.set(uri, (contents[0] as { text: string }).text)
    }
    const result = await connected.call(tool, input)
    return {
      name,
      html: documents.get(uri)!,
      input,
      result,
      table: result.structuredContent as unknown as Table,
    }
  }
  return { ...connected, show }
}

/** The views' one kind of each drawing, from real calls; filled before the tests. */
const shown: Record<string, Shown> = {}

const nf = new Intl.NumberFormat(LOCALE)
const dayMonth = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
})

describe.skipIf(!browserAvailable)('the views in a real browser (Chromium)', () => {
  const chrome = chromiumForSuite()

  beforeAll(async () => {
    const s = await viewer('search')
    const site = `sc-domain:${s.person.user}.example`
    const today = pacificNow().day
    const span = { siteUrl: site, startDate: isoDay(today - 30), endDate: isoDay(today - 3) }
    const a = await viewer('analytics')
    const assets = await suite.sandboxRequest('GET', `/_sandbox/users/${a.person.user}`)
    const propertiesId = (assets.body.properties as string[])[0]!
    const month = [{ startDate: '28daysAgo', endDate: 'yesterday' }]
    const all = [
      await s.show('search-by-date', 'query_search_analytics', { ...span, dimensions: ['date'] }),
      await s.show('search-by-query-and-page', 'query_search_analytics', {
        ...span,
        dimensions: ['query', 'page'],
        rowLimit: 25,
      }),
      await s.show('search-totals', 'query_search_analytics', span),
      await s.show('search-error', 'query_search_analytics', {
        ...span,
        siteUrl: 'sc-domain:not-theirs.example',
      }),
      await a.show('report-by-date', 'run_report', {
        propertiesId,
        dateRanges: month,
        dimensions: [{ name: 'date' }],
        metrics: [{ name: 'activeUsers' }, { name: 'sessions' }, { name: 'engagementRate' }],
        metricAggregations: ['TOTAL'],
      }),
      await a.show('report-by-date-and-source', 'run_report', {
        propertiesId,
        dateRanges: month,
        dimensions: [{ name: 'date' }, { name: 'sessionSource' }],
        metrics: [{ name: 'sessions' }, { name: 'averageSessionDuration' }],
        limit: 1000,
      }),
      await a.show('reports', 'run_reports', {
        propertiesId,
        requests: [
          {
            dateRanges: month,
            dimensions: [{ name: 'country' }],
            metrics: [{ name: 'activeUsers' }],
          },
          {
            dateRanges: month,
            dimensions: [{ name: 'sessionDefaultChannelGroup' }],
            metrics: [{ name: 'sessions' }, { name: 'engagementRate' }],
          },
        ],
      }),
      await a.show('realtime-by-minute', 'run_realtime_report', {
        propertiesId,
        dimensions: [{ name: 'minutesAgo' }],
        metrics: [{ name: 'activeUsers' }],
      }),
      await a.show('realtime-by-country', 'run_realtime_report', {
        propertiesId,
        dimensions: [{ name: 'country' }],
        metrics: [{ name: 'activeUsers' }],
        metricAggregations: ['TOTAL'],
      }),
    ]
    for (const one of all) shown[one.name] = one
    await Promise.all([s.client.close(), a.client.close()])
  }, 60_000)

  /** A view in a new page of the test host, drawn; its frame and what went wrong in it. */
  async function open(
    browser: Browser,
    one: Shown,
    options: { theme?: 'light' | 'dark'; width?: number } = {},
  ) {
    const theme = options.theme ?? 'light'
    const context = await browser.newContext({
      viewport: { width: options.width ?? 720, height: 900 },
      colorScheme: theme,
    })
    const page = await context.newPage()
    const { frame, errors } = await openView(page, {
      html: one.html,
      input: one.input,
      result: one.result,
      context: { theme, locale: LOCALE },
    })
    await frame.waitForSelector('main.view > :not(.notice)')
    return { page, frame, errors, close: () => context.close() }
  }

  it('search performance by date: the totals, a line for clicks and one for impressions, the toggles and keys, the rows as a table', async () => {
    const one = shown['search-by-date']!
    // The provider ranks the days by clicks; the view draws them in time.
    const rows = one.table.rows.toSorted((x, y) => String(x[0]).localeCompare(String(y[0])))
    const { frame, errors, close } = await open(chrome.browser, one)
    const sum = (i: number) => rows.reduce((total, row) => total + (row[1 + i] as number), 0)
    const tiles = await frame.locator('.tile').allInnerTexts()
    expect(tiles.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      `Total clicks ${nf.format(sum(0))}`,
      `Total impressions ${nf.format(sum(1))}`,
      expect.stringMatching(/^Average CTR \d+(\.\d)?%$/),
      expect.stringMatching(/^Average position \d+(\.\d)?$/),
    ])
    expect(await pixels(frame, 1)).toBeGreaterThan(100)
    expect(await pixels(frame, 2)).toBeGreaterThan(100)
    expect(await pixels(frame, 3)).toBe(0)

    // Clicks off, from the keyboard: its line goes, impressions stay.
    await frame.getByRole('button', { name: /^Total clicks/ }).focus()
    await frame.page().keyboard.press('Enter')
    await expect
      .poll(
        () => frame.getByRole('button', { name: /^Total clicks/ }).getAttribute('aria-pressed'),
        BROWSER_WAIT,
      )
      .toBe('false')
    expect(await pixels(frame, 1)).toBe(0)
    expect(await pixels(frame, 2)).toBeGreaterThan(100)

    // The arrow keys read each day.
    await frame.locator('.plot').focus()
    await frame.page().keyboard.press('End')
    const last = rows.at(-1)!
    const lastDay = dayMonth.format(new Date(`${last[0]}T00:00:00Z`))
    await expect
      .poll(() => frame.locator('.readout').innerText(), BROWSER_WAIT)
      .toBe(`${lastDay}: Impressions ${nf.format(last[2] as number)}`)
    await frame.page().keyboard.press('Home')
    const firstDay = dayMonth.format(new Date(`${rows[0]![0]}T00:00:00Z`))
    await expect
      .poll(() => frame.locator('.readout').innerText(), BROWSER_WAIT)
      .toMatch(`${firstDay}: `)

    await frame.getByRole('button', { name: 'Table' }).click()
    expect(await frame.locator('tbody tr').count()).toBe(rows.length)
    expect(await frame.locator('tbody tr').first().locator('td').first().innerText()).toBe(
      new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' })
        .format(new Date(`${rows[0]![0]}T00:00:00Z`))
        .replace(/,/g, ''),
    )
    expect(errors).toEqual([])
    await close()
  })

  it('search performance by query and page: every row in the provider’s order, each text in full, the pages on their origin', async () => {
    const one = shown['search-by-query-and-page']!
    const { rows, pageOrigin } = one.table
    expect(pageOrigin).toBeDefined()
    const { frame, errors, close } = await open(chrome.browser, one)
    expect(await frame.locator('th').allInnerTexts()).toEqual([
      'Query',
      `Page (on ${pageOrigin})`,
      'Clicks',
      'Impressions',
      'CTR',
      'Position',
    ])
    const cells = frame.locator('tbody tr')
    expect(await cells.count()).toBe(rows.length)
    for (const i of [0, rows.length - 1]) {
      const row = rows[i]!
      expect(await cells.nth(i).locator('td').allInnerTexts()).toEqual([
        row[0],
        row[1],
        nf.format(row[2] as number),
        nf.format(row[3] as number),
        expect.stringMatching(/%$/),
        String(Math.round((row[5] as number) * 10) / 10),
      ])
    }
    expect(await frame.locator('.notes').innerText()).toContain('The first 25 rows')
    expect(errors).toEqual([])
    await close()
  })

  it('reports: by date a line for each metric with the totals; by date and source the largest sources; several, one after the other', async () => {
    const byDate = shown['report-by-date']!
    const opened = await open(chrome.browser, byDate)
    const totals = byDate.table.totals![0]!
    expect(await opened.frame.locator('h1').innerText()).toBe(
      'Active users, sessions and engagement rate by date',
    )
    expect(
      (await opened.frame.locator('.tile').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ')),
    ).toEqual([
      `Active users ${nf.format(totals[1] as number)}`,
      `Sessions ${nf.format(totals[2] as number)}`,
      expect.stringMatching(/^Engagement rate \d+(\.\d)?%$/),
    ])
    expect(await pixels(opened.frame, 1)).toBeGreaterThan(100)
    expect(await pixels(opened.frame, 2)).toBeGreaterThan(100)
    expect(opened.errors).toEqual([])
    await opened.close()

    const bySource = shown['report-by-date-and-source']!
    const sources = await open(chrome.browser, bySource)
    const sums = new Map<string, number>()
    for (const row of bySource.table.rows)
      sums.set(row[1] as string, (sums.get(row[1] as string) ?? 0) + (row[2] as number))
    const largest = [...sums.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5)
    expect(await sources.frame.locator('.legend li').allInnerTexts()).toEqual(
      largest.map(([name, total]) => `${name} (${nf.format(total)})`),
    )
    for (const color of [1, 2, 3]) expect(await pixels(sources.frame, color)).toBeGreaterThan(50)
    // Another metric, chosen from the keyboard.
    await sources.frame.getByRole('button', { name: 'Average session duration' }).focus()
    await sources.frame.page().keyboard.press('Space')
    await expect
      .poll(
        () =>
          sources.frame
            .getByRole('button', { name: 'Average session duration' })
            .getAttribute('aria-pressed'),
        BROWSER_WAIT,
      )
      .toBe('true')
    await sources.close()

    const several = shown.reports!
    const stacked = await open(chrome.browser, several)
    expect(await stacked.frame.locator('section h1').allInnerTexts()).toEqual([
      'Report 1 of 2: Active users by country',
      'Report 2 of 2: Sessions and engagement rate by session default channel group',
    ])
    const tables = stacked.frame.locator('section table')
    for (const [i, report] of several.table.reports!.entries()) {
      expect(await tables.nth(i).locator('tbody tr').count()).toBe(report.rows.length)
      expect(await tables.nth(i).locator('tbody tr td').first().innerText()).toBe(
        report.rows[0]![0],
      )
    }
    expect(stacked.errors).toEqual([])
    await stacked.close()
  })

  it('realtime: a bar for each of the last 30 minutes; by country, the total now and the rows', async () => {
    const minutes = await open(chrome.browser, shown['realtime-by-minute']!)
    expect(await minutes.frame.locator('h1').innerText()).toBe('Active users by minute')
    expect(await pixels(minutes.frame, 1)).toBeGreaterThan(300)
    await minutes.frame.locator('.plot').focus()
    await minutes.frame.page().keyboard.press('End')
    const now = shown['realtime-by-minute']!.table.rows.find((row) => row[0] === '00')
    await expect
      .poll(() => minutes.frame.locator('.readout').innerText(), BROWSER_WAIT)
      .toBe(`now: Active users ${nf.format((now?.[1] as number) ?? 0)}`)
    await minutes.close()

    const one = shown['realtime-by-country']!
    const countries = await open(chrome.browser, one)
    expect((await countries.frame.locator('.summary').innerText()).replace(/\s+/g, ' ')).toBe(
      `Active users ${nf.format(one.table.totals![0]![1] as number)}`,
    )
    expect(await countries.frame.locator('tbody tr').count()).toBe(one.table.rows.length)
    expect(countries.errors).toEqual([])
    await countries.close()
  })

  it('an error result is shown as its message; no dimensions show the totals alone', async () => {
    const failed = shown['search-error']!
    const { frame, close } = await open(chrome.browser, failed)
    const message = (failed.result.content[0] as { text: string }).text
    expect(failed.result.isError).toBe(true)
    expect((await frame.getByRole('alert').innerText()).split(/\n+/)).toEqual([
      'Nothing to draw: the call failed',
      message,
    ])
    await close()

    const totals = shown['search-totals']!
    const summary = await open(chrome.browser, totals)
    const row = totals.table.rows[0]!
    expect((await summary.frame.locator('.summary').innerText()).replace(/\s+/g, ' ')).toContain(
      `Total clicks ${nf.format(row[0] as number)} Total impressions ${nf.format(row[1] as number)}`,
    )
    await summary.close()
  })

  it('a provider’s text stays text: markup in a query is shown, never run', async () => {
    const one = shown['search-by-query-and-page']!
    const markup = '<img src=x onerror="document.body.dataset.injected=1"><b>bold</b>'
    const table = structuredClone(one.table)
    table.rows[0]![0] = markup
    const { frame, errors, close } = await open(chrome.browser, {
      ...one,
      result: {
        content: [{ type: 'text', text: JSON.stringify(table) }],
        structuredContent: table as unknown as Record<string, unknown>,
      },
    })
    expect(await frame.locator('tbody tr td').first().innerText()).toBe(markup)
    expect(await frame.locator('main img, main b').count()).toBe(0)
    expect(await frame.evaluate(() => document.body.dataset.injected)).toBeUndefined()
    expect(errors).toEqual([])
    await close()
  })

  it('follows the host’s theme as it changes, and reaches no network', async () => {
    const { page, frame, close } = await open(chrome.browser, shown['search-by-date']!)
    const light = await pixels(frame, 1)
    await page.evaluate(() => window.setTheme('dark'))
    await expect
      .poll(() => frame.evaluate(() => document.documentElement.dataset.theme), BROWSER_WAIT)
      .toBe('dark')
    // The lines are drawn again in the dark palette's colours.
    await expect.poll(() => pixels(frame, 1), BROWSER_WAIT).toBeGreaterThan(100)
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(30, 31, 34)',
    )
    expect(light).toBeGreaterThan(100)
    const reached = await frame.evaluate(async (url) => {
      try {
        await fetch(url)
        return 'reached'
      } catch {
        return 'refused'
      }
    }, `${suite.url}/healthz`)
    expect(reached).toBe('refused')
    await close()
  })

  it('every view, at 360 and 1280 px, light and dark: within 500 px, no sideways scrolling, no console error, no serious or critical axe violation', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    const problems: string[] = []
    for (const theme of ['light', 'dark'] as const)
      for (const width of [360, 1280])
        for (const one of Object.values(shown)) {
          const { page, frame, errors, close } = await open(chrome.browser, one, { theme, width })
          const what = `${one.name} ${theme} ${width}`
          await page.waitForFunction(() => window.host.heights.length > 0)
          const heights = await page.evaluate(() => window.host.heights)
          if (Math.max(...heights) > 500) problems.push(`${what}: ${Math.max(...heights)} px high`)
          const sideways = await frame.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          )
          if (sideways > 0) problems.push(`${what}: scrolls sideways by ${sideways} px`)
          problems.push(...errors.map((e) => `${what}: ${e}`))
          await page
            .locator('iframe')
            .screenshot({ path: `${SCREENSHOTS}/view-${one.name}-${theme}-${width}.png` })
          // axe at a phone's width: where text wraps and controls crowd.
          if (width === 360) {
            const results = await new AxeBuilder({ page })
              .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
              .analyze()
            for (const v of results.violations)
              if (v.impact === 'serious' || v.impact === 'critical')
                problems.push(`${what}: ${v.id} (${v.impact}): ${v.help}`)
          }
          await close()
        }
    expect(problems).toEqual([])
  }, 240_000)
})

/**
 * How many pixels of the chart's canvas are in the colour of series `n` (the theme's
 * `--series-n`): a line or bar drawn in it, or none.
 */
function pixels(frame: Frame, n: number): Promise<number> {
  return frame.evaluate((n) => {
    const canvas = document.querySelector('canvas')
    if (!canvas) return 0
    const probe = document.createElement('canvas').getContext('2d')!
    probe.fillStyle = getComputedStyle(document.documentElement).getPropertyValue(`--series-${n}`)
    probe.fillRect(0, 0, 1, 1)
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height)
    let count = 0
    for (let i = 0; i < data.length; i += 4)
      if (
        data[i + 3]! > 200 &&
        Math.abs(data[i]! - r!) < 12 &&
        Math.abs(data[i + 1]! - g!) < 12 &&
        Math.abs(data[i + 2]! - b!) < 12
      )
        count++
    return count
  }, n)
}
