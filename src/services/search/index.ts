import type { ToolDefinition } from '../definition.js'
import {
  getSite,
  inspectUrl,
  listSitemaps,
  listSites,
  querySearchAnalytics,
  submitSitemap,
} from './tools.js'

/** The search-performance service's tools, in the seed's table order. */
export const SEARCH_TOOLS: readonly ToolDefinition[] = [
  getSite,
  inspectUrl,
  listSitemaps,
  listSites,
  querySearchAnalytics,
  submitSitemap,
]
