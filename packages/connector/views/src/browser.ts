import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps'
import { HostConnection, type HostPort, type ViewHandlers } from './host.js'

/**
 * The view in its iframe: messages with `window.parent` only, its height reported to the host
 * as it changes, and the host's theme and style variables applied to the document.
 */

/** The host's window, and nothing else: a message from any other frame is not the host's. */
const parentPort: HostPort = {
  post: (message) => window.parent.postMessage(message, '*'),
  listen(receive) {
    const listener = (event: MessageEvent) => {
      if (event.source === window.parent) receive(event.data)
    }
    window.addEventListener('message', listener)
    return () => window.removeEventListener('message', listener)
  },
}

export async function connectToHost(name: string, handlers: ViewHandlers): Promise<HostConnection> {
  const host = new HostConnection(parentPort, {
    ...handlers,
    context(context) {
      applyContext(context)
      handlers.context?.(context)
    },
  })
  await host.initialize({ name: `countersign-${name}`, version: '1' })
  reportHeight(host)
  return host
}

/** `ui/notifications/size-changed` with the document's height, each time it changes. */
function reportHeight(host: HostConnection): void {
  let last = 0
  let scheduled = false
  const measure = () => {
    scheduled = false
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height)
    if (height === last) return
    last = height
    host.notify('ui/notifications/size-changed', { height })
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    requestAnimationFrame(measure)
  }
  new ResizeObserver(schedule).observe(document.body)
  schedule()
}

/**
 * The host's theme (the system's until the host gives one) and its style variables (`--color-…`,
 * `--font-…`), on the document.
 */
function applyContext(context: McpUiHostContext): void {
  const root = document.documentElement
  const theme =
    context.theme === 'light' || context.theme === 'dark' ? context.theme : systemTheme()
  root.dataset.theme = theme
  for (const [name, value] of Object.entries(context.styles?.variables ?? {}))
    if (name.startsWith('--') && typeof value === 'string') root.style.setProperty(name, value)
}

const systemTheme = () => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
