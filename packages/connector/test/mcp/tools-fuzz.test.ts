import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { TASK_TOOLS } from '../../src/services/tasks/index.js'
import { connectorForSuite } from '../support/connector.js'
import { providerRequests } from '../support/provider-log.js'

/**
 * Raw JSON-RPC bodies to /tasks/mcp, random and half-right, the five changes among them: whatever
 * comes in, the answer is a JSON-RPC error or a result (an `isError` one, or a success with
 * structured content), never a 5xx, under both protocol revisions; and with nobody approving,
 * nothing is written at the provider.
 */

const suite = connectorForSuite()
let token: string

beforeAll(async () => {
  token = (await suite.connect({ service: 'tasks' })).tokens.access_token
})

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
}

const toolNames = TASK_TOOLS.map((tool) => tool.name)
const fieldNames = [...new Set(TASK_TOOLS.flatMap((tool) => Object.keys(tool.input.shape)))]

const fieldValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('@default', '', '.', '..', '2026-11-25T00:00:00Z', 'a/b?c#d', '%2F'),
  fc.integer({ min: -5, max: 2000 }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
)
const toolArguments = fc.oneof(
  fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 6 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fieldValue, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
)
const callParams = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...toolNames), fc.string({ maxLength: 20 })),
    arguments: toolArguments,
  },
  { requiredKeys: ['name'] },
)
const message = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '2.0', '1.0'),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
    method: fc.constantFrom(
      'tools/call',
      'tools/call',
      'tools/call',
      'tools/list',
      'initialize',
      'ping',
      'server/discover',
      'resources/list',
      'nope',
    ),
    params: fc.oneof(callParams, fc.jsonValue({ maxDepth: 2 })),
  },
  { requiredKeys: ['method'] },
)

type Era = 'modern' | 'legacy'

/** A body as text, and whether to send it as the 2026-07-28 revision does. */
const body = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(message, fc.constantFrom<Era>('modern', 'legacy')) },
  { weight: 1, arbitrary: fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom<Era>('legacy')) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 40 }), fc.constantFrom<Era>('legacy')) },
)

function request([value, era]: [unknown, Era]) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  }
  let payload = value
  if (era === 'modern' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const rpc = value as { method?: unknown; params?: unknown }
    headers['mcp-protocol-version'] = '2026-07-28'
    if (typeof rpc.method === 'string') headers['mcp-method'] = rpc.method
    const params = rpc.params as { name?: unknown } | undefined
    if (typeof params?.name === 'string' && /^[\x20-\x7e]*$/.test(params.name))
      headers['mcp-name'] = params.name
    if (typeof params === 'object' && params !== null && !Array.isArray(params))
      payload = { ...rpc, params: { ...params, _meta: MODERN_META } }
  } else {
    headers['mcp-protocol-version'] = '2025-11-25'
  }
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload)
  return fetch(`${suite.url}/tasks/mcp`, { method: 'POST', headers, body: text })
}

/** The JSON-RPC messages of a JSON or SSE answer. */
function messagesOf(contentType: string, text: string): unknown[] {
  if (!text) return []
  if (contentType.startsWith('text/event-stream'))
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
  const parsed = JSON.parse(text)
  return Array.isArray(parsed) ? parsed : [parsed]
}

/** The task API writes the sandbox received: none may come from calls nobody approved. */
const upstreamWrites = async () => (await providerRequests(suite, 'tasks')).writes

describe('random JSON-RPC bodies to /tasks/mcp', () => {
  it('are answered with a JSON-RPC error or a result, never a 5xx, and change nothing', async () => {
    const writesBefore = (await upstreamWrites()).length
    await fc.assert(
      fc.asyncProperty(body, async (input) => {
        const res = await request(input)
        const text = await res.text()
        expect(res.status, text).toBeLessThan(500)
        const [sent] = input
        const isCall =
          typeof sent === 'object' &&
          sent !== null &&
          (sent as { method?: unknown }).method === 'tools/call'
        for (const answer of messagesOf(res.headers.get('content-type') ?? '', text) as any[]) {
          expect(answer.jsonrpc).toBe('2.0')
          if (answer.error) {
            expect(answer.error.code).toEqual(expect.any(Number))
            // The SDK answers some malformed requests (an initialize without params) with
            // -32603; a tool call never gets it, which would be a crash of the tools layer.
            if (isCall) expect(answer.error.code, text).not.toBe(-32603)
            continue
          }
          expect(answer.result, text).toBeDefined()
          if (isCall && res.status === 200)
            expect(
              answer.result.isError === true || answer.result.structuredContent !== undefined,
              text,
            ).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
    // Changes among them were asked about, never approved: the provider saw no write.
    expect((await upstreamWrites()).length).toBe(writesBefore)
  }, 120_000)
})
