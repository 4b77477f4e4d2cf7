import { randomInt } from 'node:crypto'
import type { Logger } from 'pino'
import type { Channel } from '../store/open.js'
import type { Answer } from './answer.js'
import type { AnswerBox } from './answer-box.js'

/**
 * The questions a 2025-11-25 client is asked in its own interface, and its answers. The SDK asks
 * (`elicitation/create` on the stream of the client's `tools/call`, handler.ts); the client
 * POSTs each answer as a JSON-RPC response, which may reach any replica. That replica hands it
 * to the one that asked: at once if it asked itself, else through the store's channel between
 * replicas (LISTEN and NOTIFY on PostgreSQL).
 *
 * On PostgreSQL the answer itself waits in the store (answer-box.ts), and the channel only wakes
 * the asking replica, which also looks for its answers every second while it waits: an answer is
 * never lost while that replica's listening connection is down, and a replica that cannot keep
 * it tells the client so.
 *
 * Answers are routed by the client's session (legacy-sessions.ts) and the question's JSON-RPC id.
 * Each asking request numbers its questions from a random start of its own, so that two calls of
 * one session waiting at once, on one replica or two, never take each other's answers.
 */

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

/** While a question waits, its answer is looked for in the store this often (answer-box.ts). */
const LOOK_EVERY_MS = 1000

export class LegacyQuestions {
  /** Session key -> the requests of that session that may ask, on this replica. */
  readonly #waiting = new Map<string, Set<Waiting>>()
  #subscribed: Promise<unknown> | undefined
  /** One listener for the life of the replica, however often subscribing is tried. */
  readonly #hear = (payload: string) => this.#heard(payload)
  #looking: NodeJS.Timeout | undefined

  constructor(
    private readonly channel: Channel,
    private readonly log: Logger,
    /** How long a question waits for its answer (ANSWER_WAIT_MS; shorter in tests). */
    readonly waitMs = ANSWER_WAIT_MS,
    /** Where answers wait across replicas; unset (one process), they go by the channel alone. */
    private readonly box?: AnswerBox,
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
      // Tried again by the next request. Without a box, this one cannot be answered across
      // replicas, so it asks nothing in the client, and a change goes to its page (undefined);
      // with one, its answers are looked for there every second all the same.
      this.#subscribed = undefined
      this.log.warn({ err: error }, 'could not listen for answers from other replicas')
      if (!this.box) return undefined
    }
    const waiting = { first: randomInt(1, ID_SPACE), deliver }
    let session = this.#waiting.get(sessionKey)
    if (!session) this.#waiting.set(sessionKey, (session = new Set()))
    session.add(waiting)
    this.#lookNowAndThen()
    return {
      first: waiting.first,
      done: () => {
        session.delete(waiting)
        if (!session.size && this.#waiting.get(sessionKey) === session)
          this.#waiting.delete(sessionKey)
      },
    }
  }

  /**
   * Answers a client of `sessionKey` POSTed: to the request that asked, here or elsewhere. With a
   * box, an answer for another replica is kept there first: when it cannot be, this throws (the
   * client is told to send it again).
   */
  async answer(sessionKey: string, answers: readonly Answer[]): Promise<void> {
    for (const answer of answers) {
      if (this.#deliver(sessionKey, answer)) continue
      if (this.box) {
        if (typeof answer.id !== 'number') continue
        await this.box.put(sessionKey, { ...answer, id: answer.id }, this.waitMs)
        // Only a wake-up: the asking replica takes the answer from the box.
        await this.channel
          .publish(JSON.stringify({ session: sessionKey, id: answer.id }))
          .catch(() => {})
        continue
      }
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
      const { session, answer, id } = JSON.parse(payload) as {
        session: string
        answer?: Answer
        id?: number
      }
      if (answer) this.#deliver(session, answer)
      else if (typeof id === 'number') {
        const waiting = this.#waitingFor(session, id)
        if (waiting) void this.#take(session, waiting)
      }
    } catch (error) {
      this.log.warn({ err: error }, 'an answer from another replica could not be read')
    }
  }

  /** Every second while anyone waits, each waiting request looks in the box for its answers. */
  #lookNowAndThen() {
    if (!this.box || this.#looking) return
    this.#looking = setInterval(() => {
      if (!this.#waiting.size) {
        clearInterval(this.#looking)
        this.#looking = undefined
        return
      }
      for (const [session, waiting] of this.#waiting)
        for (const one of waiting) void this.#take(session, one)
    }, LOOK_EVERY_MS).unref()
  }

  async #take(session: string, waiting: Waiting) {
    try {
      for (const answer of await this.box!.take(session, waiting.first, QUESTIONS_PER_REQUEST))
        waiting.deliver(answer)
    } catch (error) {
      // The database away: looked for again in a second.
      this.log.debug({ err: error }, 'could not look for answers from other replicas')
    }
  }

  #waitingFor(sessionKey: string, id: number): Waiting | undefined {
    for (const waiting of this.#waiting.get(sessionKey) ?? [])
      if (id >= waiting.first && id < waiting.first + QUESTIONS_PER_REQUEST) return waiting
    return undefined
  }

  /** Whether a request of this replica asked the question `answer` answers; if so, it has it. */
  #deliver(sessionKey: string, answer: Answer): boolean {
    const id = answer.id
    if (typeof id !== 'number') return false
    const waiting = this.#waitingFor(sessionKey, id)
    waiting?.deliver(answer)
    return waiting !== undefined
  }
}
