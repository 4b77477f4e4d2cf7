import { isRate } from './format.js'
import type { Metric } from './table.js'

/** What decides a series' scale: its metric and its values. */
export interface ScaledSeries {
  metric: Metric
  values: readonly (number | null)[]
}

/**
 * Which scale each series is drawn on: series of one unit whose peaks are within three times of
 * each other share one (users and sessions), any other has its own (clicks and impressions, a
 * rate beside a count), or lines of like size would lie on top of each other.
 */
export function scaleKeys(series: readonly ScaledSeries[]): string[] {
  const scales: { key: string; type: string; peak: number }[] = []
  return series.map((s) => {
    const peak = Math.max(0, ...s.values.map((v) => v ?? 0))
    const type =
      s.metric.name === 'position' ? 'position' : isRate(s.metric) ? 'rate' : s.metric.type
    const near = scales.find((k) => k.type === type && peak <= k.peak * 3 && k.peak <= peak * 3)
    if (near) return near.key
    const key = `y${scales.length}`
    scales.push({ key, type, peak })
    return key
  })
}
