import { z } from 'zod'
import { roundTo, tableBody, tableColumns, type Cell, type MetricColumn } from '../result-table.js'
import type { searchAnalyticsAnswer } from './resources.js'

/**
 * Search performance as the model reads it: searchanalytics.query's answer (resources.ts) as a
 * compact table (services/result-table.ts). ctr is kept to 4 decimals and position to 1, as Search
 * Console shows them. The page URLs of a site mostly share one origin: it is said once, in
 * `pageOrigin`, and those pages read as paths (`/blog/`), which takes a row of a query and a page
 * from about 0.65 of the provider's JSON to about 0.55 (docs/decisions.md, "Results sized for a
 * model"). Filters and inspect_url still take full URLs, and a page filter written as a path is
 * refused with the fix (inputs.ts).
 */

const METRICS: readonly MetricColumn[] = [
  { name: 'clicks', type: 'integer' },
  { name: 'impressions', type: 'integer' },
  { name: 'ctr', type: 'float' },
  { name: 'position', type: 'float' },
]

export const performanceTable = z
  .strictObject({
    ...tableColumns,
    pageOrigin: z
      .string()
      .optional()
      .describe(
        'The origin of the page values that start with "/": origin + path is the page’s URL.',
      ),
    responseAggregationType: z
      .string()
      .optional()
      .describe('How the data was counted: byProperty or byPage.'),
    firstIncompleteDate: z
      .string()
      .optional()
      .describe('From this day on, data is still changing (dataState all).'),
    firstIncompleteHour: z
      .string()
      .optional()
      .describe('From this hour on, data is still changing (dataState hourly_all).'),
    nextStartRow: z
      .number()
      .int()
      .optional()
      .describe('The page is full: the startRow of the next one.'),
    ...tableBody,
  })
  .describe('Search performance, as a table.')

type Answer = z.output<typeof searchAnalyticsAnswer>

interface Asked {
  dimensions?: readonly string[]
  rowLimit?: number
  startRow?: number
}

export function performanceTableOf(answer: Answer, asked: Asked): Record<string, unknown> {
  const dimensions = [...(asked.dimensions ?? [])]
  const rows = answer.rows ?? []
  const pageAt = dimensions.indexOf('page')
  const origin = pageAt < 0 ? undefined : commonOrigin(rows.map((row) => row.keys?.[pageAt]))
  let shortened = false
  const tableRows = rows.map(({ keys = [], clicks, impressions, ctr, position }) => {
    const cells: Cell[] = keys.map((key, i) => {
      if (i !== pageAt || origin === undefined || !key.startsWith(`${origin}/`)) return key
      shortened = true
      return key.slice(origin.length)
    })
    cells.push(clicks, impressions, roundTo(ctr, 4), roundTo(position, 1))
    return cells
  })
  const table: Record<string, unknown> = { dimensions, metrics: METRICS }
  if (shortened) table.pageOrigin = origin
  if (answer.responseAggregationType) table.responseAggregationType = answer.responseAggregationType
  const { firstIncompleteDate, firstIncompleteHour } = answer.metadata ?? {}
  if (firstIncompleteDate) table.firstIncompleteDate = firstIncompleteDate
  if (firstIncompleteHour) table.firstIncompleteHour = firstIncompleteHour
  // A page that stops at its limit may have more after it; the API's own sign of the end is
  // an answer without rows.
  if (asked.rowLimit !== undefined && rows.length === asked.rowLimit)
    table.nextStartRow = (asked.startRow ?? 0) + rows.length
  table.rows = tableRows
  return table
}

/** The origin most of the pages share (the first seen of equals), or undefined for none. */
function commonOrigin(pages: readonly (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>()
  let best: string | undefined
  for (const page of pages) {
    const origin = page && /^https?:\/\/[^/?#]+/i.exec(page)?.[0]
    if (!origin) continue
    const count = (counts.get(origin) ?? 0) + 1
    counts.set(origin, count)
    if (best === undefined || count > counts.get(best)!) best = origin
  }
  return best
}
