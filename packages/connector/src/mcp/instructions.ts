import { SERVICES, type ServiceName } from '../services/catalog.js'

/**
 * What each service's MCP server tells a client of itself (`initialize`, `server/discover`): a
 * sentence a host may give its model, saying how the tools find what the person means.
 */

const APPROVED = 'Each change is made only after the person approves that exact call.'

export const INSTRUCTIONS: Readonly<Record<ServiceName, string>> = {
  tasks: `The person's task lists and tasks, through the task interface ${SERVICES.tasks.revision}. A connection narrowed to some lists names them in each tool's tasklist; otherwise list_task_lists finds them. ${APPROVED}`,
  search: `The person's sites in search: performance, sitemaps and index status. A connection narrowed to some sites names them in each tool's siteUrl; otherwise list_sites finds them. ${APPROVED}`,
  analytics:
    'Reports on the person’s analytics properties, read only. Each tool’s propertiesId names the properties this connection may use, by name and account: pick the one the person names rather than asking for its number.',
}
