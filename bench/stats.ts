export interface Figure {
  name: string
  value: number
  unit: string
  /** What the figure is of, where one name has several (`{ holder: 'oidc-provider' }`). */
  [label: string]: string | number | boolean
}

/** Every figure printed so far in this run, for the goals read off them last (bench/goals.ts). */
export const emitted: Figure[] = []

/** One figure of `npm run bench`: a JSON object a line (docs/performance.md, "The figures"). */
export function emit(
  name: string,
  value: number,
  unit: string,
  labels: Record<string, string | number | boolean> = {},
): void {
  const figure: Figure = { name, value: Number(value.toFixed(3)), unit, ...labels }
  emitted.push(figure)
  console.log(JSON.stringify(figure))
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
