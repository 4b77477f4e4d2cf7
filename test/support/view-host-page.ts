import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps'
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { CallToolResult } from '@modelcontextprotocol/client'

/**
 * A test host of MCP Apps in the page (bundled by view-host.ts): the extension's own AppBridge
 * over postMessage with a view in a sandboxed iframe, as Claude or VS Code embed one. The view
 * gets its arguments and result once it has initialized; the height it reports sizes the
 * iframe.
 */

export interface ShowView {
  html: string
  context: McpUiHostContext
  input: Record<string, unknown>
  result: CallToolResult
}

export interface HostRecord {
  /** Each height the view reported, in order. */
  heights: number[]
}

declare global {
  interface Window {
    showView(view: ShowView): Promise<void>
    setTheme(theme: 'light' | 'dark'): void
    host: HostRecord
  }
}

let bridge: AppBridge | undefined

window.host = { heights: [] }

window.showView = async ({ html, context, input, result }) => {
  const iframe = document.getElementById('view') as HTMLIFrameElement
  bridge = new AppBridge(
    null,
    { name: 'countersign-test-host', version: '1' },
    {},
    { hostContext: context },
  )
  bridge.onsizechange = ({ height }) => {
    if (height === undefined) return
    window.host.heights.push(height)
    iframe.style.height = `${height}px`
  }
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve()
  })
  // The transport listens before the document loads, so the view's first message is heard.
  // (The iframe's WindowProxy stays the same across its navigation to the view.)
  const view = iframe.contentWindow!
  await bridge.connect(new PostMessageTransport(view, view))
  iframe.srcdoc = html
  await initialized
  await bridge.sendToolInput({ arguments: input })
  await bridge.sendToolResult(result)
}

window.setTheme = (theme) => bridge?.setHostContext({ theme })
