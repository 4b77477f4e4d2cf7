/**
 * The Prometheus text exposition format (version 0.0.4), read strictly: `# HELP` and `# TYPE`
 * lines, and one sample a line, `name{label="value",...} value`, with `\\`, `\"` and `\n`
 * escaped in label values. A line that is none of these fails the parse: a scrape the test reads
 * is one Prometheus can read.
 */

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

export interface Exposition {
  samples: Sample[]
  /** Each metric family's type, from its `# TYPE` line. */
  types: Map<string, string>
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`)
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`)
const HELP = new RegExp(`^# HELP (${NAME}) .*$`)

/** A scrape of `metricsUrl`, parsed. */
export async function scrapeExposition(metricsUrl: string): Promise<Exposition> {
  return parseExposition(await (await fetch(metricsUrl)).text())
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    const type = TYPE.exec(line)
    if (type) {
      types.set(type[1]!, type[2]!)
      continue
    }
    if (HELP.test(line)) continue
    const sample = SAMPLE.exec(line)
    if (!sample) throw new Error(`not a line of the Prometheus text format: ${line}`)
    samples.push({
      name: sample[1]!,
      labels: labelsOf(sample[2] ?? '', line),
      value: number(sample[3]!, line),
    })
  }
  return { samples, types }
}

function labelsOf(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {}
  LABEL.lastIndex = 0
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text)
    if (!match) throw new Error(`labels not in the Prometheus text format: ${line}`)
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
  }
  return labels
}

function number(text: string, line: string): number {
  if (text === '+Inf') return Infinity
  if (text === '-Inf') return -Infinity
  if (text === 'NaN' || text === 'Nan') return NaN
  const value = Number(text)
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${line}`)
  return value
}

/** `labels` as one key, sorted by name: `outcome=ok,service=tasks,tool=list_tasks`. */
export const seriesKey = (labels: Record<string, string>) =>
  Object.keys(labels)
    .sort()
    .map((name) => `${name}=${labels[name]}`)
    .join(',')

/**
 * Every series of the metric `name` whose value moved between two scrapes, by seriesKey (a
 * series new since `before` counts from 0): what a step of a test changed, and nothing else.
 */
export function moved(before: Exposition, after: Exposition, name: string): Record<string, number> {
  const was = new Map(
    before.samples.filter((s) => s.name === name).map((s) => [seriesKey(s.labels), s.value]),
  )
  const changes: Record<string, number> = {}
  for (const sample of after.samples) {
    if (sample.name !== name) continue
    const key = seriesKey(sample.labels)
    const delta = sample.value - (was.get(key) ?? 0)
    if (delta !== 0) changes[key] = delta
  }
  return changes
}

/** A service's circuit breaker as `/metrics` says it: each state's gauge, 1 for the one it is in. */
export const circuitStates = (scraped: Exposition, service: string): Record<string, number> =>
  Object.fromEntries(
    scraped.samples
      .filter(
        (s) => s.name === 'countersign_upstream_circuit_state' && s.labels.service === service,
      )
      .map((s) => [s.labels.state, s.value]),
  )
