import { describe, expect, it } from 'vitest'
import { googleSandboxUpstream } from '../../../src/connector/sandbox-upstream.js'
import { pathParamsOf } from '../../../src/services/definition.js'
import { GOOGLE_PROFILE } from '../../../src/services/profiles/google.js'
import { PROFILES } from '../../../src/services/profiles/index.js'
import { SERVICE_READS, SERVICE_TOOLS } from '../../../src/services/tools.js'

/**
 * The provider profiles: each maps every tool, and every read behind an approval, to one call
 * with the generic provider's path parameters; Google's at Google's own paths
 * (docs/sandbox.md, "Paths"), exactly.
 */

const operations = [...Object.values(SERVICE_TOOLS).flat(), ...SERVICE_READS]

describe.each(Object.values(PROFILES))('the $name profile', (profile) => {
  it('has an operation for every tool and read, and for nothing else', () => {
    expect(Object.keys(profile.operations).sort()).toEqual(operations.map((o) => o.name).sort())
  })

  it.each(operations)("$name: the generic provider's path parameters and method", (definition) => {
    const operation = profile.operations[definition.name]!
    expect(pathParamsOf(operation.path).sort()).toEqual(pathParamsOf(definition.path).sort())
    expect(operation.method).toBe(definition.method)
    expect(operation.path).toMatch(/^\/[^?#]*$/)
  })
})

// docs/design.md, "The Google profile"
describe("Google's operations", () => {
  const google = (name: string) => {
    const { method, path } = GOOGLE_PROFILE.operations[name]!
    return `${method} ${path}`
  }

  it.each([
    ['list_task_lists', 'GET /users/@me/lists'],
    ['create_task_list', 'POST /users/@me/lists'],
    ['get_task_list', 'GET /users/@me/lists/{tasklist}'],
    ['list_tasks', 'GET /lists/{tasklist}/tasks'],
    ['get_task', 'GET /lists/{tasklist}/tasks/{task}'],
    ['create_task', 'POST /lists/{tasklist}/tasks'],
    ['update_task', 'PATCH /lists/{tasklist}/tasks/{task}'],
    ['move_task', 'POST /lists/{tasklist}/tasks/{task}/move'],
    ['delete_task', 'DELETE /lists/{tasklist}/tasks/{task}'],
    ['list_sites', 'GET /webmasters/v3/sites'],
    ['get_site', 'GET /webmasters/v3/sites/{siteUrl}'],
    ['list_sitemaps', 'GET /webmasters/v3/sites/{siteUrl}/sitemaps'],
    ['submit_sitemap', 'PUT /webmasters/v3/sites/{siteUrl}/sitemaps/{feedpath}'],
    ['query_search_analytics', 'POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query'],
    ['inspect_url', 'POST /v1/urlInspection/index:inspect'],
    ['get_metadata', 'GET /properties/{propertiesId}/metadata'],
    ['run_report', 'POST /properties/{propertiesId}:runReport'],
    ['run_realtime_report', 'POST /properties/{propertiesId}:runRealtimeReport'],
    ['run_reports', 'POST /properties/{propertiesId}:batchRunReports'],
  ])('%s is %s', (name, call) => {
    expect(google(name)).toBe(call)
  })

  it('revokes only with the person’s last grant, and guards etags itself', () => {
    expect(GOOGLE_PROFILE).toMatchObject({ revocation: 'person', enforcesIfMatch: false })
    expect(PROFILES.generic).toMatchObject({ revocation: 'grant', enforcesIfMatch: true })
  })

  it("points at the sandbox's Google origin with each Google path kept", () => {
    expect(googleSandboxUpstream('http://127.0.0.1:8082')).toMatchObject({
      profile: 'google',
      authorizationUrl: 'http://127.0.0.1:8082/o/oauth2/v2/auth',
      tokenUrl: 'http://127.0.0.1:8082/token',
      revocationUrl: 'http://127.0.0.1:8082/revoke',
      userinfoUrl: 'http://127.0.0.1:8082/v1/userinfo',
      scopePrefix: 'https://www.googleapis.com/auth/',
      apiBase: {
        tasks: 'http://127.0.0.1:8082/tasks/v1',
        search: 'http://127.0.0.1:8082',
        analytics: 'http://127.0.0.1:8082/v1beta',
      },
    })
  })
})
