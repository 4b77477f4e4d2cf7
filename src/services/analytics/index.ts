import type { ToolDefinition } from '../definition.js'
import { getMetadata, runRealtimeReport, runReport, runReports } from './tools.js'

/** The web-analytics service's tools, in the seed's table order. */
export const ANALYTICS_TOOLS: readonly ToolDefinition[] = [
  getMetadata,
  runRealtimeReport,
  runReport,
  runReports,
]
