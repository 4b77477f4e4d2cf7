import { randomInt } from 'node:crypto'
import type { JSONRPCMessage } from '@modelcontextprotocol/server'
import type { Logger } from 'pino'
import type { Channel } from '../store/open.js'

/**
 * The questions a 2025-11-25 client is asked in its own interface, and its answers. The SDK asks
 * (`elicitation/create` on the stream of the client's `tools/call`, handler.ts); the client
 * POSTs each answer as a JSON-RPC response, which may reach any replica. That replica hands it
 * to the one that asked: at once if it asked itself, else through the store's channel between
 * replicas (LISTEN and NOTIFY on PostgreSQL).
 *
 * Answers are routed by the client's session (legacy-sessions.ts) and the question's JSON-RPC id.
 * Each asking request numbers its questions from a random start of its own, so that two calls of
 * one session waiting at once, on one replica or two, never take each other's answers.
 */

/** A JSON-RPC response: a client's answer to a question. */
export type Answer = Extract<JSONRPCMessage, { result: unknown } | { error: unknown }>

/** Ids a request's questions are numbered from: far apart, for concurrent requests of a session. */
const ID_SPACE = 2 ** 40
/** Questions one request asks at most (the SDK's own bound of rounds). */
export const QUESTIONS_PER_REQUEST = 8

export const ANSWERS_CHANNEL = 'countersign_mcp_answers'

/**
 * How long a question waits for its answer. Clients on the MCP TypeScript SDK's defaults give up
 * on a call after 60 s (Claude Desktop, which declares questions it never shows, does exactly
 * that): a question unanswered by then is let go first, and the result links the change's page.
 */
export const ANSWER_WAIT_MS = 45_000

interface Waiting {
  first: number
  deliver: (answer: Answer) => void
}

export class LegacyQuestions {
  /** Session key -> the requests of that session that may ask, on this replica. */
  readonly #waiting = new Map<string, Set<Waiting>>()
  #subscribed: Promise<unknown> | undefined
  /** One listener for the life of the replica, however often subscribing is tried. */
  readonly #hear = (payload: string) => this.#heard(payload)

  constructor(
    private readonly channel: Channel,
    private readonly log: Logger,
    /** How long a question waits for its answer (ANSWER_WAIT_MS; shorter in tests). */
    readonly waitMs = ANSWER_WAIT_MS,
  ) {}

  /**
   * A request of `sessionKey` that may ask: its questions' ids start at the returned `first`, and
   * their answers go to `deliver` until `done()`.
   */
  async open(sessionKey: string, deliver: (answer: Answer) => void) {
    this.#subscribed ??= this.channel.subscribe(this.#hear)
    try {
      await this.#subscribed
    } catch (error) {
      // Tried again by the next request; this one cannot be answered across replicas, so it
      // asks nothing in the client, and a change goes to its page (undefined).
      this.#subscribed = undefined
      this.log.warn({ err: error }, 'could not listen for answers from other replicas')
      return undefined
    }
    const waiting = { first: randomInt(1, ID_SPACE), deliver }
    let session = this.#waiting.get(sessionKey)
    if (!session) this.#waiting.set(sessionKey, (session = new Set()))
    session.add(waiting)
    return {
      first: waiting.first,
      done: () => {
        session.delete(waiting)
        if (!session.size && this.#waiting.get(sessionKey) === session)
          this.#waiting.delete(sessionKey)
      },
    }
  }

  /** Answers a client of `sessionKey` POSTed: to the request that asked, here or elsewhere. */
  async answer(sessionKey: string, answers: readonly Answer[]): Promise<void> {
    for (const answer of answers) {
      if (this.#deliver(sessionKey, answer)) continue
      try {
        await this.channel.publish(JSON.stringify({ session: sessionKey, answer }))
      } catch (error) {
        // Too large for the channel, or the channel down: the question times out, and its
        // change waits on its page.
        this.log.warn({ err: error }, 'a client’s answer could not be passed to another replica')
      }
    }
  }

  #heard(payload: string) {
    try {
      const { session, answer } = JSON.parse(payload) as { session: string; answer: Answer }
      this.#deliver(session, answer)
    } catch (error) {
      this.log.warn({ err: error }, 'an answer from another replica could not be read')
    }
  }

  /** Whether a request of this replica asked the question `answer` answers; if so, it has it. */
  #deliver(sessionKey: string, answer: Answer): boolean {
    const id = answer.id
    if (typeof id !== 'number') return false
    for (const waiting of this.#waiting.get(sessionKey) ?? []) {
      if (id >= waiting.first && id < waiting.first + QUESTIONS_PER_REQUEST) {
        waiting.deliver(answer)
        return true
      }
    }
    return false
  }
}
