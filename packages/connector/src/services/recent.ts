/**
 * What was read a moment ago, kept in memory for `ttlMs` at most, and for at most `max` keys
 * (the least recently written go first): a read the provider answered, reused while it is
 * fresh, never stored.
 */
export class Recent<V> {
  readonly #kept = new Map<string, { value: V; until: number }>()

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value written for `key` within the last `ttlMs`; undefined otherwise. */
  get(key: string): V | undefined {
    const kept = this.#kept.get(key)
    return kept && kept.until > this.now() ? kept.value : undefined
  }

  set(key: string, value: V): void {
    this.#kept.delete(key)
    if (this.#kept.size >= this.max) this.#kept.delete(this.#kept.keys().next().value!)
    this.#kept.set(key, { value, until: this.now() + this.ttlMs })
  }

  clear(): void {
    this.#kept.clear()
  }
}
