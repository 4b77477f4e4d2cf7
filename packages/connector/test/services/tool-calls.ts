import {
  pathParamsOf,
  type ProviderReader,
  type ToolDefinition,
} from '../../src/services/definition.js'
import type { ServiceName } from '../../src/services/catalog.js'
import { GENERIC_PROFILE } from '../../src/services/profiles/generic.js'
import type { sandboxForSuite } from '@countersign/sandbox/testing'

/**
 * Calls a tool's upstream operation the way its definition says: path parameters into the path
 * (one percent-encoded segment each), `query` fields into the query string, and, for `rest`
 * bodies, every other field as the JSON body. Only what the input schema accepted is sent.
 */

type Sandbox = ReturnType<typeof sandboxForSuite>

/** Each service's API on the sandbox (docs/design.md, "The provider's API"). */
const API_BASE: Record<ServiceName, string> = {
  tasks: '/tasks/v1',
  search: '/search/v1',
  analytics: '/analytics/v1',
}

export interface UpstreamRequest {
  method: string
  /** Relative to the service's base URL, with the query string. */
  path: string
  body?: Record<string, unknown>
}

export function upstreamRequest(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): UpstreamRequest {
  const inPath = pathParamsOf(tool.path)
  const path = tool.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(args[name])),
  )
  const query = new URLSearchParams()
  for (const name of tool.query) if (args[name] !== undefined) query.set(name, String(args[name]))
  const search = query.toString()
  const request: UpstreamRequest = {
    method: tool.method,
    path: search ? `${path}?${search}` : path,
  }
  if (tool.body === 'rest')
    request.body = Object.fromEntries(
      Object.entries(args).filter(
        ([name, value]) =>
          value !== undefined && !inPath.includes(name) && !tool.query.includes(name),
      ),
    )
  return request
}

/** Validates the arguments with the tool's input schema, then sends them to the sandbox. */
export async function callTool(
  sandbox: Sandbox,
  token: string,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const parsed = tool.input.safeParse(args)
  if (!parsed.success)
    throw new Error(`${tool.name} refused ${JSON.stringify(args)}: ${parsed.error.message}`)
  const request = upstreamRequest(tool, parsed.data as Record<string, unknown>)
  return sandbox.request(request.method, `${API_BASE[tool.service]}${request.path}`, {
    token,
    headers,
    ...(request.body !== undefined && { body: request.body }),
  })
}

/**
 * A ProviderReader over plain fetch: what the connector gives describe(), on one token, with each
 * operation where the generic provider's profile puts it; `calls` holds the filled paths.
 */
export function providerReader(
  sandbox: Sandbox,
  token: string,
  service: ServiceName = 'tasks',
): ProviderReader & { calls: string[]; operations: string[] } {
  const calls: string[] = []
  const operations: string[] = []
  return {
    calls,
    operations,
    async get(operation, pathParams) {
      operations.push(operation)
      const { path } = GENERIC_PROFILE.operations[operation]!
      const filled = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
        const value = pathParams[name]
        if (value === undefined) throw new Error(`no value for {${name}} in ${path}`)
        return encodeURIComponent(value)
      })
      calls.push(filled)
      const res = await fetch(`${sandbox.url}${API_BASE[service]}${filled}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      if (!res.ok) throw new Error(`GET ${filled}: ${res.status} ${await res.text()}`)
      return res.json()
    },
  }
}
