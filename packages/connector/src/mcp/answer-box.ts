import type { Store } from '../store/open.js'
import type { Vault } from '../vault/vault.js'
import { againIfConnectionLost } from '../store/unreachable.js'
import type { Answer } from './answer.js'

/**
 * Where a 2025-11-25 client's answer waits for the replica that asked (legacy-questions.ts),
 * across replicas on PostgreSQL. The channel between replicas only wakes the asking one; what it
 * carries would be lost while that replica's listening connection is down (a database restart),
 * so the answer itself is kept here, sealed by the vault and bound to its session and question,
 * until the asking request takes it, or it expires with the question. A replica that cannot put
 * an answer here tells the client so (503): no answer is dropped silently.
 */
export class AnswerBox {
  #lastSweep = 0

  constructor(
    private readonly store: Store,
    private readonly vault: Vault,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps `answer` for the request of `session` that asked it, for `keepMs`. */
  async put(session: string, answer: Answer & { id: number }, keepMs: number): Promise<void> {
    // Kept once: a second try after a lost connection keeps the first's row.
    const sealed = this.vault.seal(JSON.stringify(answer), binding(session, answer.id))
    await againIfConnectionLost(() => this.#insert(session, answer.id, sealed, keepMs))
  }

  #insert(session: string, id: number, sealed: string, keepMs: number) {
    return this.store.db
      .insertInto('mcp_answers')
      .values({
        session,
        question_id: id,
        answer: sealed,
        expires_at: this.now() + keepMs,
      })
      .onConflict((conflict) => conflict.columns(['session', 'question_id']).doNothing())
      .execute()
  }

  /** Takes the answers kept for the questions `first` to `first + count - 1` of `session`. */
  async take(session: string, first: number, count: number): Promise<Answer[]> {
    const rows = await this.store.db
      .deleteFrom('mcp_answers')
      .where('session', '=', session)
      .where('question_id', '>=', first)
      .where('question_id', '<', first + count)
      .returning(['question_id', 'answer', 'expires_at'])
      .execute()
    await this.#sweepSoon()
    const now = this.now()
    return rows
      .filter((row) => row.expires_at > now)
      .map((row) => JSON.parse(this.vault.open(row.answer, binding(session, row.question_id))))
  }

  /** Answers nobody took: gone once their question would have stopped waiting. */
  async #sweepSoon() {
    const now = this.now()
    if (now - this.#lastSweep < 60_000) return
    this.#lastSweep = now
    await this.store.db.deleteFrom('mcp_answers').where('expires_at', '<=', now).execute()
  }
}

const binding = (session: string, id: number) => `mcp answer ${session} ${id}`
