import { timedOnce, type Target } from '../load.js'
import { emit, percentile } from '../stats.js'

/**
 * Calls at a given concurrency, each timed until its whole answer is read: `concurrency`
 * workers, each sending the next call as soon as its last one is answered. Every call must be
 * the success it should be, or the bench fails: a fast error is never counted as a fast call.
 */
export async function batch(
  next: () => Target,
  concurrency: number,
  calls: number,
): Promise<number[]> {
  const times: number[] = []
  let sent = 0
  const worker = async () => {
    while (sent < calls) {
      sent++
      times.push(await timedOnce(next()))
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return times
}

/** One call of each at a time, interleaved, so that drift hits both alike. */
export async function interleaved(
  first: () => Target,
  second: () => Target,
  calls: number,
): Promise<[number[], number[]]> {
  const times: [number[], number[]] = [[], []]
  for (let i = 0; i < calls; i++) {
    times[0].push(await timedOnce(first()))
    times[1].push(await timedOnce(second()))
  }
  return times
}

/** `call_{p50,p95,p99}_ms_c{concurrency}_{path}`. */
export function emitLatency(concurrency: number, path: 'direct' | 'connector', times: number[]) {
  for (const p of [50, 95, 99])
    emit(`call_p${p}_ms_c${concurrency}_${path}`, percentile(times, p), 'ms')
}
