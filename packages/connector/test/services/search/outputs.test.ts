import { describe, expect, it } from 'vitest'
import { SEARCH_TOOLS } from '../../../src/services/search/index.js'
import { isoDay, pacificNow } from '@countersign/sandbox/testing'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { callTool } from '../tool-calls.js'

/** Each read's request, built from its definition, answered by the sandbox, fits its output schema. */

const sandbox = sandboxForSuite()
const tool = (name: string) => SEARCH_TOOLS.find((t) => t.name === name)!

describe('search tool requests and outputs against the sandbox', () => {
  it('every read: the definition’s request succeeds and the answer fits the output schema', async () => {
    const token = await sandbox.token('outputs', ['webmasters.readonly'])
    const site = 'https://www.outputs.example/'
    const today = pacificNow().day
    const calls: [string, Record<string, unknown>][] = [
      ['list_sites', {}],
      ['get_site', { siteUrl: 'sc-domain:outputs.example' }],
      ['list_sitemaps', { siteUrl: site }],
      ['list_sitemaps', { siteUrl: site, sitemapIndex: `${site}sitemap.xml` }],
      ['inspect_url', { siteUrl: site, inspectionUrl: site }],
      ['inspect_url', { siteUrl: site, inspectionUrl: `${site}not/known` }],
      [
        'query_search_analytics',
        {
          siteUrl: site,
          startDate: isoDay(today - 40),
          endDate: isoDay(today),
          dimensions: ['query', 'date'],
          dataState: 'all',
          dimensionFilterGroups: [{ filters: [{ dimension: 'device', expression: 'MOBILE' }] }],
          rowLimit: 5,
          startRow: 5,
        },
      ],
      ['query_search_analytics', { siteUrl: site, startDate: '2020-01-01', endDate: '2020-01-02' }],
    ]
    for (const [name, args] of calls) {
      const definition = tool(name)
      const res = await callTool(sandbox, token, definition, args)
      expect(res.status, `${name}: ${res.text}`).toBe(200)
      // The provider's answer is what the tool reads, and what it makes of it is its output.
      const answer = (definition.answer?.schema ?? definition.output).safeParse(res.body)
      expect(answer.success, `${name}: ${JSON.stringify(answer.error?.issues)}`).toBe(true)
      if (!definition.answer) continue
      const result = definition.answer.present(answer.data, definition.input.parse(args))
      const output = definition.output.safeParse(result)
      expect(output.success, `${name}: ${JSON.stringify(output.error?.issues)}`).toBe(true)
    }
  })

  it('the provider’s own rules come back as its 400, for the connector to pass on', async () => {
    const token = await sandbox.token('rules', ['webmasters.readonly'])
    const res = await callTool(sandbox, token, tool('query_search_analytics'), {
      siteUrl: 'https://www.rules.example/',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      type: 'discover',
      dimensions: ['query'],
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/The discover report has no queries/)
  })
})
