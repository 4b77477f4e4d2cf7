import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startSandbox } from '@countersign/sandbox'
import { freePort } from '@countersign/connector/testing'
import { sandboxForSuite } from '@countersign/sandbox/testing'

/**
 * DNS rebinding against the sandbox: a web page the developer visits rebinds its own host name
 * to 127.0.0.1 and drives the sandbox from their browser as if it were its own origin, control
 * API included (`POST /_sandbox/tokens` mints provider tokens), or simply posts to the control API
 * from its own origin. The sandbox answers only to its own names (at S and at G), and its control
 * API refuses requests sent by pages of other origins; what tests, scripts and the connector send
 * keeps working.
 */

const sandbox = sandboxForSuite()

interface RawAnswer {
  status: number
  body: any
}

/** One request with the headers given as they are, Host included (fetch will not set Host). */
function send(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<RawAnswer> {
  const url = new URL(origin)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          host: url.host,
          ...(payload !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }),
        )
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const mint = (user: string) => ({ user, scopes: ['tasks'] })

/** What the sandbox holds and has seen: users, grants, lists, and its request log. */
async function footprint() {
  const count = async (table: 'users' | 'oauth_grants' | 'oauth_tokens' | 'task_lists') =>
    Number(
      (
        await sandbox.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return {
    users: await count('users'),
    grants: await count('oauth_grants'),
    tokens: await count('oauth_tokens'),
    lists: await count('task_lists'),
    requests: (await send(sandbox.url, 'GET', '/_sandbox/requests')).body.length as number,
  }
}

function expectMisdirected(answer: RawAnswer, what: string) {
  expect(answer.status, what).toBe(421)
  expect(answer.body?.error?.status, what).toBe('PERMISSION_DENIED')
  expect(answer.body?.error?.message, what).toMatch(/answers only to 127\.0\.0\.1, localhost/)
}

describe('DNS rebinding against the sandbox', () => {
  const port = (origin: string) => new URL(origin).port

  it('a rebound host name at S is refused, and mints nothing', async () => {
    const before = await footprint()
    for (const host of [
      `evil.example:${port(sandbox.url)}`,
      'evil.example',
      `localhost.evil.example:${port(sandbox.url)}`,
      `127.0.0.1.nip.io:${port(sandbox.url)}`,
      `localhost:${Number(port(sandbox.url)) + 1}`,
    ]) {
      const minted = await send(sandbox.url, 'POST', '/_sandbox/tokens', { host }, mint('mallory'))
      expectMisdirected(minted, `POST /_sandbox/tokens with Host: ${host}`)
      expectMisdirected(
        await send(sandbox.url, 'GET', '/_sandbox/users/mallory', { host }),
        `GET /_sandbox/users with Host: ${host}`,
      )
    }
    expect(await footprint()).toEqual(before)
  })

  it('a rebound host name at G is refused, and changes nothing', async () => {
    const token = (await send(sandbox.url, 'POST', '/_sandbox/tokens', {}, mint('gina'))).body
      .access_token as string
    const before = await footprint()
    const host = `evil.example:${port(sandbox.googleUrl)}`
    const created = await send(
      sandbox.googleUrl,
      'POST',
      '/tasks/v1/users/@me/lists',
      { host, authorization: `Bearer ${token}` },
      { title: 'Rebound' },
    )
    expectMisdirected(created, 'POST /tasks/v1/users/@me/lists at G')
    expectMisdirected(
      await send(sandbox.googleUrl, 'POST', '/token', {
        host,
        'content-type': 'application/x-www-form-urlencoded',
      }),
      'POST /token at G',
    )
    expect(await footprint()).toEqual(before)
  })

  it('each origin still answers to its loopback names at its port', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      const minted = await send(
        sandbox.url,
        'POST',
        '/_sandbox/tokens',
        { host: `${name}:${port(sandbox.url)}` },
        mint('lupe'),
      )
      expect(minted.status, name).toBe(200)
      const lists = await send(sandbox.googleUrl, 'GET', '/tasks/v1/users/@me/lists', {
        host: `${name}:${port(sandbox.googleUrl)}`,
        authorization: `Bearer ${minted.body.access_token}`,
      })
      expect(lists.status, name).toBe(200)
    }
  })

  it('behind its public URLs, answers to their hosts as well, and to nothing else', async () => {
    const [seedPort, googlePort] = [await freePort(), await freePort()]
    const proxied = await startSandbox({
      port: seedPort,
      googlePort,
      dataDir: ':memory:',
      publicUrl: 'https://sandbox.example.test',
      googlePublicUrl: 'https://google.sandbox.example.test',
    })
    try {
      const seed = `http://127.0.0.1:${seedPort}`
      const google = `http://127.0.0.1:${googlePort}`
      const userAt = (origin: string, host: string) =>
        send(origin, 'GET', '/_sandbox/users/pablo', { host })
      for (const host of [
        'sandbox.example.test',
        'sandbox.example.test:443',
        `localhost:${seedPort}`,
      ])
        expect((await userAt(seed, host)).status, host).toBe(200)
      for (const host of ['sandbox.example.test:8443', 'example.test', `evil.example:${seedPort}`])
        expectMisdirected(await userAt(seed, host), host)
      const discovery = (host: string) =>
        send(google, 'GET', '/.well-known/openid-configuration', { host })
      expect((await discovery('google.sandbox.example.test')).status).toBe(200)
      expectMisdirected(await discovery('evil.example'), 'evil.example at G')
    } finally {
      await proxied.close()
    }
  })
})

describe('cross-site requests to the sandbox control API', () => {
  it('are refused when another origin or site sent them, and mint nothing', async () => {
    const before = await footprint()
    const pages: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://localhost:1', 'sec-fetch-site': 'same-site' },
    ]
    for (const headers of pages) {
      const what = JSON.stringify(headers)
      const minted = await send(sandbox.url, 'POST', '/_sandbox/tokens', headers, mint('eve'))
      expect(minted.status, what).toBe(403)
      expect(minted.body?.error?.message, what).toMatch(/another site or origin/)
      const reset = await send(sandbox.url, 'POST', '/_sandbox/reset', headers)
      expect(reset.status, what).toBe(403)
    }
    expect(await footprint()).toEqual(before)
  })

  it('are answered from tests and scripts (no Origin), the sandbox’s own pages and a typed URL', async () => {
    const callers: Record<string, string>[] = [
      {},
      { origin: sandbox.url, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ]
    for (const headers of callers) {
      const minted = await send(sandbox.url, 'POST', '/_sandbox/tokens', headers, mint('tess'))
      expect(minted.status, JSON.stringify(headers)).toBe(200)
      expect(minted.body.access_token).toEqual(expect.any(String))
    }
  })
})
