import { historyStart, isoDay, pacificNow } from '@countersign/sandbox/testing'
import { benchToolLatency } from './tool-latency.js'

/**
 * A 16-month, two-dimension search analytics query (query × date), through the connector
 * (`query_search_analytics`) and made directly to the sandbox: a page of 1,000 rows (the
 * provider's default; the tool's own is 100), and one of 25,000, the provider's largest.
 */

const USER = 'bench-search'
const SITE = `https://www.${USER}.example/`

export async function benchSearch(): Promise<void> {
  await searchQuery(1000, 'search_query_p50_ms', 'search_query_ratio')
  await searchQuery(25_000, 'search_query_25000_p50_ms', 'search_query_25000_ratio', 40)
}

function searchQuery(rows: number, figure: string, ratio: string, samples?: number) {
  return benchToolLatency({
    service: 'search',
    tool: 'query_search_analytics',
    figure,
    ratio,
    samples,
    user: USER,
    scope: 'webmasters.readonly',
    async request() {
      // Sixteen months of final data: from the first day of the history to three days ago.
      const today = pacificNow().day
      const query = {
        startDate: isoDay(historyStart(today)),
        endDate: isoDay(today - 3),
        dimensions: ['query', 'date'],
        rowLimit: rows,
      }
      return {
        path: `/search/v1/sites/${encodeURIComponent(SITE)}/search-analytics`,
        body: query,
        args: { siteUrl: SITE, ...query },
      }
    },
    // Each of the provider's rows has one `position`.
    rowsIn: (body) => body.split('position').length - 1,
    rows,
  })
}
