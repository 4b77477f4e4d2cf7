import { seedTable } from '../table.js'

/** The seed's tool table for the web-analytics service, in its order: reads only. */
// prettier-ignore
export const ANALYTICS_TABLE = seedTable('analytics', {
  // tool               method and path                                    scope                 user approval
  get_metadata:        ['GET /properties/{propertiesId}/metadata',         'analytics.readonly', 'none (read)'],
  run_realtime_report: ['POST /properties/{propertiesId}/realtime-report', 'analytics.readonly', 'none (read)'],
  run_report:          ['POST /properties/{propertiesId}/report',          'analytics.readonly', 'none (read)'],
  run_reports:         ['POST /properties/{propertiesId}/reports',         'analytics.readonly', 'none (read)'],
})
