import { pathToFileURL } from 'node:url'
import {
  METRICS,
  PROCESS_METRICS,
  type MetricDeclaration,
} from '../packages/connector/src/metrics/declared.js'
import type { LabelSource } from '../packages/connector/src/metrics/labels.js'
import { code, renderedPages, table, writePages, type DocTables } from './generated-docs.js'

/**
 * docs/operations.md's table of the metrics and the values of their labels, written from the
 * metrics' declarations (packages/connector/src/metrics/declared.ts, labels.ts), which also
 * build the metrics: `npm run docs:metrics` rewrites them between their markers, and
 * test/docs/metrics.test.ts fails when the checked-in page differs.
 */

const DECLARED: readonly MetricDeclaration[] = Object.values(METRICS)

const METRICS_TABLES: DocTables = {
  kind: 'metrics',
  from: "the metrics' declarations (packages/connector/src/metrics/declared.ts)",
  pages: { 'docs/operations.md': { counted: countedTable, labels: labelValues } },
}

/** docs/operations.md as `npm run docs:metrics` writes it. */
export const metricsDocs = () => renderedPages(METRICS_TABLES)

function countedTable(): string {
  return table(
    ['metric', 'type', 'labels', 'meaning'],
    [
      ...DECLARED.map((metric) => [
        code(metric.name),
        metric.type,
        Object.keys(metric.labels).map(code).join(', '),
        [metric.help, metric.details, metric.buckets && bucketsOf(metric.buckets)]
          .filter(Boolean)
          .join(' '),
      ]),
      [
        PROCESS_METRICS.names.map(code).join(', '),
        'various',
        "prom-client's",
        PROCESS_METRICS.help,
      ],
    ],
  )
}

/** "Buckets 2.5 ms to 10 s." */
function bucketsOf(buckets: readonly number[]): string {
  const time = (seconds: number) =>
    seconds < 1 ? `${Number((seconds * 1000).toPrecision(6))} ms` : `${seconds} s`
  return `Buckets ${time(buckets[0]!)} to ${time(buckets.at(-1)!)}.`
}

/**
 * Each label, with where its values come from and what they mean; a label whose name means
 * different things in different metrics (`outcome`) once for each, naming its metrics.
 */
function labelValues(): string {
  const byName = new Map<string, Map<LabelSource, string[]>>()
  for (const metric of DECLARED) {
    for (const [label, source] of Object.entries(metric.labels)) {
      const sources = byName.get(label) ?? new Map<LabelSource, string[]>()
      byName.set(label, sources.set(source, [...(sources.get(source) ?? []), metric.name]))
    }
  }
  return [...byName]
    .flatMap(([label, sources]) =>
      [...sources].map(([source, metrics]) =>
        labelItem(
          sources.size > 1 ? `${code(label)} of ${metrics.map(code).join(', ')}` : code(label),
          source,
        ),
      ),
    )
    .join('\n')
}

function labelItem(named: string, { values, about, meanings }: LabelSource): string {
  if (meanings) {
    const meant = values.filter((value) => meanings[value] !== undefined)
    const items = meant.map(
      (value, i) => `  - ${code(value)}: ${meanings[value]}${i < meant.length - 1 ? ';' : '.'}`,
    )
    return [`- ${named}: ${about}:`, ...items].join('\n')
  }
  if (values.length === 0) return `- ${named}: ${about}.`
  return `- ${named}: ${about}: ${values.map(code).join(', ')}.`
}

// `npm run docs:metrics` runs this module to write the page.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writePages(METRICS_TABLES)
}
