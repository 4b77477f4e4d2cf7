import { request } from 'node:http'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../src/http/body.js'
import { providerError, sandboxForSuite, type ApiResponse } from './support/sandbox.js'

const sandbox = sandboxForSuite()

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** Sends raw bytes and reads the answer, without ever throwing on the body. */
async function send(
  method: string,
  path: string,
  body?: string | Uint8Array,
  headers: Record<string, string> = {},
) {
  const res = await fetch(sandbox.url + path, {
    method,
    body: body as BodyInit | undefined,
    headers,
    redirect: 'manual',
  })
  return { status: res.status, text: await res.text(), headers: res.headers }
}

/**
 * Posts a body on a connection of its own, with Content-Length or chunked. The server answers
 * an oversized body before reading it all and may then close the connection, so these requests
 * do not share one.
 */
function sendOnNewConnection(path: string, body: Buffer, chunked: boolean): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    let answered = false
    const req = request(
      sandbox.url + path,
      {
        method: 'POST',
        agent: false,
        headers: { ...FORM, ...(chunked ? {} : { 'content-length': String(body.length) }) },
      },
      (res) => {
        answered = true
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          const headers = new Headers(res.headers as Record<string, string>)
          resolve({ status: res.statusCode ?? 0, headers, text, body: JSON.parse(text) })
        })
      },
    )
    // Writing may fail once the server has answered and hung up; the answer is what counts,
    // and by the time the request has closed, any answer has come.
    let failed: Error | undefined
    req.on('error', (err) => (failed = err))
    req.on('close', () => answered || reject(failed ?? new Error('closed without an answer')))
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024))
    req.end()
  })
}

function json(res: { status: number; text: string; headers: Headers }): ApiResponse {
  return { ...res, body: JSON.parse(res.text) }
}

describe('robustness: bad input never gives a 5xx', () => {
  it('malformed JSON, and JSON that is not an object, get the provider 400', async () => {
    for (const raw of ['{bad', '{"user":', '[1,2]', '"text"', 'null', '42', 'true', '\u0000']) {
      const res = json(
        await send('POST', '/_sandbox/tokens', raw, { 'content-type': 'application/json' }),
      )
      expect(res.status, raw).toBe(400)
      expect(providerError(res).status).toBe('INVALID_ARGUMENT')
    }
  })

  it('a body over 1 MB gets 413 in the provider shape, with or without Content-Length', async () => {
    const big = Buffer.from('a='.padEnd(MAX_BODY_BYTES + 10, 'x'))
    for (const path of [
      '/oauth/token',
      '/oauth/revoke',
      '/_sandbox/tokens',
      '/account/sign-in',
      '/oauth/authorize?client_id=x',
    ]) {
      for (const chunked of [false, true]) {
        const res = await sendOnNewConnection(path, big, chunked)
        expect(res.status, path).toBe(413)
        expect(providerError(res).code).toBe(413)
      }
    }
  })

  it('invalid percent-encoding in the path or the query gets the provider 400', async () => {
    for (const path of [
      '/oauth/%zz',
      '/account/%E0%A4%A',
      '/tasks/v1/lists/%',
      '/oauth/authorize?client_id=%zz',
      '/oauth/authorize?redirect_uri=https%3A%2F%2Fa%2%2',
      '/.well-known/oauth-authorization-server?x=%C0%80',
    ]) {
      const res = json(await send('GET', path))
      expect(res.status, path).toBe(400)
      expect(providerError(res).status).toBe('INVALID_ARGUMENT')
      expect(providerError(res).message).toContain('percent-encoding')
    }
  })

  it('unknown paths get the provider 404', async () => {
    for (const path of [
      '/nothing',
      '/oauth/',
      '/account',
      '/account/',
      '/.well-known/openid-configuration',
      '/oauth/authorize/extra',
    ]) {
      const res = json(await send('GET', path))
      expect(res.status, path).toBe(404)
      expect(providerError(res).status).toBe('NOT_FOUND')
    }
  })

  it("garbage in every OAuth endpoint's parameters gets a 4xx", async () => {
    const junk = [
      '',
      ' ',
      '\u0000',
      '%',
      '<script>',
      'x'.repeat(1500),
      '\u202e',
      '😀',
      'a=b&c',
      '""',
    ]
    for (const value of junk) {
      const params = new URLSearchParams({
        response_type: value,
        client_id: value,
        redirect_uri: value,
        scope: value,
        state: value,
        code_challenge: value,
        code_challenge_method: value,
      })
      const page = await send('GET', `/oauth/authorize?${params}`)
      expect(page.status).toBe(400)
      expect(page.headers.get('location')).toBeNull()
      const decide = await send(
        'POST',
        `/oauth/authorize?${params}`,
        `user=${encodeURIComponent(value)}&Allow=Allow`,
        FORM,
      )
      expect(decide.status).toBe(400)
      // A valid client and redirect_uri with garbage elsewhere: refused at the redirect_uri.
      params.set('client_id', 'App')
      params.set('redirect_uri', 'https://app.example/cb')
      const refused = await send('GET', `/oauth/authorize?${params}`)
      expect(refused.status).toBe(302)
      expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toMatch(
        /^invalid_request|unsupported_response_type$/,
      )

      const body = new URLSearchParams({
        grant_type: value,
        code: value,
        redirect_uri: value,
        code_verifier: value,
        refresh_token: value,
        client_id: value,
        scope: value,
      })
      const token = await send('POST', '/oauth/token', body.toString(), FORM)
      expect(token.status).toBeGreaterThanOrEqual(400)
      expect(token.status).toBeLessThan(500)
      for (const grant_type of ['authorization_code', 'refresh_token']) {
        body.set('grant_type', grant_type)
        const typed = await send('POST', '/oauth/token', body.toString(), FORM)
        expect(typed.status).toBe(400)
        expect(JSON.parse(typed.text).error).toMatch(/^invalid_(request|grant)$/)
      }
      const revoke = await send(
        'POST',
        '/oauth/revoke',
        new URLSearchParams({ token_type_hint: value, tokn: value }).toString(),
        FORM,
      )
      expect(revoke.status).toBe(400)
      const userinfo = await send(
        'GET',
        `/oauth/userinfo?access_token=${encodeURIComponent(value)}`,
      )
      expect(userinfo.status).toBe(401)
    }
  })

  describe('properties', () => {
    const bodies = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }),
      fc
        .array(
          fc.tuple(
            fc.constantFrom(
              'grant_type',
              'code',
              'refresh_token',
              'client_id',
              'redirect_uri',
              'code_verifier',
              'scope',
              'user',
              'scopes',
            ),
            fc.string({ maxLength: 40 }),
          ),
          { maxLength: 8 },
        )
        .map((pairs) => new URLSearchParams(pairs).toString()),
      fc.json().map(String),
    )
    const contentTypes = fc.constantFrom(
      undefined,
      'application/x-www-form-urlencoded',
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
    )

    it('random bodies to POST /oauth/token and POST /_sandbox/tokens never yield a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/oauth/token', '/_sandbox/tokens', '/oauth/revoke'),
          bodies,
          contentTypes,
          async (path, body, type) => {
            const res = await send('POST', path, body, type ? { 'content-type': type } : {})
            expect(res.status).toBeLessThan(500)
          },
        ),
        { numRuns: 150 },
      )
    })

    it('random paths (and methods) never yield a 5xx', async () => {
      const segment = fc.oneof(
        fc.constantFrom(
          'oauth',
          'authorize',
          'token',
          'revoke',
          'userinfo',
          'account',
          'connections',
          'sign-in',
          'tasks',
          'v1',
          'lists',
          '@default',
          'tasks',
          '_sandbox',
          'users',
          '.well-known',
          '..',
          '.',
          '',
          '%',
          '%zz',
          '%2F',
          '%E0%A4',
          '%C3%A9',
          'é',
          '?',
          '&',
          '=',
          ';',
          '#',
        ),
        fc.string({ maxLength: 12 }),
      )
      const paths = fc.array(segment, { maxLength: 6 }).map((parts) => '/' + parts.join('/'))
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
          paths,
          async (method, path) => {
            let url: URL
            try {
              url = new URL(sandbox.url + path)
            } catch {
              return
            }
            if (
              url.pathname.startsWith('/_sandbox/reset') ||
              url.pathname.startsWith('/_sandbox/faults')
            )
              return
            const res = await fetch(url, {
              method,
              redirect: 'manual',
              body: method === 'GET' ? undefined : '',
            })
            await res.arrayBuffer()
            expect(res.status, `${method} ${url.pathname}${url.search}`).toBeLessThan(500)
          },
        ),
        { numRuns: 200 },
      )
    })
  })
})
