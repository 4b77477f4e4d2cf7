import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  connectorForSuite,
  keptAlive,
  next,
  OAUTH_BODY_BYTES,
  upload,
  type Upload,
  type UploadAnswer,
} from '@countersign/connector/testing'
import {
  MAX_BODY_BYTES as SANDBOX_BODY_BYTES,
  MAX_FORM_BYTES as SANDBOX_FORM_BYTES,
} from '@countersign/sandbox/testing'

/**
 * Oversized bodies (issue 11, item 1): every body either program reads stops at its bound as
 * the bytes arrive, whether its length is declared or it is chunked, and is answered 413 in that
 * program's shape: a 200 MB chunked post does not grow the process, nor gives a 5xx.
 *
 * The connector: its pages' forms 4 KiB (an HTML page), its MCP endpoints 4 MiB (JSON-RPC), the
 * authorization server's endpoints 56 KiB (OAuth JSON). The sandbox: its forms 16 KiB, its JSON
 * bodies and Google's forwarded ones 1 MiB (the provider's error shape, Google's on Google's
 * origin).
 */

const suite = connectorForSuite()

const FORM_BYTES = 4096
const MCP_BYTES = 4 * 1024 * 1024
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const JSON_TYPE = { 'content-type': 'application/json' }
const MCP_HEADERS = {
  ...JSON_TYPE,
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
}

let mcpToken: string
let sandboxToken: string
let consent: { url: string; cookie: string }

beforeAll(async () => {
  mcpToken = (await suite.connect({ service: 'tasks' })).tokens.access_token
  const minted = await suite.sandboxRequest('POST', '/_sandbox/tokens', {
    json: { user: 'bounded', scopes: ['tasks'] },
  })
  sandboxToken = minted.body.access_token
  const person = suite.person('consenting')
  const { consentUrl } = await suite.openConsent(person)
  consent = { url: consentUrl, cookie: person.cookies.header(new URL(consentUrl)) }
})

/** The answer of the connector's pages: an HTML page saying what went wrong. */
function expectPage(answer: UploadAnswer, status: number) {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^text\/html/)
  expect(answer.text).toContain('<!doctype html>')
}

/** The provider's 413 (Google's shape has the same fields, less `errors` on One Platform APIs). */
function expectProviderTooLarge(answer: UploadAnswer, bound: number) {
  expect(answer.status).toBe(413)
  expect(JSON.parse(answer.text)).toMatchObject({
    error: { code: 413, status: 'INVALID_ARGUMENT', message: expect.stringContaining(`${bound}`) },
  })
}

describe('oversized bodies are refused with 413 as they arrive', () => {
  it('a 200 MB chunked form post with no sign-in is cut off after 4 KiB, and the connector does not grow', async () => {
    const before = process.memoryUsage().rss
    const answer = await upload({
      url: `${suite.url}/connections/sign-in`,
      headers: FORM,
      prefix: 'csrf=x&pad=',
      size: 200 * 1024 * 1024,
      chunked: true,
    })
    const grown = process.memoryUsage().rss - before
    expectPage(answer, 413)
    expect(answer.closes).toBe(true)
    // The client stops once answered: only what was in flight has gone out.
    expect(answer.sentBeforeAnswer).toBeLessThan(32 * 1024 * 1024)
    expect(grown).toBeLessThan(64 * 1024 * 1024)
  })

  it("every form of the connector's pages: over 4 KiB, declared or chunked, an HTML 413", async () => {
    const forms = [
      { path: '/connections/sign-in' },
      { path: '/connections/sign-out' },
      { path: '/connections/disconnect' },
      { path: '/approvals/some-approval' },
      { path: '/approvals/some-approval/sign-in' },
      { path: new URL(consent.url).pathname, cookie: consent.cookie },
    ]
    for (const { path, cookie } of forms) {
      for (const chunked of [false, true]) {
        const answer = await upload({
          url: suite.url + path,
          headers: { ...FORM, ...(cookie ? { cookie } : {}) },
          prefix: 'csrf=x&pad=',
          size: FORM_BYTES + 1,
          chunked,
        })
        expectPage(answer, 413)
        expect(answer.text, path).toContain('larger than')
      }
    }
  })

  it("the authorization server's endpoints: over 56 KiB, an OAuth 413; a chunked body under it is still read", async () => {
    for (const [path, headers, prefix] of [
      ['/oauth/token', FORM, 'grant_type=refresh_token&refresh_token=x&pad='],
      ['/oauth/revoke', FORM, 'token=x&pad='],
      ['/oauth/register', JSON_TYPE, '{"redirect_uris":["https://a.example/cb"],"pad":"'],
    ] as const) {
      for (const chunked of [false, true]) {
        const answer = await upload({
          url: suite.url + path,
          headers,
          prefix,
          suffix: headers === JSON_TYPE ? '"}' : '',
          size: OAUTH_BODY_BYTES + 1,
          chunked,
        })
        expect(answer.status, path).toBe(413)
        expect(answer.headers['cache-control']).toBe('no-store')
        expect(JSON.parse(answer.text)).toEqual({
          error: 'invalid_request',
          error_description: `The request body is larger than ${OAUTH_BODY_BYTES} bytes.`,
        })
      }
    }
    // Handed to oidc-provider whole: a chunked registration registers, a token request is read.
    const registration = JSON.stringify({
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'none',
    })
    const registered = await upload({
      url: `${suite.url}/oauth/register`,
      headers: JSON_TYPE,
      prefix: registration,
      size: registration.length,
      chunked: true,
      piece: 16,
    })
    expect(registered.status).toBe(201)
    const { client_id } = JSON.parse(registered.text)
    const token = `grant_type=refresh_token&refresh_token=nope&client_id=${client_id}`
    const refused = await upload({
      url: `${suite.url}/oauth/token`,
      headers: FORM,
      prefix: token,
      size: token.length,
      chunked: true,
      piece: 16,
    })
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.text)).toMatchObject({ error: 'invalid_grant' })
  })

  it("the sandbox's forms: over 16 KiB, the provider's 413, on either origin", async () => {
    const { url, googleUrl } = suite.sandbox
    for (const target of [
      `${url}/oauth/token`,
      `${url}/oauth/revoke`,
      `${url}/account/sign-in`,
      `${googleUrl}/token`,
      `${googleUrl}/revoke`,
    ]) {
      for (const chunked of [false, true]) {
        const answer = await upload({
          url: target,
          headers: FORM,
          prefix: 'token=x&pad=',
          size: SANDBOX_FORM_BYTES + 1,
          chunked,
        })
        expectProviderTooLarge(answer, SANDBOX_FORM_BYTES)
      }
    }
  })

  it("the sandbox's JSON bodies: over 1 MiB, the provider's 413, in Google's shape on Google's origin", async () => {
    const { url, googleUrl } = suite.sandbox
    const auth = { ...JSON_TYPE, authorization: `Bearer ${sandboxToken}` }
    for (const target of [
      `${url}/tasks/v1/lists`,
      `${url}/_sandbox/tokens`,
      `${googleUrl}/tasks/v1/users/@me/lists`,
    ]) {
      for (const chunked of [false, true]) {
        const answer = await upload({
          url: target,
          headers: auth,
          prefix: '{"title":"',
          suffix: '"}',
          size: SANDBOX_BODY_BYTES + 1,
          chunked,
        })
        expectProviderTooLarge(answer, SANDBOX_BODY_BYTES)
        if (target.startsWith(googleUrl)) {
          expect(JSON.parse(answer.text).error.errors[0]).toMatchObject({ reason: 'invalid' })
        }
      }
    }
  })
})

/** One body reader of either program, and what an ordinary body of it looks like. */
interface Reader {
  name: string
  bound: number
  upload: () => Omit<Upload, 'size' | 'chunked' | 'piece' | 'pauseMs' | 'agent'>
  /** What the reader answers past its bound, in its program's shape. */
  tooLarge: (answer: UploadAnswer) => void
  /** What it answers to the same body within its bound, read and acted on. */
  ordinary: (answer: UploadAnswer) => void
  /** Where the kept-alive client's next request goes. */
  health: () => string
}

const connectorHealth = () => `${suite.url}/healthz`
const sandboxHealth = () => `${suite.sandbox.url}/healthz`
const googleHealth = () => `${suite.sandbox.googleUrl}/healthz`

const READERS: Reader[] = [
  {
    name: "the connector's forms (4 KiB)",
    bound: FORM_BYTES,
    upload: () => ({
      url: `${suite.url}/connections/sign-in`,
      headers: FORM,
      prefix: 'csrf=x&pad=',
    }),
    tooLarge: (answer) => expectPage(answer, 413),
    ordinary: (answer) => expect(answer.text).toContain('This form is out of date'),
    health: connectorHealth,
  },
  {
    name: 'the consent form (4 KiB)',
    bound: FORM_BYTES,
    upload: () => ({
      url: consent.url,
      headers: { ...FORM, cookie: consent.cookie },
      prefix: 'csrf=x&pad=',
    }),
    tooLarge: (answer) => expectPage(answer, 413),
    ordinary: (answer) => expect(answer.text).toContain('This form is out of date'),
    health: connectorHealth,
  },
  {
    name: "the connector's MCP endpoints (4 MiB)",
    bound: MCP_BYTES,
    upload: () => ({
      url: `${suite.url}/tasks/mcp`,
      headers: { ...MCP_HEADERS, authorization: `Bearer ${mcpToken}` },
      prefix: '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"',
      suffix: '"}}}',
    }),
    tooLarge: (answer) => {
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } })
    },
    ordinary: (answer) => expect(answer.status).toBe(200),
    health: connectorHealth,
  },
  {
    name: "the connector's authorization server (56 KiB)",
    bound: OAUTH_BODY_BYTES,
    upload: () => ({
      url: `${suite.url}/oauth/token`,
      headers: FORM,
      prefix: 'grant_type=refresh_token&refresh_token=x&client_id=x&pad=',
    }),
    tooLarge: (answer) => {
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.text)).toMatchObject({ error: 'invalid_request' })
    },
    ordinary: (answer) => expect(JSON.parse(answer.text).error).toBe('invalid_client'),
    health: connectorHealth,
  },
  {
    name: "the sandbox's forms (16 KiB)",
    bound: SANDBOX_FORM_BYTES,
    upload: () => ({
      url: `${suite.sandbox.url}/oauth/token`,
      headers: FORM,
      prefix: 'grant_type=refresh_token&refresh_token=x&pad=',
    }),
    tooLarge: (answer) => expectProviderTooLarge(answer, SANDBOX_FORM_BYTES),
    ordinary: (answer) => expect(answer.status).toBe(400),
    health: sandboxHealth,
  },
  {
    name: "the sandbox's JSON bodies (1 MiB)",
    bound: SANDBOX_BODY_BYTES,
    upload: () => ({
      url: `${suite.sandbox.url}/tasks/v1/lists`,
      headers: { ...JSON_TYPE, authorization: `Bearer ${sandboxToken}` },
      prefix: '{"title":"',
      suffix: '"}',
    }),
    tooLarge: (answer) => expectProviderTooLarge(answer, SANDBOX_BODY_BYTES),
    ordinary: (answer) => expect(answer.text).toContain('title'),
    health: sandboxHealth,
  },
  {
    name: "the sandbox's control API (1 MiB)",
    bound: SANDBOX_BODY_BYTES,
    upload: () => ({
      url: `${suite.sandbox.url}/_sandbox/tokens`,
      headers: JSON_TYPE,
      prefix: '{"user":"',
      suffix: '"}',
    }),
    tooLarge: (answer) => expectProviderTooLarge(answer, SANDBOX_BODY_BYTES),
    ordinary: (answer) => expect(answer.status).toBe(400),
    health: sandboxHealth,
  },
  {
    name: "the sandbox's Google forms (16 KiB)",
    bound: SANDBOX_FORM_BYTES,
    upload: () => ({
      url: `${suite.sandbox.googleUrl}/token`,
      headers: FORM,
      prefix: 'grant_type=refresh_token&refresh_token=x&pad=',
    }),
    tooLarge: (answer) => expectProviderTooLarge(answer, SANDBOX_FORM_BYTES),
    ordinary: (answer) => expect(answer.status).toBe(400),
    health: googleHealth,
  },
  {
    name: "the sandbox's Google forwarding (1 MiB)",
    bound: SANDBOX_BODY_BYTES,
    upload: () => ({
      url: `${suite.sandbox.googleUrl}/tasks/v1/users/@me/lists`,
      headers: { ...JSON_TYPE, authorization: `Bearer ${sandboxToken}` },
      prefix: '{"title":"',
      suffix: '"}',
    }),
    tooLarge: (answer) => expectProviderTooLarge(answer, SANDBOX_BODY_BYTES),
    ordinary: (answer) => expect(answer.text).toContain('title'),
    health: googleHealth,
  },
]

/** Sizes around a bound: just under, at, just over, and far over it. */
const sizesAround = (bound: number) => fc.constantFrom(bound - 1, bound, bound + 1, bound * 3)

describe('fuzzed: sizes around each bound, declared or chunked, fast or slow', () => {
  for (const reader of READERS) {
    it(`${reader.name}: 413 past the bound, never a 5xx, and the connection serves on or says close`, async () => {
      await fc.assert(
        fc.asyncProperty(
          sizesAround(reader.bound),
          fc.boolean(),
          fc.constantFrom('one write', 'slow pieces'),
          async (size, chunked, pace) => {
            const agent = keptAlive()
            try {
              const answer = await upload({
                ...reader.upload(),
                size,
                chunked,
                agent,
                // Slowly: eight pieces to the bound, a pause between each.
                ...(pace === 'one write'
                  ? { piece: size }
                  : { piece: Math.ceil(reader.bound / 8), pauseMs: 3 }),
              })
              expect(answer.status).toBeLessThan(500)
              if (size > reader.bound) reader.tooLarge(answer)
              else reader.ordinary(answer)
              const after = await next(reader.health(), agent)
              expect(after.status).toBe(200)
              // A kept connection serves the next request; one that is not was announced.
              expect(answer.closes || after.reusedSocket).toBe(true)
            } finally {
              agent.destroy()
            }
          },
        ),
        { numRuns: 12 },
      )
    })
  }
})
