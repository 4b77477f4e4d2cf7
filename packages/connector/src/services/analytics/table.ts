import { toolTable } from '../table.js'

/** The tool table for the web-analytics service, in its order: the provider's four reads. */
// prettier-ignore
export const ANALYTICS_TABLE = toolTable('analytics', {
  // tool               method and path                                    scope                 user approval
  get_metadata:        ['GET /properties/{propertiesId}/metadata',         'analytics.readonly', 'none (read)'],
  run_realtime_report: ['POST /properties/{propertiesId}/realtime-report', 'analytics.readonly', 'none (read)'],
  run_report:          ['POST /properties/{propertiesId}/report',          'analytics.readonly', 'none (read)'],
  run_reports:         ['POST /properties/{propertiesId}/reports',         'analytics.readonly', 'none (read)'],
})
