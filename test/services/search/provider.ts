import type { ProviderReader, ToolDefinition } from '../../../src/services/definition.js'
import { pathParamsOf } from '../../../src/services/definition.js'
import type { sandboxForSuite } from '../../support/sandbox.js'

/**
 * The search tools against the real sandbox, without the connector: a tool's upstream request
 * built the way its definition says (path parameters as single encoded segments, `query`
 * fields in the query string, the rest as the JSON body), and a ProviderReader over fetch.
 */

type Sandbox = ReturnType<typeof sandboxForSuite>

export function providerReader(
  sandbox: Sandbox,
  token: string,
): ProviderReader & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async get(path, pathParams) {
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(pathParams[name]!),
      )
      calls.push(filled)
      const res = await fetch(`${sandbox.url}/search/v1${filled}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      if (!res.ok) throw new Error(`GET ${filled}: ${res.status} ${await res.text()}`)
      return res.json()
    },
  }
}

/** Validates the arguments with the tool's schema, then makes its request to the sandbox. */
export async function callTool(
  sandbox: Sandbox,
  token: string,
  tool: ToolDefinition,
  args: Record<string, unknown>,
) {
  const parsed = tool.input.safeParse(args)
  if (!parsed.success)
    throw new Error(`${tool.name} refused ${JSON.stringify(args)}: ${parsed.error.message}`)
  const input = parsed.data as Record<string, unknown>
  const inPath = pathParamsOf(tool.path)
  const path = tool.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(input[name])),
  )
  const query = new URLSearchParams()
  for (const name of tool.query) if (input[name] !== undefined) query.set(name, String(input[name]))
  const body =
    tool.body === 'rest'
      ? Object.fromEntries(
          Object.entries(input).filter(
            ([k, v]) => v !== undefined && !inPath.includes(k) && !tool.query.includes(k),
          ),
        )
      : undefined
  const search = query.toString()
  return sandbox.request(tool.method, `/search/v1${path}${search ? `?${search}` : ''}`, {
    token,
    ...(body !== undefined && { body }),
  })
}
