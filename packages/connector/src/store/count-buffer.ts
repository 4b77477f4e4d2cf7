/**
 * Counts kept in memory and written to a shared table in batches, about once a second: the tool
 * call limit (rate-limits.ts) and the fair shares of the provider's quotas (src/quotas) count on
 * every call without a statement on its path. `write` adds a batch in one statement and reads back
 * the totals it needs; a failed batch is kept and added to the next.
 *
 * What is counted and not yet written stays visible (`unwritten`), so a decision reads what this
 * process counted even while a batch is on its way.
 */

export interface CountBufferOptions {
  /** Writes one batch: each id with what was counted of it since the last batch. */
  write: (counts: ReadonlyMap<string, number>) => Promise<void>
  /** How long after the first count a batch is written. */
  everyMs: number
  /** A batch could not be written: it is kept for the next. */
  onError: (error: unknown) => void
  /** After a batch is written and no longer counted as unwritten (what watches the totals). */
  written?: () => Promise<void>
}

export class CountBuffer {
  readonly #options: CountBufferOptions
  /** Counted, waiting for the next batch. */
  readonly #pending = new Map<string, number>()
  /** In the batch being written. */
  readonly #sending = new Map<string, number>()
  #unwritten = 0
  #timer: NodeJS.Timeout | undefined
  #writing: Promise<void> | undefined

  constructor(options: CountBufferOptions) {
    this.#options = options
  }

  /** Counts `n` for `id`; the next batch writes it. */
  add(id: string, n = 1): void {
    this.#pending.set(id, (this.#pending.get(id) ?? 0) + n)
    this.#unwritten += n
    this.#timer ??= setTimeout(() => void this.flush(), this.#options.everyMs).unref()
  }

  /** What was counted of `id` and is not written yet. */
  unwritten(id: string): number {
    return (this.#pending.get(id) ?? 0) + (this.#sending.get(id) ?? 0)
  }

  /** What was counted of every id and is not written yet. */
  get unwrittenTotal(): number {
    return this.#unwritten
  }

  /** Writes what is pending now, one batch at a time; a failure is kept for the next batch. */
  flush(): Promise<void> {
    this.#writing ??= this.#write().finally(() => (this.#writing = undefined))
    return this.#writing
  }

  async #write(): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#pending.size === 0) return
    const batch = new Map(this.#pending)
    this.#pending.clear()
    for (const [id, n] of batch) this.#sending.set(id, n)
    try {
      await this.#options.write(batch)
    } catch (error) {
      for (const [id, n] of batch) this.#pending.set(id, (this.#pending.get(id) ?? 0) + n)
      this.#sending.clear()
      this.#timer ??= setTimeout(() => void this.flush(), this.#options.everyMs).unref()
      this.#options.onError(error)
      return
    }
    // The write has put what it read back in place: the batch is counted there now.
    this.#sending.clear()
    for (const n of batch.values()) this.#unwritten -= n
    await this.#options.written?.().catch(() => {})
  }
}
