import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  connectorForSuite,
  keptAlive,
  next,
  upload,
  type Upload,
} from '@countersign/connector/testing'

/**
 * Early answers (issue 11, item 2): an answer sent while the client is still uploading (a 413
 * past a bound, a 401 before the body is read, a refused form) must not leave a kept-alive
 * client with a connection about to break. Both programs say `Connection: close` on such an
 * answer, and close gently: a client still sending gets the answer rather than a reset. Answers
 * to requests whose body has all arrived keep the connection as before.
 */

const suite = connectorForSuite()

const JSON_TYPE = { 'content-type': 'application/json' }
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** Slow enough that the rest of the body takes longer than @hono/node-server drains (500 ms). */
const SLOW = { piece: 32 * 1024, pauseMs: 25 }

let sandboxToken: string
beforeAll(async () => {
  const minted = await suite.sandboxRequest('POST', '/_sandbox/tokens', {
    json: { user: 'early', scopes: ['tasks'] },
  })
  sandboxToken = minted.body.access_token
})

/** Resolves once the socket has something to read, or has closed: nothing is read. */
function readable(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('readable', done)
      socket.off('close', done)
      resolve()
    }
    socket.on('readable', done)
    socket.on('close', done)
  })
}

/** Everything the socket receives until the other side ends the connection, or it breaks. */
function readToEnd(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (data: string) => (received += data))
    socket.once('end', () => resolve(received))
    socket.once('close', () => resolve(received))
  })
}

/** Writes `data`; resolves once it has left (or the write failed, which the socket reports). */
const written = (socket: Socket, data: Buffer) =>
  new Promise<void>((resolve) => socket.write(data, () => resolve()))

/**
 * Uploads on a kept-alive client, then sends its next request: the answer must be `status`,
 * say `Connection: close`, and the next request be served (on a new connection).
 */
async function answeredEarly(spec: Omit<Upload, 'agent'>, status: number, health: string) {
  const agent = keptAlive()
  try {
    const answer = await upload({ ...spec, agent })
    expect(answer.status).toBe(status)
    expect(answer.headers.connection).toBe('close')
    expect(answer.sentBeforeAnswer).toBeLessThan(spec.size)
    const after = await next(health, agent)
    expect(after.status).toBe(200)
    return answer
  } finally {
    agent.destroy()
  }
}

describe('early answers: the next request on the connection is served, or the answer says close', () => {
  it("a 1.1 MB JSON post to the sandbox's task API: 413 with Connection: close, and the kept-alive client's next request is served", async () => {
    const { url, googleUrl } = suite.sandbox
    for (const [target, health] of [
      [`${url}/tasks/v1/lists`, `${url}/healthz`],
      [`${googleUrl}/tasks/v1/users/@me/lists`, `${googleUrl}/healthz`],
    ] as const) {
      for (const chunked of [false, true]) {
        await answeredEarly(
          {
            url: target,
            headers: { ...JSON_TYPE, authorization: `Bearer ${sandboxToken}` },
            prefix: '{"title":"',
            suffix: '"}',
            size: 1_100_000,
            chunked,
            // Chunked, the sandbox reads up to its bound before it answers, a few pieces before
            // the end: no need to be as slow.
            ...(chunked ? { piece: 16 * 1024, pauseMs: 3 } : SLOW),
          },
          413,
          health,
        )
      }
    }
  })

  it("a 401 from the sandbox's task API while the body is still arriving", async () => {
    await answeredEarly(
      {
        url: `${suite.sandbox.url}/tasks/v1/lists`,
        headers: JSON_TYPE,
        prefix: '{"title":"',
        suffix: '"}',
        size: 1_000_000,
        ...SLOW,
      },
      401,
      `${suite.sandbox.url}/healthz`,
    )
  })

  it("a 401 from the connector's MCP endpoint while the body is still arriving", async () => {
    await answeredEarly(
      {
        url: `${suite.url}/tasks/mcp`,
        headers: { ...JSON_TYPE, accept: 'application/json, text/event-stream' },
        prefix: '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"',
        suffix: '"}}}',
        size: 1_000_000,
        ...SLOW,
      },
      401,
      `${suite.url}/healthz`,
    )
  })

  it('a connector form refused as cross-site (400) while the body is still arriving', async () => {
    await answeredEarly(
      {
        url: `${suite.url}/connections/sign-in`,
        headers: { ...FORM, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        prefix: 'csrf=x&pad=',
        size: 4000,
        piece: 100,
        pauseMs: 25,
      },
      400,
      `${suite.url}/healthz`,
    )
  })

  it('a 413 from the authorization server while the body is still arriving', async () => {
    await answeredEarly(
      {
        url: `${suite.url}/oauth/token`,
        headers: FORM,
        prefix: 'grant_type=refresh_token&refresh_token=x&pad=',
        size: 1_000_000,
        chunked: true,
        ...SLOW,
      },
      413,
      `${suite.url}/healthz`,
    )
  })

  it('a client still sending when it is answered gets the answer: the connection is closed gently, not reset', async () => {
    for (const [origin, path] of [
      [suite.sandbox.url, '/tasks/v1/lists'],
      [suite.url, '/tasks/mcp'],
    ] as const) {
      const { port, hostname, host } = new URL(origin)
      const socket = connect(Number(port), hostname)
      await once(socket, 'connect')
      let failed: Error | undefined
      socket.on('error', (error) => (failed = error))
      // A client that writes before it reads: once the answer has come, it waits unread while
      // the client goes on sending.
      const answered = readable(socket)
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${8 * 1024 * 1024}\r\n\r\n{"a":"`,
      )
      await answered
      for (let i = 0; i < 2; i += 1) await written(socket, Buffer.alloc(256 * 1024, 'x'))
      const received = await readToEnd(socket)
      socket.destroy()
      expect(failed, origin).toBeUndefined()
      expect(received, origin).toMatch(/^HTTP\/1\.1 (401|413) /)
      expect(received, origin).toMatch(/\r\nConnection: close\r\n/i)
    }
  })

  it('answers to requests without a body, or whose body has all arrived, keep the connection', async () => {
    for (const [origin, form] of [
      [suite.url, '/connections/sign-in'],
      [suite.sandbox.url, '/oauth/token'],
      [suite.sandbox.googleUrl, '/token'],
    ] as const) {
      const agent = keptAlive()
      try {
        await next(`${origin}/healthz`, agent)
        const again = await next(`${origin}/healthz`, agent)
        expect(again.reusedSocket, origin).toBe(true)
        // A small form, sent whole and answered (refused, even): the connection goes on.
        const answer = await upload({
          url: origin + form,
          headers: FORM,
          prefix: 'csrf=x&grant_type=x',
          size: 19,
          agent,
        })
        expect(answer.status, origin).toBeLessThan(500)
        expect(answer.closes, origin).toBe(false)
        expect((await next(`${origin}/healthz`, agent)).reusedSocket, origin).toBe(true)
      } finally {
        agent.destroy()
      }
    }
  })
})
