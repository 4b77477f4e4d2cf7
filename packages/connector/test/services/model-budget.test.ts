import type { CallToolResult } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { historyStart, isoDay, pacificNow } from '@countersign/sandbox/testing'
import { SERVICE_NAMES, type ServiceName } from '../../src/services/catalog.js'
import { connectorForSuite } from '../support/connector.js'
import { mcpClientWithToken, structuredResult } from '../support/mcp-client.js'
import { serviceTools } from '../support/service-tools.js'
import {
  defaultQuestions,
  definitionsRead,
  METADATA_PEOPLE,
  MODEL_BUDGET,
  PROPERTY_GRANT_BUDGET,
  PROPERTY_GRANTS,
  propertyGrantRead,
  rowPage,
  rowRatio,
  type Assets,
  STANDARD_PERSON,
  tokensOf,
} from '../support/model-budget.js'
import { SERVICE_TOOLS } from '../../src/services/tools.js'

/**
 * The budget of docs/design.md, "Results sized for a model", as the model reads it through the real
 * MCP client: the tools' definitions, the first questions a person asks left to the tools' page
 * sizes (a property's metadata among them), and full pages of rows against the provider's own JSON.
 * Token counts are exact (o200k, gpt-tokenizer); nothing here depends on the machine's speed. `npm
 * run bench` prints the same figures.
 */

const suite = connectorForSuite()

async function connected(service: ServiceName, user: string = STANDARD_PERSON, covers?: string[]) {
  const person = suite.person(user)
  if (covers) person.covers = covers
  const { tokens } = await suite.connect({ service, person })
  const { client } = await mcpClientWithToken(
    suite.resource(service),
    tokens.access_token,
    '2026-07-28',
  )
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult
    const definition = SERVICE_TOOLS[service].find((tool) => tool.name === name)!
    return structuredResult(definition, result)
  }
  return { client, call, person }
}

async function assets(user: string = STANDARD_PERSON): Promise<Assets> {
  const { body } = await suite.sandboxRequest('GET', `/_sandbox/users/${user}`)
  return body
}

/** The rows of a get_metadata index, dimensions and metrics, whatever their category. */
const indexRows = (index: Record<string, any>): string[][] =>
  [index.dimensions, index.metrics].flatMap((groups) => Object.values<string[][]>(groups).flat())

describe('what a model reads, within its budget', () => {
  it('the definitions: each service and all three, and every description within 2 KB', async () => {
    let all = 0
    for (const service of SERVICE_NAMES) {
      const { client } = await connected(service)
      const read = await definitionsRead(client)
      expect(read.tokens, service).toBeLessThanOrEqual(MODEL_BUDGET.definitions[service])
      expect(read.longestDescriptionBytes, service).toBeLessThanOrEqual(
        MODEL_BUDGET.descriptionBytes,
      )
      all += read.tokens
      await client.close()
    }
    expect(all).toBeLessThanOrEqual(MODEL_BUDGET.allDefinitions)
  })

  it.each(PROPERTY_GRANTS)(
    'an analytics grant of $name: its properties named within budget, and the one the person names found without asking them',
    async (grant) => {
      const read = await propertyGrantRead(
        grant,
        `budget-grant-${grant.name}`,
        async (user, displayName, account) => {
          const added = await suite.sandboxRequest('POST', `/_sandbox/users/${user}/properties`, {
            json: { displayName, account },
          })
          return added.body.propertiesId as string
        },
        async (user, covers) => (await connected('analytics', user, covers)).client,
      )
      expect(read.found).toBe(true)
      // Named in the schema, it takes no call; past the first page, one refusal names it.
      expect(read.calls).toBe(grant.properties <= 50 ? 0 : 1)
      const budget = PROPERTY_GRANT_BUDGET[grant.name]
      if (budget !== undefined) expect(read.tokens).toBeLessThanOrEqual(budget)
    },
  )

  it('"my top queries and pages last month": one page that fits, and the way to the next', async () => {
    const { client, call } = await connected('search')
    const [site] = (await assets()).sites
    const table = await call('query_search_analytics', defaultQuestions.search(site!))
    expect(tokensOf(table)).toBeLessThanOrEqual(MODEL_BUDGET.defaultAnswer)
    expect(table.rows).toHaveLength(100)
    expect(table.nextStartRow).toBe(100)
    await client.close()
  })

  it('"my traffic by source last month": one page that fits, and the way to the next', async () => {
    const { client, call } = await connected('analytics')
    const [property] = (await assets()).properties
    const table = await call('run_report', defaultQuestions.report(property!))
    expect(tokensOf(table)).toBeLessThanOrEqual(MODEL_BUDGET.defaultAnswer)
    expect(table.rows).toHaveLength(Math.min(100, table.rowCount))
    expect(table.rowCount).toBeGreaterThan(100)
    expect(table.nextOffset).toBe(100)
    await client.close()
  })

  it('"what can I report on": every name of each kind of property, within the budget', async () => {
    const kinds = new Set<string>()
    for (const user of METADATA_PEOPLE) {
      const { client, call } = await connected('analytics', user)
      for (const property of (await assets(user)).properties) {
        const index = await call('get_metadata', defaultQuestions.metadata(property))
        expect(tokensOf(index), property).toBeLessThanOrEqual(MODEL_BUDGET.defaultAnswer)
        // A real property's size: every one of its names, none left out to fit.
        expect(indexRows(index).length, property).toBeGreaterThan(450)
        expect(index.custom.length, property).toBeGreaterThan(0)
        kinds.add(JSON.stringify(index.custom))
      }
      await client.close()
    }
    expect(kinds.size).toBe(3)
  })

  it('entries whole when asked: every page of the largest category, and 50 names, within their bound', async () => {
    const { client, call } = await connected('analytics')
    const [property] = (await assets()).properties
    const index = await call('get_metadata', defaultQuestions.metadata(property!))
    const [category, rows] = Object.entries<string[][]>(index.dimensions).sort(
      ([, a], [, b]) => b.length - a.length,
    )[0]!
    const paged: string[] = []
    let offset: number | undefined = 0
    while (offset !== undefined) {
      const page = await call('get_metadata', { propertiesId: property, category, offset })
      expect(tokensOf(page), `${category} from ${offset}`).toBeLessThanOrEqual(
        MODEL_BUDGET.metadataPage,
      )
      for (const entry of page.dimensions) expect(entry.description).toMatch(/\w/)
      paged.push(...page.dimensions.map((entry: { apiName: string }) => entry.apiName))
      offset = page.nextOffset
    }
    expect(paged).toEqual(rows.map(([apiName]) => apiName))

    const names = rows.slice(0, 50).map(([apiName]) => apiName)
    const asked = await call('get_metadata', { propertiesId: property, names })
    expect(asked.dimensions.map((entry: { apiName: string }) => entry.apiName)).toEqual(names)
    expect(tokensOf(asked)).toBeLessThanOrEqual(MODEL_BUDGET.metadataPage)
    await client.close()
  })

  it.each(['search', 'analytics'] as const)(
    'a page of %s rows, against the provider’s own JSON of it, within its ratio',
    async (service) => {
      const { client, call, person } = await connected(service)
      const page = rowPage(service, await assets())
      const table = await call(page.tool, page.args)
      const provider = await serviceTools(suite, service, 'budget').providerAnswer(
        person,
        page.path,
        page.body,
      )
      expect(table.rows).toHaveLength(page.rows)
      expect(provider.rows).toHaveLength(page.rows)
      expect(rowRatio(table, provider)).toBeLessThanOrEqual(MODEL_BUDGET.rowRatio[service])
      await client.close()
    },
  )

  it('the provider’s largest page, 25,000 rows, still arrives whole when asked for', async () => {
    const { client, call } = await connected('search')
    const [site] = (await assets()).sites
    const today = pacificNow().day
    const sixteenMonths = {
      siteUrl: site!,
      startDate: isoDay(historyStart(today)),
      endDate: isoDay(today - 3),
      dimensions: ['query', 'date'],
    }
    const table = await call('query_search_analytics', { ...sixteenMonths, rowLimit: 25_000 })
    expect(table.rows).toHaveLength(25_000)
    expect(table.nextStartRow).toBe(25_000)
    const next = await call('query_search_analytics', {
      ...sixteenMonths,
      rowLimit: 1,
      startRow: 25_000,
    })
    expect(next.rows).toHaveLength(1)
    expect(next.rows[0]).not.toEqual(table.rows.at(-1))
    await client.close()
  })
})
