import type { ServiceName } from './catalog.js'
import type { ToolDefinition } from './definition.js'
import { TASK_TOOLS } from './tasks/index.js'

/**
 * Every service's tool definitions, the single source the MCP layer builds its endpoints from.
 * Search and analytics have none yet: their endpoints list no tools.
 */
export const SERVICE_TOOLS: Readonly<Record<ServiceName, readonly ToolDefinition[]>> = {
  tasks: TASK_TOOLS,
  search: [],
  analytics: [],
}
