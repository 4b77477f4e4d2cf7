import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { build } from 'esbuild'
import type { Frame, Page } from 'playwright-core'

/**
 * Opens a view of MCP Apps in Chromium inside the test host (view-host-page.ts): the host page's
 * script bundled with esbuild once per test file, the view as the connector serves it, its
 * arguments and result as a tool call returned them.
 */

let hostScript: Promise<string> | undefined

function hostPage(): Promise<string> {
  hostScript ??= build({
    entryPoints: [new URL('view-host-page.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  }).then(
    (out) =>
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title>' +
      '<style>body{margin:0;padding:8px}iframe{display:block;width:100%;height:60px;border:0}</style>' +
      '</head><body><iframe id="view" title="View" sandbox="allow-scripts"></iframe>' +
      `<script>${out.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
  )
  return hostScript
}

export interface OpenedView {
  frame: Frame
  /** What the console and the page said that was an error, from the host and the view. */
  errors: string[]
}

export async function openView(
  page: Page,
  view: {
    html: string
    input: Record<string, unknown>
    result: CallToolResult
    context?: McpUiHostContext
  },
): Promise<OpenedView> {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.setContent(await hostPage())
  const shown = JSON.stringify({
    html: view.html,
    input: view.input,
    result: view.result,
    context: view.context ?? { theme: 'light', locale: 'en-GB' },
  })
  await page.evaluate((json) => window.showView(JSON.parse(json)), shown)
  const frame = page.frames().find((f) => f !== page.mainFrame())!
  return { frame, errors }
}
