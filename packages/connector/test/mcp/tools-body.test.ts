import { request as httpRequest } from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { connectorForSuite } from '../support/connector.js'

/**
 * The endpoint reads a request's body once, itself, and hands it to the SDK parsed: with its
 * length declared or chunked, too large, or not JSON at all.
 */

const suite = connectorForSuite()
let token: string

beforeAll(async () => {
  token = (await suite.connect({ service: 'tasks' })).tokens.access_token
})

const call = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'list_task_lists', arguments: {} },
})

/** A POST to /tasks/mcp over node:http, the body written in `chunks` (chunked when several). */
function post(chunks: string[], headers: Record<string, string> = {}) {
  const url = new URL(`${suite.url}/tasks/mcp`)
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      },
    )
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

describe('the request body', () => {
  it('with its length declared', async () => {
    const res = await post([call], { 'content-length': String(Buffer.byteLength(call)) })
    expect(res.status).toBe(200)
    expect(res.text).toContain('"structuredContent"')
  })

  it('chunked, without a declared length', async () => {
    const res = await post([call.slice(0, 20), call.slice(20)])
    expect(res.status).toBe(200)
    expect(res.text).toContain('"structuredContent"')
  })

  it('over 4 MiB, declared or chunked: 413', async () => {
    const big = 'x'.repeat(1024 * 1024)
    const parts = ['{"a":"', big, big, big, big, big, '"}']
    const send = (body: BodyInit) =>
      fetch(`${suite.url}/tasks/mcp`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
      } as RequestInit)
    const declared = await send(parts.join(''))
    expect(declared.status).toBe(413)
    const chunked = await send(
      new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
          controller.close()
        },
      }),
    )
    expect(chunked.status).toBe(413)
    expect(await chunked.json()).toMatchObject({ error: { message: /Payload Too Large/ } })
  })

  it('not JSON: the SDK’s parse error', async () => {
    const res = await post(['{"jsonrpc": "2.0", '], { 'content-length': '19' })
    expect(res.status).toBe(400)
    expect(res.text).toContain('-32700')
  })
})
