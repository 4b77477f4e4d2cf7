import {
  historyStart,
  isoDay,
  pacificNow,
} from '../packages/sandbox/src/search/analytics/calendar.js'
import { benchToolLatency } from './tool-latency.js'

/**
 * A 16-month, two-dimension search analytics query (query × date, the default 1,000 rows), through
 * the connector (`query_search_analytics`) and made directly to the sandbox.
 */

const USER = 'bench-search'
const SITE = `https://www.${USER}.example/`

export function benchSearch(): Promise<void> {
  return benchToolLatency({
    service: 'search',
    tool: 'query_search_analytics',
    figure: 'search_query_p50_ms',
    user: USER,
    scope: 'webmasters.readonly',
    async request() {
      // Sixteen months of final data: from the first day of the history to three days ago.
      const today = pacificNow().day
      const query = {
        startDate: isoDay(historyStart(today)),
        endDate: isoDay(today - 3),
        dimensions: ['query', 'date'],
      }
      return {
        path: `/search/v1/sites/${encodeURIComponent(SITE)}/search-analytics`,
        body: query,
        args: { siteUrl: SITE, ...query },
      }
    },
    // Each row has one `position` (escaped in the text copy, still counted once).
    rowsIn: (body) => body.split('position').length - 1,
    rows: 1000,
  })
}
