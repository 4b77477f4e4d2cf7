import { ANALYTICS_TOOLS } from './analytics/index.js'
import { listAccountSummaries } from './analytics/properties.js'
import type { ServiceName } from './catalog.js'
import type { ProviderRead, ToolDefinition } from './definition.js'
import { SEARCH_TOOLS } from './search/index.js'
import { getTaskList } from './tasks/describe.js'
import { TASK_TOOLS } from './tasks/index.js'

/**
 * Every service's tool definitions, the single source the MCP layer builds its endpoints from.
 */
export const SERVICE_TOOLS: Readonly<Record<ServiceName, readonly ToolDefinition[]>> = {
  tasks: TASK_TOOLS,
  search: SEARCH_TOOLS,
  analytics: ANALYTICS_TOOLS,
}

/** A tool's definition by its service and name, as stored ones name them; undefined if none. */
export const toolDefinition = (service: string | null, name: string): ToolDefinition | undefined =>
  SERVICE_TOOLS[service as ServiceName]?.find((tool) => tool.name === name)

/**
 * The provider's reads that no tool exposes: a task list, to describe a change; the person's
 * analytics accounts, to offer and name a grant's properties.
 */
export const SERVICE_READS: readonly ProviderRead[] = [getTaskList, listAccountSummaries]
