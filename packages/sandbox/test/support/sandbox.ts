import { afterAll, beforeAll } from 'vitest'
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/server/start.js'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

/** A sandbox on a free port with an in-memory store, started for one test file. */
export function sandboxForSuite(options: Partial<SandboxOptions> = {}) {
  let running: RunningSandbox | undefined
  beforeAll(async () => {
    running = await startSandbox({ port: 0, dataDir: ':memory:', ...options })
  })
  afterAll(async () => {
    await running?.close()
  })

  const harness = {
    get running(): RunningSandbox {
      if (!running) throw new Error('the sandbox is not started yet: use it inside a test or hook')
      return running
    },
    get url() {
      return harness.running.url
    },
    /** The Google dialect's origin G (docs/sandbox.md, "Google dialect"). */
    get googleUrl() {
      return harness.running.googleUrl
    },
    get db() {
      return harness.running.db
    },

    /** An access token for `user` from the control API. */
    async token(
      user: string,
      scopes: string[] = ['tasks'],
      extra: Record<string, unknown> = {},
    ): Promise<string> {
      const res = await harness.request('POST', '/_sandbox/tokens', {
        body: { user, scopes, ...extra },
      })
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`)
      return res.body.access_token as string
    },

    /** One HTTP request to the sandbox's origin S; JSON bodies are encoded and decoded. */
    request<T = any>(method: string, path: string, init: SendInit = {}) {
      return send<T>(harness.url, method, path, init)
    },

    /** The same, to the Google dialect's origin G. */
    googleRequest<T = any>(method: string, path: string, init: SendInit = {}) {
      return send<T>(harness.googleUrl, method, path, init)
    },
  }
  return harness
}

interface SendInit {
  token?: string
  body?: unknown
  rawBody?: string
  headers?: Record<string, string>
}

async function send<T>(
  origin: string,
  method: string,
  path: string,
  init: SendInit,
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...init.headers }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  let body: string | undefined = init.rawBody
  if (init.body !== undefined) {
    body = JSON.stringify(init.body)
    headers['content-type'] ??= 'application/json'
  }
  const res = await fetch(origin + path, { method, headers, body, redirect: 'manual' })
  const text = await res.text()
  let parsed: unknown = undefined
  if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text)
  return { status: res.status, headers: res.headers, body: parsed as T, text }
}

/** Asserts the provider's error shape and returns it, for precise checks. */
export function providerError(res: ApiResponse) {
  const error = res.body?.error
  if (!error || typeof error.message !== 'string' || !Array.isArray(error.errors)) {
    throw new Error(`expected the provider's error shape, got ${res.status}: ${res.text}`)
  }
  return error as {
    code: number
    message: string
    status: string
    errors: { reason: string; message: string; domain: string }[]
  }
}
