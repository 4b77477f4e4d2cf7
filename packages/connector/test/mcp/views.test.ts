import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge'
import { isoDay, pacificNow } from '@countersign/sandbox/testing'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { SERVICE_TOOLS } from '../../src/services/tools.js'
import type { ServiceName } from '../../src/services/catalog.js'
import { connectorForSuite } from '../support/connector.js'
import { ERAS, mcpClientWithToken, type Era } from '../support/mcp-client.js'

/**
 * The views of MCP Apps (docs/design.md, "Views in the conversation") as the connector serves them,
 * through the MCP SDK's own client under both protocol revisions: each of the four tools names its
 * view in `_meta.ui` whatever the client declared, as the extension's host library reads it; each
 * view is a resource of its service's endpoint, one self-contained HTML document under 1 MB that
 * loads nothing from elsewhere; and a result is the same for a client with the extension or
 * without.
 */

const suite = connectorForSuite()
const VIEWS = {
  query_search_analytics: 'ui://countersign/search-performance',
  run_report: 'ui://countersign/report',
  run_reports: 'ui://countersign/report',
  run_realtime_report: 'ui://countersign/realtime',
} as Record<string, string>

/** The extension, as a client that renders views declares it. */
const WITH_VIEWS = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } }

let people = 0
async function clientOf(service: ServiceName, era: Era, withViews = false) {
  const person = suite.person(`views-${service}-${++people}`)
  const { tokens } = await suite.connect({ person, service })
  const { client } = await mcpClientWithToken(
    suite.resource(service),
    tokens.access_token,
    era,
    withViews ? WITH_VIEWS : undefined,
  )
  return { client, person }
}

describe.each(ERAS)('the views, protocol %s', (era) => {
  it('the four tools name their view in _meta.ui, for a client with the extension or without; no other tool does', async () => {
    for (const withViews of [false, true])
      for (const service of ['tasks', 'search', 'analytics'] as const) {
        const { client } = await clientOf(service, era, withViews)
        const { tools } = await client.listTools()
        expect(tools.map((t) => t.name)).toEqual(SERVICE_TOOLS[service].map((t) => t.name))
        for (const tool of tools) {
          expect(getToolUiResourceUri(tool), tool.name).toBe(VIEWS[tool.name])
          if (VIEWS[tool.name]) expect(tool._meta!['ui/resourceUri']).toBe(VIEWS[tool.name])
        }
        await client.close()
      }
  })

  it('each view is a resource of its service: one HTML document under 1 MB, nothing loaded from elsewhere', async () => {
    for (const service of ['search', 'analytics'] as const) {
      const { client } = await clientOf(service, era)
      expect(client.getServerCapabilities()?.resources).toBeDefined()
      const { resources } = await client.listResources()
      const named = new Set(
        SERVICE_TOOLS[service].flatMap((t) => (VIEWS[t.name] ? [VIEWS[t.name]!] : [])),
      )
      expect(resources.map((r) => r.uri).sort()).toEqual([...named].sort())
      for (const resource of resources) {
        expect(resource.mimeType).toBe(RESOURCE_MIME_TYPE)
        const { contents } = await client.readResource({ uri: resource.uri })
        expect(contents).toHaveLength(1)
        const [view] = contents as [{ uri: string; mimeType: string; text: string; _meta?: any }]
        expect(view).toMatchObject({ uri: resource.uri, mimeType: RESOURCE_MIME_TYPE })
        expect(view._meta?.ui).toEqual({ prefersBorder: true })
        const html = view.text
        expect(html.startsWith('<!doctype html>')).toBe(true)
        expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024)
        // Its own policy lets it reach no origin, whatever the host allows.
        expect(html).toContain(
          `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">`,
        )
        // Nothing is loaded from elsewhere: no external script, style, image, font or import.
        expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\b(src|href)=/i)
        expect(html).not.toMatch(/@import|url\(\s*['"]?(https?:)?\/\//i)
        expect(html).not.toMatch(/\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon/)
      }
      await expect(client.readResource({ uri: 'ui://countersign/nothing' })).rejects.toThrow(
        /nothing/,
      )
      await client.close()
    }
    const tasks = await clientOf('tasks', era)
    expect(tasks.client.getServerCapabilities()?.resources).toBeUndefined()
    await tasks.client.close()
  })

  it('a result is the same for a host that draws it and one that does not', async () => {
    const person = suite.person(`views-same-${++people}`)
    const { tokens } = await suite.connect({ person, service: 'search' })
    const clients = await Promise.all(
      [undefined, WITH_VIEWS].map((capabilities) =>
        mcpClientWithToken(suite.resource('search'), tokens.access_token, era, capabilities),
      ),
    )
    const today = pacificNow().day
    const results = await Promise.all(
      clients.map(({ client }) =>
        client.callTool({
          name: 'query_search_analytics',
          arguments: {
            siteUrl: `sc-domain:${person.user}.example`,
            startDate: isoDay(today - 30),
            endDate: isoDay(today - 3),
            dimensions: ['date'],
          },
        }),
      ),
    )
    const [plain, drawn] = results as [CallToolResult, CallToolResult]
    expect(Object.keys(drawn).sort()).toEqual(Object.keys(plain).sort())
    expect(drawn.content).toEqual(plain.content)
    expect(drawn.structuredContent).toEqual(plain.structuredContent)
    expect(JSON.parse((plain.content[0] as { text: string }).text)).toEqual(plain.structuredContent)
    await Promise.all(clients.map(({ client }) => client.close()))
  })
})
