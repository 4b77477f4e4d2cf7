import { toolTable } from '../table.js'

/**
 * The tool table for the web-analytics service, in its order: reads only. First, beyond the
 * provider's four, list_properties: the Admin API's account summaries, so that a model finds the
 * property a person names rather than asking them for its number.
 */
// prettier-ignore
export const ANALYTICS_TABLE = toolTable('analytics', {
  // tool               method and path                                    scope                 user approval
  list_properties:     ['GET /accountSummaries',                           'analytics.readonly', 'none (read)'],
  get_metadata:        ['GET /properties/{propertiesId}/metadata',         'analytics.readonly', 'none (read)'],
  run_realtime_report: ['POST /properties/{propertiesId}/realtime-report', 'analytics.readonly', 'none (read)'],
  run_report:          ['POST /properties/{propertiesId}/report',          'analytics.readonly', 'none (read)'],
  run_reports:         ['POST /properties/{propertiesId}/reports',         'analytics.readonly', 'none (read)'],
})
