import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ClientCapabilities,
  type FetchLike,
} from '@modelcontextprotocol/client'
import { expect } from 'vitest'
import type { ToolDefinition } from '../../src/services/definition.js'

/**
 * The MCP SDK's own client (v2) at one service's MCP URL with a bearer token from the real flow,
 * under the protocol revision asked for: `2026-07-28` pinned (stateless requests), or
 * `2025-11-25`, the client that sends `initialize`. `versions` records the protocol version
 * header of every POST it sent; `capabilities` are what it declares. The answer is re-wrapped in the global Response (see
 * test/e2e/sdk-client.test.ts).
 */

export const ERAS = ['2026-07-28', '2025-11-25'] as const
export type Era = (typeof ERAS)[number]

export async function mcpClientWithToken(
  resource: string,
  token: string,
  era: Era,
  capabilities?: ClientCapabilities,
) {
  const versions: (string | null)[] = []
  const fetchWithToken: FetchLike = async (input, init) => {
    const headers = new Headers(init?.headers)
    headers.set('authorization', `Bearer ${token}`)
    if (init?.method === 'POST') versions.push(headers.get('mcp-protocol-version'))
    const res = await fetch(input, { ...init, headers })
    return new Response(res.body, res)
  }
  const client = new Client(
    { name: 'countersign-tools-test', version: '1.0.0' },
    {
      ...(era === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      ...(capabilities && { capabilities }),
    },
  )
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), { fetch: fetchWithToken }),
  )
  return { client, versions }
}

/** A result's one text. */
export function resultText(result: CallToolResult): string {
  const [first] = result.content
  expect(first?.type).toBe('text')
  return (first as { text: string }).text
}

/**
 * A success of `definition`'s tool: structured content that fits its output schema, and the same
 * JSON as text. Returns the structured content.
 */
export function structuredResult(definition: ToolDefinition, result: CallToolResult) {
  expect(result.isError ?? false, resultText(result)).toBe(false)
  const parsed = definition.output.safeParse(result.structuredContent)
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
  // One payload: the text is the JSON of the structured content, never a larger second copy.
  const text = resultText(result)
  expect(JSON.parse(text)).toEqual(result.structuredContent)
  expect(text.length).toBeLessThanOrEqual(JSON.stringify(result.structuredContent).length)
  return result.structuredContent as Record<string, any>
}
