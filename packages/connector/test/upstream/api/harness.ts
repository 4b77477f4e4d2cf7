import { pino, type Logger } from 'pino'
import { Agent, type Dispatcher } from 'undici'
import { expect, vi } from 'vitest'
import { sandboxUpstream } from '../../../src/connector/sandbox-upstream.js'
import {
  UpstreamApi,
  UpstreamApiError,
  type ApiGrant,
  type UpstreamApiDeps,
} from '../../../src/upstream/api/index.js'
import type { sandboxForSuite } from '@countersign/sandbox/testing'

/**
 * The caller's side of the API client's tests: an UpstreamApi against the suite's sandbox (the
 * real provider over HTTP), a grant stand-in that hands out tokens from the sandbox's control
 * API, and the sandbox's fault injection and request log.
 */

export type Sandbox = ReturnType<typeof sandboxForSuite>

export { fault, requestCount, requestsSince } from '../harness.js'

export function apiFor(sandbox: Sandbox, deps: Partial<UpstreamApiDeps> = {}): UpstreamApi {
  return new UpstreamApi({
    apiBase: sandboxUpstream(sandbox.url).apiBase,
    log: pino({ level: 'silent' }),
    ...deps,
  })
}

/**
 * A grant whose token is a real sandbox token of `user`, whose calls are the person `user`'s;
 * after a 401 it gets a fresh one.
 */
export async function grantFor(
  sandbox: Pick<Sandbox, 'token'>,
  user: string,
  scopes: string[] = ['tasks'],
): Promise<ApiGrant & { token: string; afterUnauthorized: ReturnType<typeof vi.fn> }> {
  const token = await sandbox.token(user, scopes)
  const afterUnauthorized = vi.fn(async (_rejected: string) => sandbox.token(user, scopes))
  return {
    token,
    afterUnauthorized,
    upstreamAccessToken: async () => token,
    upstreamTokenAfterUnauthorized: afterUnauthorized,
    person: user,
  }
}

/** The UpstreamApiError a promise rejects with (fails the test on anything else). */
export async function apiError(promise: Promise<unknown>): Promise<UpstreamApiError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected an UpstreamApiError, got a result: ${JSON.stringify(value)}`)
    },
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(UpstreamApiError)
  return error as UpstreamApiError
}

/** A logger whose lines the test can read. */
export function capturedLog(): { log: Logger; lines: string[] } {
  const lines: string[] = []
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) })
  return { log, lines }
}

/** A path template and its base: the task API under `/tasks/v1`. */
export const TASKS = '/tasks/v1'

let users = 0
/** A user name of its own for each test (the sandbox keeps state across a file's tests). */
export const newUser = (prefix = 'api') => `${prefix}-${process.pid}-${++users}`

/**
 * An undici Agent like the client's own, whose next request can be held before it leaves until
 * the test lets it go: a call in flight for as long as the test needs, whatever the machine's
 * speed.
 */
export class HoldingAgent extends Agent {
  #held: { sent: () => void; released: Promise<void> } | undefined

  /** Holds the next request: `sent` resolves once it is on its way, `release` lets it go. */
  holdNext(): { sent: Promise<void>; release: () => void } {
    let sent!: () => void
    let release!: () => void
    const sending = new Promise<void>((resolve) => (sent = resolve))
    this.#held = { sent, released: new Promise<void>((resolve) => (release = resolve)) }
    return { sent: sending, release }
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
    const held = this.#held
    if (!held) return super.dispatch(options, handler)
    this.#held = undefined
    held.sent()
    void held.released.then(() => super.dispatch(options, handler))
    return true
  }
}
