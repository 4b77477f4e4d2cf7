import uPlot from 'uplot'
import type { Formats } from './format.js'
import { h } from './dom.js'
import { scaleKeys } from './scales.js'
import type { Metric } from './table.js'

/**
 * A chart drawn by uPlot: lines along time, or bars, each metric on its own scale (clicks and
 * impressions differ a hundredfold), the first two scales with an axis. Its key and its values
 * are the page's own text: the series toggles above it, and a readout of the point under the
 * cursor, which the arrow keys move as well as the mouse.
 */

export interface Series {
  label: string
  metric: Metric
  values: (number | null)[]
  /** Which of the palette's colours (1 to 6). */
  color: number
}

export interface ChartData {
  x: number[]
  /** How an x value reads on the axis (`step`: the axis's spacing, seconds on a time axis)… */
  axisLabel(x: number, step: number): string
  /** …and in the readout. */
  pointLabel(x: number): string
  /** Time along x (uPlot's time axis) or evenly spaced categories. */
  time: boolean
  series: Series[]
  bars?: boolean
  /** One scale for every series: one metric split by a dimension, compared line to line. */
  oneScale?: boolean
  /** What the chart shows, for people who cannot see it. */
  description: string
}

const HEIGHT = 180

export class Chart {
  readonly element: HTMLElement
  readonly #plotArea = h('div', { class: 'plot' })
  readonly #readout = h('p', { class: 'readout', 'aria-live': 'polite' })
  readonly #footer = h('div', { class: 'chart-footer' }, this.#readout)
  #plot: uPlot | undefined
  #data: ChartData | undefined

  constructor(private readonly formats: Formats) {
    this.element = h('div', { class: 'chart' }, this.#plotArea, this.#footer)
    this.#plotArea.tabIndex = 0
    this.#plotArea.setAttribute('role', 'group')
    this.#plotArea.addEventListener('keydown', (event) => this.#key(event))
    new ResizeObserver(() => this.#fit()).observe(this.#plotArea)
  }

  draw(data: ChartData): void {
    this.#data = data
    this.#plotArea.setAttribute(
      'aria-label',
      `${data.description}. Use the left and right arrow keys to read each point.`,
    )
    this.#plot?.destroy()
    this.#plot = undefined
    if (!data.series.length) {
      this.#readout.textContent = 'Choose at least one metric to draw.'
      return
    }
    const colors = palette()
    const scales: uPlot.Scales = {
      // Bars stand on categories: half a step either side, so the first and last show whole.
      x: data.bars
        ? { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }
        : { time: data.time },
    }
    const axes: uPlot.Axis[] = [this.#xAxis(data, colors)]
    const keys = data.oneScale ? data.series.map(() => 'y0') : scaleKeys(data.series)
    data.series.forEach((series, i) => {
      const key = keys[i]!
      if (scales[key]) return
      scales[key] = {
        auto: true,
        // A search position reads best with 1 at the top, as Search Console draws it.
        dir: series.metric.name === 'position' ? -1 : 1,
        range: (_u, min, max) => rangeOf(series.metric, min, max, data.bars),
      }
      if (axes.length < 3)
        axes.push(this.#yAxis(series.metric, key, axes.length === 1 ? 3 : 1, colors))
    })
    const options: uPlot.Options = {
      width: Math.max(this.#plotArea.clientWidth, 200),
      height: HEIGHT,
      scales,
      axes,
      legend: { show: false },
      // Days and hours in the data's own clock, whatever the person's time zone.
      ...(data.time && { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') }),
      cursor: { points: { size: 8 }, drag: { x: false, y: false } },
      series: [
        {},
        ...data.series.map((series, i) => ({
          label: series.label,
          scale: keys[i]!,
          stroke: colors.series[series.color - 1]!,
          width: 2,
          ...(data.bars && {
            fill: colors.series[series.color - 1]!,
            paths: uPlot.paths.bars!({ size: [0.7, 40] }),
          }),
          points: { show: data.x.length <= 1 },
          spanGaps: false,
        })),
      ],
      hooks: { setCursor: [(u) => this.#read(u.cursor.idx)] },
    }
    this.#plot = new uPlot(options, [data.x, ...data.series.map((s) => s.values)], this.#plotArea)
    this.#read(null)
  }

  /** A control beside the readout (the chart or table switch). */
  aside(control: HTMLElement): void {
    this.#footer.append(control)
  }

  /** Draws again in the theme's colours. */
  repaint(): void {
    if (this.#data) this.draw(this.#data)
  }

  #xAxis(data: ChartData, colors: Palette): uPlot.Axis {
    return {
      ...axisStyle(colors),
      size: 28,
      values: (u, splits, _axis, _space, step) => {
        const labels = splits.map((x) => data.axisLabel(x, step))
        return data.time ? labels : spaced(u, splits, labels)
      },
      ...(!data.time && { splits: () => data.x }),
      ...(data.bars && { grid: { show: false } }),
    }
  }

  #yAxis(metric: Metric, scale: string, side: number, colors: Palette): uPlot.Axis {
    return {
      ...axisStyle(colors),
      scale,
      side,
      size: 56,
      grid: { show: side === 3, stroke: colors.grid, width: 1 },
      values: (_u, splits) => splits.map((v) => this.formats.axis(metric, v)),
    }
  }

  /** The readout: the point under the cursor, or the whole span. */
  #read(idx: number | null | undefined): void {
    const data = this.#data
    if (!data) return
    if (idx === null || idx === undefined) {
      const first = data.x[0]
      const last = data.x.at(-1)
      this.#readout.textContent =
        first === undefined || last === undefined
          ? ''
          : `${data.pointLabel(first)} – ${data.pointLabel(last)}`
      return
    }
    const x = data.x[idx]
    if (x === undefined) return
    const values = data.series.map(
      (s) => `${s.label} ${this.formats.value(s.metric, s.values[idx] ?? null)}`,
    )
    this.#readout.textContent = `${data.pointLabel(x)}: ${values.join(' · ')}`
  }

  #key(event: KeyboardEvent): void {
    const plot = this.#plot
    const data = this.#data
    if (!plot || !data?.x.length) return
    const last = data.x.length - 1
    const now = plot.cursor.idx ?? -1
    const moves: Record<string, number> = {
      ArrowRight: Math.min(now + 1, last),
      ArrowLeft: now < 0 ? last : Math.max(now - 1, 0),
      Home: 0,
      End: last,
    }
    const idx = moves[event.key]
    if (idx === undefined) return
    event.preventDefault()
    const left = plot.valToPos(data.x[idx]!, 'x')
    plot.setCursor({ left, top: plot.bbox.height / devicePixelRatio / 2 })
  }

  #fit(): void {
    const width = this.#plotArea.clientWidth
    if (this.#plot && width > 0 && width !== this.#plot.width)
      this.#plot.setSize({ width, height: HEIGHT })
  }
}

interface Palette {
  series: string[]
  text: string
  grid: string
}

/** The theme's colours, read from the page's custom properties (view.css). */
function palette(): Palette {
  const style = getComputedStyle(document.documentElement)
  const read = (name: string) => style.getPropertyValue(name).trim()
  return {
    series: [1, 2, 3, 4, 5, 6].map((i) => read(`--series-${i}`)),
    text: read('--text-secondary'),
    grid: read('--grid'),
  }
}

const AXIS_FONT = '12px system-ui, sans-serif'

function axisStyle(colors: Palette): uPlot.Axis {
  return {
    stroke: colors.text,
    font: AXIS_FONT,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { show: false },
  }
}

let measure: CanvasRenderingContext2D | undefined

/**
 * Category labels thinned to those that fit side by side at this width, kept from the right (the
 * latest, "now", always shows): uPlot spaces a time axis itself, but draws every category given.
 */
function spaced(u: uPlot, splits: number[], labels: string[]): string[] {
  const gap = 8
  measure ??= document.createElement('canvas').getContext('2d')!
  measure.font = AXIS_FONT
  let left = Infinity
  const kept = labels.map(() => '')
  for (let i = labels.length - 1; i >= 0; i--) {
    const label = labels[i]!
    if (!label) continue
    const half = measure.measureText(label).width / 2
    const at = u.valToPos(splits[i]!, 'x')
    if (at + half + gap > left) continue
    kept[i] = label
    left = at - half
  }
  return kept
}

/** A scale from zero for counts and bars, padded above; rates within 0 and 1 as found. */
function rangeOf(
  metric: Metric,
  min: number | null,
  max: number | null,
  bars?: boolean,
): uPlot.Range.MinMax {
  const low = min ?? 0
  const high = max ?? 1
  if (metric.name === 'position') return [Math.max(1, Math.floor(low)), Math.ceil(high) + 1]
  const from = bars || low >= 0 ? 0 : low
  const to = high === from ? from + 1 : high * 1.1
  return [from, to]
}
