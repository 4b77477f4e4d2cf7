import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client'

/**
 * The MCP SDK's own client (v2) at one service's MCP URL with a bearer token from the real flow,
 * under the protocol revision asked for: `2026-07-28` pinned (stateless requests), or
 * `2025-11-25`, the client that sends `initialize`. `versions` records the protocol version
 * header of every POST it sent. The answer is re-wrapped in the global Response (see
 * test/e2e/sdk-client.test.ts).
 */

export const ERAS = ['2026-07-28', '2025-11-25'] as const
export type Era = (typeof ERAS)[number]

export async function mcpClientWithToken(resource: string, token: string, era: Era) {
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
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  )
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), { fetch: fetchWithToken }),
  )
  return { client, versions }
}
