import type {
  McpUiHostContext,
  McpUiInitializeRequest,
  McpUiInitializeResult,
} from '@modelcontextprotocol/ext-apps'
import type { CallToolResult } from '@modelcontextprotocol/server'

/**
 * The view's side of MCP Apps (SEP-1865, protocol 2026-01-26): JSON-RPC 2.0 with its host. It
 * sends `ui/initialize` and `ui/notifications/initialized`, then hears the tool's arguments, its
 * result, its cancellation and changes of the host's context, and answers `ping` and
 * `ui/resource-teardown`. It asks the host for nothing else: a view calls no tool and sends
 * nothing anywhere but to its host (docs/design.md, "Views in the conversation").
 *
 * The SDK's `App` does this and more, and weighs about 650 KB minified with the MCP client and
 * zod it brings; this is a few hundred bytes (docs/decisions.md, "Views in the conversation").
 * The real `AppBridge` is its counterpart in the tests.
 */

export const PROTOCOL_VERSION = '2026-01-26'

/** A way to exchange JSON-RPC messages with the host: `window.parent` in a browser. */
export interface HostPort {
  post(message: object): void
  /** Calls `receive` with each message from the host; returns how to stop. */
  listen(receive: (message: unknown) => void): () => void
}

export interface ViewHandlers {
  /** The host's context: at initialization, then each change (merged). */
  context?(context: McpUiHostContext): void
  input?(args: Record<string, unknown>): void
  result?(result: CallToolResult): void
  cancelled?(reason: string | undefined): void
}

interface Message {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  params?: unknown
  result?: unknown
  error?: { message?: unknown }
}

const INITIALIZE: McpUiInitializeRequest['method'] = 'ui/initialize'

export class HostConnection {
  #context: McpUiHostContext = {}
  #nextId = 1
  readonly #pending = new Map<unknown, { resolve(v: unknown): void; reject(e: Error): void }>()
  readonly #stop: () => void

  constructor(
    private readonly port: HostPort,
    private readonly handlers: ViewHandlers,
  ) {
    this.#stop = port.listen((message) => this.#receive(message))
  }

  get context(): McpUiHostContext {
    return this.#context
  }

  /** The handshake: the host's answer, then `initialized`, after which it sends the tool's data. */
  async initialize(appInfo: { name: string; version: string }): Promise<McpUiInitializeResult> {
    const params: McpUiInitializeRequest['params'] = {
      appInfo,
      appCapabilities: {},
      protocolVersion: PROTOCOL_VERSION,
    }
    const result = (await this.#request(INITIALIZE, params)) as McpUiInitializeResult
    this.#merge(result.hostContext ?? {})
    this.notify('ui/notifications/initialized', {})
    return result
  }

  notify(method: string, params: object): void {
    this.port.post({ jsonrpc: '2.0', method, params })
  }

  close(): void {
    this.#stop()
    for (const pending of this.#pending.values()) pending.reject(new Error('The view was closed.'))
    this.#pending.clear()
  }

  #request(method: string, params: object): Promise<unknown> {
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      this.port.post({ jsonrpc: '2.0', id, method, params })
    })
  }

  #receive(data: unknown): void {
    if (typeof data !== 'object' || data === null) return
    const message = data as Message
    if (message.jsonrpc !== '2.0') return
    if (message.method === undefined) return this.#answered(message)
    const params = (message.params ?? {}) as Record<string, unknown>
    if (message.id !== undefined) return this.#answer(message.id, String(message.method))
    switch (message.method) {
      case 'ui/notifications/tool-input':
        return this.handlers.input?.((params.arguments ?? {}) as Record<string, unknown>)
      case 'ui/notifications/tool-result':
        return this.handlers.result?.(params as CallToolResult)
      case 'ui/notifications/tool-cancelled':
        return this.handlers.cancelled?.(
          typeof params.reason === 'string' ? params.reason : undefined,
        )
      case 'ui/notifications/host-context-changed':
        return this.#merge(params as McpUiHostContext)
    }
  }

  #answered(message: Message): void {
    const pending = this.#pending.get(message.id)
    if (!pending) return
    this.#pending.delete(message.id)
    if (message.error) pending.reject(new Error(String(message.error.message ?? 'refused')))
    else pending.resolve(message.result)
  }

  /** A request from the host: teardown and ping are answered; the view offers nothing else. */
  #answer(id: unknown, method: string): void {
    if (method === 'ping' || method === 'ui/resource-teardown')
      return this.port.post({ jsonrpc: '2.0', id, result: {} })
    this.port.post({
      jsonrpc: '2.0',
      id,
      error: { code: -32601, message: `The view does not handle ${method.slice(0, 100)}.` },
    })
  }

  #merge(change: McpUiHostContext): void {
    this.#context = { ...this.#context, ...change }
    this.handlers.context?.(this.#context)
  }
}
