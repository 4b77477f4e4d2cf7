import type { ApiCall, ApiGrant, UpstreamApi } from '../../../src/upstream/api/index.js'
import { UpstreamApiError } from '../../../src/upstream/api/index.js'

/**
 * Traffic as an operator's people make it: workers, each calling for one person again and again
 * for a while, through one API client (one connector). Every call is recorded with when it
 * started and ended, whose it was and how it ended, so that a test asserts what the people got
 * (calls failed, seconds without service), never how fast the machine is.
 */

export interface Caller {
  name: string
  grant: ApiGrant
  call: ApiCall
}

export interface CallRecord {
  person: string
  /** Milliseconds since the traffic began. */
  started: number
  ended: number
  error?: UpstreamApiError
}

export interface Traffic {
  /** Milliseconds since the traffic began. */
  now(): number
  /** Resolves with every call once `untilMs` has passed (or `stop()` was called) and calls ended. */
  done: Promise<CallRecord[]>
  /** Ends the traffic now: no worker starts another call. */
  stop(): Promise<CallRecord[]>
}

/**
 * `workers` callers (worker i calls for `pick(i)`), until `untilMs` after the start or until
 * stopped.
 */
export function traffic(
  api: UpstreamApi,
  callers: readonly Caller[],
  { workers, untilMs = Infinity, pick = (i) => callers[i % callers.length]! }: TrafficOptions,
): Traffic {
  const start = performance.now()
  const now = () => performance.now() - start
  const records: CallRecord[] = []
  let stopped = false
  const worker = async (caller: Caller) => {
    while (!stopped && now() < untilMs) {
      const started = now()
      const record: CallRecord = { person: caller.name, started, ended: started }
      try {
        await api.call(caller.call, caller.grant)
      } catch (error) {
        if (!(error instanceof UpstreamApiError)) throw error
        record.error = error
      }
      record.ended = now()
      records.push(record)
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
    now,
    done,
    stop() {
      stopped = true
      return done
    },
  }
}

interface TrafficOptions {
  workers: number
  untilMs?: number
  pick?: (worker: number) => Caller
}

/** The share of calls that succeeded in each whole second (by when they ended). */
export function successBySecond(records: readonly { ended: number; error?: unknown }[]): number[] {
  const seconds: { ok: number; all: number }[] = []
  for (const { ended, error } of records) {
    const second = (seconds[Math.floor(ended / 1000)] ??= { ok: 0, all: 0 })
    second.all++
    if (!error) second.ok++
  }
  return [...seconds].map((s) => (s && s.all ? s.ok / s.all : 1))
}

/** Samples `read` every `everyMs` until stopped: the breaker's states while traffic runs. */
export function sample<T>(read: () => T, everyMs = 50) {
  const seen: { at: number; value: T }[] = []
  const start = performance.now()
  const timer = setInterval(
    () => seen.push({ at: performance.now() - start, value: read() }),
    everyMs,
  )
  return {
    stop() {
      clearInterval(timer)
      return seen
    },
  }
}
