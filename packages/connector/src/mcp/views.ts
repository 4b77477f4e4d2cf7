import { readFileSync } from 'node:fs'
import type { McpUiResourceMeta, McpUiToolMeta } from '@modelcontextprotocol/ext-apps'
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import {
  ResourceNotFoundError,
  type ListResourcesResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/server'
import type { ToolDefinition } from '../services/definition.js'
import { VIEWS, viewUri, type ViewName } from '../services/views.js'

/**
 * The views of MCP Apps (docs/design.md, "Views in the conversation") as one service's endpoint
 * serves them: each a resource (`resources/list`, `resources/read`) whose one document is the view
 * built by `npm run build` into `dist/views/`, read once at startup. The ext-apps server helpers
 * wrap McpServer's `registerTool` and `registerResource`, which the lean per-request Server does
 * not use (handler.ts): the `_meta` here is what they write, from the library's own constants.
 */

/** Where `npm run build` writes the views: `dist/views/` of this package, from src/ or dist/. */
const BUILT = new URL('../../dist/views/', import.meta.url)

/** A listed tool's `_meta` for its view: `ui.resourceUri`, and the flat key older hosts read. */
export function viewMeta(name: ViewName): Record<string, unknown> {
  const uri = viewUri(name)
  const ui: McpUiToolMeta = { resourceUri: uri }
  return { ui, [RESOURCE_URI_META_KEY]: uri }
}

/** Hosts draw a border around the view; it asks for no network origin and no permission. */
const RESOURCE_META: McpUiResourceMeta = { prefersBorder: true }

export class ServiceViews {
  /** The `resources/list` result, shared by every request. */
  readonly listing: ListResourcesResult
  readonly #documents = new Map<string, string>()

  /** The views the service's tools name, each read from `dir` (the build's, by default). */
  constructor(definitions: readonly ToolDefinition[], dir: URL = BUILT) {
    const names = [...new Set(definitions.flatMap((d) => (d.view ? [d.view] : [])))]
    for (const name of names) this.#documents.set(viewUri(name), readView(name, dir))
    this.listing = {
      resources: names.map((name) => ({
        uri: viewUri(name),
        name,
        title: VIEWS[name].title,
        description: VIEWS[name].description,
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: RESOURCE_META },
      })),
    }
  }

  get any(): boolean {
    return this.#documents.size > 0
  }

  read(uri: string): ReadResourceResult {
    const text = this.#documents.get(uri)
    if (text === undefined)
      throw new ResourceNotFoundError(uri, `No resource ${uri.slice(0, 100)}.`)
    return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text, _meta: { ui: RESOURCE_META } }] }
  }
}

function readView(name: ViewName, dir: URL): string {
  const file = new URL(`${name}.html`, dir)
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(
      `The view ${name} is not built (${file.pathname}): run npm run build, which builds the views.`,
      { cause: error },
    )
  }
}
