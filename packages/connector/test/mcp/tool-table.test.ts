import { describe, expect, it } from 'vitest'
import { SERVICE_NAMES, type ServiceName } from '../../src/services/catalog.js'
import { GENERIC_PROFILE } from '../../src/services/profiles/generic.js'
import { connectorForSuite } from '../support/connector.js'
import { ERAS, mcpClientWithToken } from '../support/mcp-client.js'
import { taskFixtures } from './fixtures.js'

/**
 * Each service exposes exactly the tools of its table, and no others (docs/design.md, "The tool
 * table"): the table below is written out as the project was specified, row for row, and set
 * against what the real MCP client lists, for a grant of every one and a narrowed one, under both
 * protocol revisions: names, scopes, approval and access mode, and the provider call each makes.
 */

/** tool, method and path, scope, access mode of a change (none for a read). */
type Row = [string, string, string, ('auth-token' | 'per-call')?]

const TABLE: Record<ServiceName, Row[]> = {
  tasks: [
    ['create_task', 'POST /lists/{tasklist}/tasks', 'tasks', 'auth-token'],
    ['create_task_list', 'POST /lists', 'tasks', 'auth-token'],
    ['delete_task', 'DELETE /lists/{tasklist}/tasks/{task}', 'tasks', 'per-call'],
    ['get_task', 'GET /lists/{tasklist}/tasks/{task}', 'tasks.readonly'],
    ['list_task_lists', 'GET /lists', 'tasks.readonly'],
    ['list_tasks', 'GET /lists/{tasklist}/tasks', 'tasks.readonly'],
    ['move_task', 'POST /lists/{tasklist}/tasks/{task}/move', 'tasks', 'auth-token'],
    ['update_task', 'PATCH /lists/{tasklist}/tasks/{task}', 'tasks', 'auth-token'],
  ],
  search: [
    ['get_site', 'GET /sites/{siteUrl}', 'webmasters.readonly'],
    ['inspect_url', 'POST /inspect-url', 'webmasters.readonly'],
    ['list_sitemaps', 'GET /sites/{siteUrl}/sitemaps', 'webmasters.readonly'],
    ['list_sites', 'GET /sites', 'webmasters.readonly'],
    ['query_search_analytics', 'POST /sites/{siteUrl}/search-analytics', 'webmasters.readonly'],
    ['submit_sitemap', 'PUT /sites/{siteUrl}/sitemaps/{feedpath}', 'webmasters', 'auth-token'],
  ],
  analytics: [
    ['get_metadata', 'GET /properties/{propertiesId}/metadata', 'analytics.readonly'],
    [
      'run_realtime_report',
      'POST /properties/{propertiesId}/realtime-report',
      'analytics.readonly',
    ],
    ['run_report', 'POST /properties/{propertiesId}/report', 'analytics.readonly'],
    ['run_reports', 'POST /properties/{propertiesId}/reports', 'analytics.readonly'],
  ],
}

const suite = connectorForSuite()
const { seed } = taskFixtures(suite)
let people = 0

describe.each(ERAS)('the tools of each service, protocol %s', (era) => {
  it.each(
    SERVICE_NAMES.flatMap((service) => [
      [service, 'every one'] as const,
      [service, 'chosen'] as const,
    ]),
  )(
    '%s, a grant of %s: exactly the table’s tools, scopes and access modes',
    async (service, grant) => {
      const user = `tool-table-${++people}`
      const person = suite.person(user)
      if (grant === 'chosen') {
        const { body } = await suite.sandboxRequest('GET', `/_sandbox/users/${user}`)
        person.covers =
          service === 'search'
            ? [body.sites[0]]
            : service === 'analytics'
              ? [`properties/${body.properties[0]}`]
              : [(await seed(user, 1, 'Chosen')).tasklist]
      }
      const { tokens } = await suite.connect({ person, service })
      const { client } = await mcpClientWithToken(suite.resource(service), tokens.access_token, era)
      const { tools } = await client.listTools()
      const listed = tools
        .map((tool) => [
          tool.name,
          tool._meta?.['countersign/scope'],
          tool._meta?.['countersign/accessMode'],
          tool.annotations?.readOnlyHint,
        ])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
      expect(listed).toEqual(
        TABLE[service].map(([name, , scope, mode]) => [name, scope, mode, mode === undefined]),
      )
      // Each tool is the table's one call at the provider (the generic dialect's own paths).
      for (const [name, call] of TABLE[service]) {
        const [method, path] = call.split(' ')
        expect(GENERIC_PROFILE.operations[name], name).toEqual({ method, path })
      }
      await client.close()
    },
  )
})
