import type { IBreaker } from 'cockatiel'

/**
 * Whether the provider is down for everyone, or only failing one person's calls: the evidence
 * the provider's circuit breaker opens on (policy.ts, docs/decisions.md "Provider faults").
 *
 * It keeps, for each person who called lately, when their last call ended and how many of their
 * calls in a row have failed with a provider fault (5xx, timeout, no connection) after their
 * retries. The provider is down when, among the people who called in the last `windowMs`:
 *
 * - none had their last call answered (a 2xx, or any 4xx: the provider is answering them), and
 * - at least two have each had two calls in a row fail.
 *
 * So a blip, which costs a call at most here and there, never opens the breaker; one person's
 * broken property or site, however many calls they make, never shuts out anyone else (they are
 * one person, and the others are answered); and an outage, which fails everyone's calls, is seen
 * within a couple of calls each. Envoy's outlier detection counts consecutive 5xx per host the
 * same way; here a person plays the host.
 */

/** People remembered at most; the oldest are forgotten first (they are past the window anyway). */
const MAX_PEOPLE = 10_000
/** Failed calls in a row that make a person count as failing. */
const FAILING_AFTER = 2
/** Failing people needed before the provider is thought down. */
const MIN_FAILING_PEOPLE = 2

interface LastCalls {
  /** Date.now() when their last call ended. */
  at: number
  /** Their calls in a row that failed with a provider fault; 0 after an answer. */
  failures: number
}

export class OutageEvidence implements IBreaker {
  readonly #people = new Map<string, LastCalls>()

  constructor(private readonly windowMs: number) {}

  /** The provider answered one of `person`'s calls (whatever it said). */
  answered(person: string, now = Date.now()): void {
    this.#remember(person, { at: now, failures: 0 })
  }

  /** One of `person`'s calls failed with a provider fault, after its retries. */
  failed(person: string, now = Date.now()): void {
    const last = this.#people.get(person)
    const before = last && now - last.at <= this.windowMs ? last.failures : 0
    this.#remember(person, { at: now, failures: before + 1 })
  }

  /** Whether the evidence says the provider is down for everyone who calls it now. */
  down(now = Date.now()): boolean {
    let failing = 0
    for (const [person, last] of this.#people) {
      if (now - last.at > this.windowMs) {
        this.#people.delete(person)
        continue
      }
      if (last.failures === 0) return false
      if (last.failures >= FAILING_AFTER) failing++
    }
    return failing >= MIN_FAILING_PEOPLE
  }

  #remember(person: string, last: LastCalls) {
    // Deleted first, so that the map's order is the order of last calls, oldest first.
    this.#people.delete(person)
    this.#people.set(person, last)
    if (this.#people.size > MAX_PEOPLE) this.#people.delete(this.#people.keys().next().value!)
  }

  // cockatiel's IBreaker: the circuit opens on a failed call when the evidence says so. The
  // evidence itself is recorded by the policy, which knows whose call it was.
  state: unknown = null

  success(): void {}

  failure(): boolean {
    return this.down()
  }
}
