/** One figure of `npm run bench`: a JSON object a line (docs/design.md, "Performance"). */
export function emit(name: string, value: number, unit: string): void {
  console.log(JSON.stringify({ name, value: Number(value.toFixed(3)), unit }))
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) throw new Error('no samples')
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export const p50 = (samples: number[]) => percentile(samples, 50)

/** Milliseconds one call takes. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}
