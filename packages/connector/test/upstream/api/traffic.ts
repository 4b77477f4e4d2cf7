import { pino, type Logger } from 'pino'
import type { ApiCall, ApiGrant, UpstreamApi } from '../../../src/upstream/api/index.js'
import { UpstreamApiError } from '../../../src/upstream/api/index.js'

/**
 * Traffic as an operator's people make it: workers, each calling for one person again and again
 * through one API client (one connector), and the breaker's moves as the operator's log shows
 * them. Every call is recorded with whose it was, how it ended, and when it started and ended on
 * one clock with the moves, so that a test asserts the order of what happened and what the
 * people got, never how fast the machine is: traffic goes on until enough calls have been made,
 * not for a time.
 */

export interface Caller {
  name: string
  grant: ApiGrant
  call: ApiCall
}

export interface CallRecord {
  person: string
  /** performance.now() when the call started and ended. */
  started: number
  ended: number
  error?: UpstreamApiError
}

export type Until = (records: readonly CallRecord[]) => boolean

export interface Traffic {
  /** Resolves once `until` holds of the calls made so far (checked as each call ends). */
  when(until: Until): Promise<void>
  /** Ends the traffic: no worker starts another call; resolves with every call once all ended. */
  stop(): Promise<CallRecord[]>
}

/** `workers` workers, worker i calling for `pick(i)`, until stopped. */
export function traffic(
  api: UpstreamApi,
  callers: readonly Caller[],
  { workers, pick = (i) => callers[i % callers.length]! }: TrafficOptions,
): Traffic {
  const records: CallRecord[] = []
  const waiting: { until: Until; reached: () => void }[] = []
  let stopped = false
  const worker = async (caller: Caller) => {
    while (!stopped) {
      const record: CallRecord = { person: caller.name, started: performance.now(), ended: 0 }
      try {
        await api.call(caller.call, caller.grant)
      } catch (error) {
        if (!(error instanceof UpstreamApiError)) throw error
        record.error = error
      }
      record.ended = performance.now()
      records.push(record)
      for (const wait of waiting.filter((w) => w.until(records))) {
        waiting.splice(waiting.indexOf(wait), 1)
        wait.reached()
      }
      // A call refused at once resolves without leaving the microtask queue: yield, so that
      // timers and the other workers run, and let a refused person pause a moment, as a client
      // shown an error would.
      await new Promise((resolve) => setTimeout(resolve, record.error ? 20 : 0))
    }
  }
  const done = Promise.all(Array.from({ length: workers }, (_, i) => worker(pick(i)))).then(
    () => records,
  )
  return {
    when: (until) =>
      until(records)
        ? Promise.resolve()
        : new Promise<void>((reached) => waiting.push({ until, reached })),
    stop() {
      stopped = true
      return done
    },
  }
}

interface TrafficOptions {
  workers: number
  pick?: (worker: number) => Caller
}

/** The calls that failed, and those that did not. */
export const failures = (records: readonly CallRecord[]) => records.filter((r) => r.error)
export const successes = (records: readonly CallRecord[]) => records.filter((r) => !r.error)

export interface BreakerMove {
  state: 'open' | 'closed'
  /** performance.now() when it was logged. */
  at: number
}

/**
 * The breaker's moves as the API client logs them (one warning each: the provider found down,
 * the provider answering again), on the traffic's clock: give `log` to the client.
 */
export function breakerMoves(): {
  log: Logger
  moves: BreakerMove[]
  /** Resolves with the first move to `state` from now on. */
  next(state: BreakerMove['state']): Promise<BreakerMove>
} {
  const moves: BreakerMove[] = []
  const waiting: { state: BreakerMove['state']; moved: (move: BreakerMove) => void }[] = []
  const write = (line: string) => {
    const { msg } = JSON.parse(line) as { msg: string }
    const state = /down for everyone/.test(msg) ? 'open' : /answers again/.test(msg) ? 'closed' : 0
    if (!state) return
    const move = { state, at: performance.now() } as const
    moves.push(move)
    for (const wait of waiting.filter((w) => w.state === state)) {
      waiting.splice(waiting.indexOf(wait), 1)
      wait.moved(move)
    }
  }
  return {
    log: pino({ level: 'warn' }, { write }),
    moves,
    next: (state) => new Promise((moved) => waiting.push({ state, moved })),
  }
}
