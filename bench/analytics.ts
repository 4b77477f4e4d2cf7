import { benchToolLatency } from './tool-latency.js'

/**
 * A three-dimension, 90-day analytics report (date × country × deviceCategory, three metrics, a
 * page of 100 rows of the ~2,000), through the connector (`run_report`; the property's metadata
 * is warm after the first call, so each call is one upstream request) and made directly to the
 * sandbox.
 */

const USER = 'bench-analytics'
const ROWS = 100

export function benchAnalytics(): Promise<void> {
  return benchToolLatency({
    service: 'analytics',
    tool: 'run_report',
    figure: 'analytics_report_p50_ms',
    ratio: 'analytics_report_ratio',
    user: USER,
    scope: 'analytics.readonly',
    async request(sandboxUrl) {
      const assets = await fetch(`${sandboxUrl}/_sandbox/users/${USER}`)
      const [propertiesId] = ((await assets.json()) as { properties: string[] }).properties
      const report = {
        dateRanges: [{ startDate: '90daysAgo', endDate: 'yesterday' }],
        dimensions: [{ name: 'date' }, { name: 'country' }, { name: 'deviceCategory' }],
        metrics: [{ name: 'activeUsers' }, { name: 'sessions' }, { name: 'engagementRate' }],
        limit: ROWS,
      }
      return {
        path: `/analytics/v1/properties/${propertiesId}/report`,
        body: report,
        args: { propertiesId, ...report },
      }
    },
    // Each of the provider's rows has one `dimensionValues`.
    rowsIn: (body) => body.split('dimensionValues').length - 1,
    rows: ROWS,
  })
}
