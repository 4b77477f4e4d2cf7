import type { Operation, ProviderProfile } from './profile.js'
import type { ServiceName } from '../../config/config.js'

/**
 * Google (docs/design.md, "The Google profile"): Google Tasks API v1, the Search Console API
 * (webmasters v3 and URL Inspection v1), the Google Analytics Data API v1beta and, for the person's
 * accounts and properties, the Google Analytics Admin API v1beta, under Google OAuth 2.0.
 *
 * Bodies and answers are the generic dialect's JSON (which models Google's resources), so only
 * where each call goes differs. Two answers have no body: `tasks.delete` and `sitemaps.submit` say
 * 204, which the tool's definition turns into its result (answerWithoutBody). Paths are relative to
 * the service's base URL below; one base serves both Search Console roots (`/webmasters/v3`,
 * `/v1`).
 */

const op = (
  method: Operation['method'],
  path: string,
  reference: string,
  api?: Operation['api'],
): Operation => ({ method, path, reference, ...(api && { api }) })

export const GOOGLE_OPERATIONS: Readonly<Record<string, Operation>> = {
  // Tasks, under https://tasks.googleapis.com/tasks/v1 (`@me` is literal).
  create_task: op('POST', '/lists/{tasklist}/tasks', 'tasks.tasks.insert'),
  create_task_list: op('POST', '/users/@me/lists', 'tasks.tasklists.insert'),
  delete_task: op('DELETE', '/lists/{tasklist}/tasks/{task}', 'tasks.tasks.delete'),
  get_task: op('GET', '/lists/{tasklist}/tasks/{task}', 'tasks.tasks.get'),
  list_task_lists: op('GET', '/users/@me/lists', 'tasks.tasklists.list'),
  list_tasks: op('GET', '/lists/{tasklist}/tasks', 'tasks.tasks.list'),
  move_task: op('POST', '/lists/{tasklist}/tasks/{task}/move', 'tasks.tasks.move'),
  update_task: op('PATCH', '/lists/{tasklist}/tasks/{task}', 'tasks.tasks.patch'),
  get_task_list: op('GET', '/users/@me/lists/{tasklist}', 'tasks.tasklists.get'),

  // Search Console, under https://searchconsole.googleapis.com
  get_site: op('GET', '/webmasters/v3/sites/{siteUrl}', 'webmasters.sites.get'),
  inspect_url: op(
    'POST',
    '/v1/urlInspection/index:inspect',
    'searchconsole.urlInspection.index.inspect',
  ),
  list_sitemaps: op('GET', '/webmasters/v3/sites/{siteUrl}/sitemaps', 'webmasters.sitemaps.list'),
  list_sites: op('GET', '/webmasters/v3/sites', 'webmasters.sites.list'),
  query_search_analytics: op(
    'POST',
    '/webmasters/v3/sites/{siteUrl}/searchAnalytics/query',
    'webmasters.searchanalytics.query',
  ),
  submit_sitemap: op(
    'PUT',
    '/webmasters/v3/sites/{siteUrl}/sitemaps/{feedpath}',
    'webmasters.sitemaps.submit',
  ),

  // Analytics Admin, under https://analyticsadmin.googleapis.com/v1beta
  list_account_summaries: op('GET', '/accountSummaries', 'accountSummaries.list', 'analyticsAdmin'),

  // Analytics Data, under https://analyticsdata.googleapis.com/v1beta
  get_metadata: op('GET', '/properties/{propertiesId}/metadata', 'properties.getMetadata'),
  run_realtime_report: op(
    'POST',
    '/properties/{propertiesId}:runRealtimeReport',
    'properties.runRealtimeReport',
  ),
  run_report: op('POST', '/properties/{propertiesId}:runReport', 'properties.runReport'),
  run_reports: op(
    'POST',
    '/properties/{propertiesId}:batchRunReports',
    'properties.batchRunReports',
  ),
}

/**
 * The Google Cloud APIs the profile calls, each enabled on its own in the OAuth client's project
 * (docs/google.md), with the one read of each that shows whether it is (`countersign doctor
 * --sign-in`): none of them names anything of anyone's.
 */
export const GOOGLE_APIS = [
  {
    title: 'Google Tasks API',
    id: 'tasks.googleapis.com',
    service: 'tasks',
    probe: { operation: 'list_task_lists' },
  },
  {
    title: 'Google Search Console API',
    id: 'searchconsole.googleapis.com',
    service: 'search',
    probe: { operation: 'list_sites' },
  },
  {
    title: 'Google Analytics Admin API',
    id: 'analyticsadmin.googleapis.com',
    service: 'analytics',
    probe: { operation: 'list_account_summaries' },
  },
  {
    title: 'Google Analytics Data API',
    id: 'analyticsdata.googleapis.com',
    service: 'analytics',
    // Property 0 exists nowhere: an enabled API answers 403 or 404 for it.
    probe: { operation: 'get_metadata', params: { propertiesId: '0' } },
  },
] as const satisfies readonly {
  title: string
  id: string
  service: ServiceName
  probe: { operation: keyof typeof GOOGLE_OPERATIONS; params?: Record<string, string> }
}[]

export const GOOGLE_PROFILE: ProviderProfile = {
  name: 'google',
  operations: GOOGLE_OPERATIONS,
  // Google documents no If-Match for Tasks: the connector's own re-read guards a change.
  enforcesIfMatch: false,
  // Revoking one token ends every token the person holds for the OAuth client.
  revocation: 'person',
  // Google indents its answers unless told not to: compact ones are smaller, and their text is
  // a tool result's text as it is (src/mcp/results.ts).
  systemQuery: { prettyPrint: 'false' },
  // Where Google's answers link to enable an API (`activationUrl`, a Help link, the message).
  consoleHosts: ['console.developers.google.com', 'console.cloud.google.com'],
  // An External app in Testing status: Google ends its refresh tokens 7 days after issuing them.
  testingMode: { tokenDays: 7 },
  defaults: {
    UPSTREAM_AUTHORIZATION_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
    UPSTREAM_TOKEN_URL: 'https://oauth2.googleapis.com/token',
    UPSTREAM_REVOCATION_URL: 'https://oauth2.googleapis.com/revoke',
    UPSTREAM_USERINFO_URL: 'https://openidconnect.googleapis.com/v1/userinfo',
    UPSTREAM_SCOPE_PREFIX: 'https://www.googleapis.com/auth/',
    UPSTREAM_TASKS_URL: 'https://tasks.googleapis.com/tasks/v1',
    UPSTREAM_SEARCH_URL: 'https://searchconsole.googleapis.com',
    UPSTREAM_ANALYTICS_URL: 'https://analyticsdata.googleapis.com/v1beta',
    UPSTREAM_ANALYTICS_ADMIN_URL: 'https://analyticsadmin.googleapis.com/v1beta',
    UPSTREAM_NAME: 'Google',
  },
}
