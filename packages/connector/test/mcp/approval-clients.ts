import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  type FetchLike,
  type Tool,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema as ElicitRequestSchemaV1 } from '@modelcontextprotocol/sdk/types.js'
import { expect } from 'vitest'

/**
 * The two assistants of the approval tests, each at a service's MCP URL with a bearer token from
 * the real flow:
 *
 * - the SDK v2 client under 2026-07-28, which may answer questions in its own interface: its
 *   `elicitation/create` handler is the person's answer (form or URL mode, as declared);
 * - the v1 SDK client (`@modelcontextprotocol/sdk`), a 2025-11-25 client that sends `initialize`:
 *   with an `answer`, it declares elicitation there and answers `elicitation/create` on the
 *   stream of its call; without one, it goes through the approval page.
 *
 * Both record every POST body they send, for replays.
 */

export interface Assistant {
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>
  /** The tools as `tools/list` gives them to this grant. */
  listTools(): Promise<Tool[]>
  /** The JSON bodies of the tool calls sent, in order (a 2026 retry is a call of its own). */
  sent: Record<string, any>[]
  /** The `Mcp-Session-Id` its latest call was sent with (2025-11-25), if any. */
  readonly sessionId: string | undefined
  /** Sends a recorded body again, as an attacker holding the token would. */
  resend(body: Record<string, any>): Promise<Response>
  close(): Promise<void>
}

/** The person's answer to a question; `id` is the question's JSON-RPC id (2025-11-25 clients). */
export type Answer = (
  params: ElicitRequest['params'],
  id?: string | number,
) => Promise<ElicitResult> | ElicitResult

function recording(token: string, sent: SentCall[]): FetchLike {
  return async (input, init) => {
    const headers = new Headers(init?.headers)
    headers.set('authorization', `Bearer ${token}`)
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const body = JSON.parse(init.body)
      if (body.method === 'tools/call') sent.push({ body, headers: Object.fromEntries(headers) })
    }
    const res = await fetch(input, { ...init, headers })
    return new Response(res.body, res)
  }
}

export async function assistantV2(
  resource: string,
  token: string,
  answer: Answer | undefined,
  modes: { form?: boolean; url?: boolean } = { form: true, url: true },
): Promise<Assistant> {
  const sent: SentCall[] = []
  const elicitation = answer
    ? { ...(modes.form && { form: {} }), ...(modes.url && { url: {} }) }
    : undefined
  const client = new ClientV2(
    { name: 'approval-test-v2', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: elicitation ? { elicitation } : {},
    },
  )
  if (answer) client.setRequestHandler('elicitation/create', (request) => answer(request.params))
  await client.connect(new TransportV2(new URL(resource), { fetch: recording(token, sent) }))
  return assistant(resource, token, sent, client)
}

export async function assistantV1(
  resource: string,
  token: string,
  answer?: Answer,
  modes: { form?: boolean; url?: boolean } = { form: true },
): Promise<Assistant> {
  const sent: SentCall[] = []
  const elicitation = answer
    ? { ...(modes.form && { form: {} }), ...(modes.url && { url: {} }) }
    : undefined
  const client = new ClientV1(
    { name: 'approval-test-v1', version: '1.0.0' },
    { capabilities: elicitation ? { elicitation } : {} },
  )
  if (answer)
    client.setRequestHandler(ElicitRequestSchemaV1, (request, extra) =>
      answer(request.params as ElicitRequest['params'], extra.requestId),
    )
  await client.connect(
    new TransportV1(new URL(resource), {
      fetch: recording(token, sent) as never,
    }),
  )
  // The server of the service the URL names: its first path segment (`/tasks/mcp`).
  const service = new URL(resource).pathname.split('/')[1]
  expect(client.getServerVersion()?.name).toBe(`countersign-${service}`)
  return assistant(resource, token, sent, client)
}

interface SentCall {
  body: Record<string, any>
  headers: Record<string, string>
}

function assistant(
  resource: string,
  token: string,
  sent: SentCall[],
  client: {
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>
    listTools(): Promise<{ tools: unknown[] }>
    close(): Promise<void>
  },
): Assistant {
  return {
    get sent() {
      return sent.map((s) => s.body)
    },
    get sessionId() {
      return sent.at(-1)?.headers['mcp-session-id']
    },
    call: async (name, args) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    listTools: async () => (await client.listTools()).tools as Tool[],
    resend: (body) => resend(resource, token, sent, body),
    close: () => client.close(),
  }
}

/** A recorded (or made-up) body sent with the headers a call went with. */
function resend(resource: string, token: string, sent: SentCall[], body: Record<string, any>) {
  // A body made up from a recorded one goes with the headers of the latest call.
  const original = sent.find((s) => s.body === body) ?? sent.at(-1)
  const headers = new Headers(original?.headers)
  headers.set('authorization', `Bearer ${token}`)
  headers.delete('content-length')
  return fetch(resource, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...body, id: 9_000 + sent.length }),
  })
}

export const textOf = (result: CallToolResult) => {
  const [first] = result.content
  return first?.type === 'text' ? first.text : ''
}

/** The approval page's link in a result that asks for the person's approval there. */
export function approvalLink(result: CallToolResult): string {
  expect(result.isError, textOf(result)).toBe(true)
  const url = /(https?:\/\/\S+\/approvals\/[A-Za-z0-9_-]{43})/.exec(textOf(result))?.[1]
  if (!url) throw new Error(`no approval link in: ${textOf(result)}`)
  // The same page as a link the host shows the person, beside the model's words.
  expect(result.content.filter((item) => item.type === 'resource_link')).toEqual([
    expect.objectContaining({ type: 'resource_link', uri: url, mimeType: 'text/html' }),
  ])
  return url
}
