import type { Client, Tool } from '@modelcontextprotocol/client'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { historyStart, isoDay, pacificNow } from '@countersign/sandbox/testing'

/**
 * What a model reads of Countersign, counted as docs/design.md, "Results sized for a model", counts
 * it: o200k tokens of the JSON a host gives the model (gpt-tokenizer), for the suite's assertions
 * and `npm run bench` alike. The questions are the first a person asks, as the sandbox's standard
 * person (alice, the README's) asks them.
 */

export const MODEL_BUDGET = {
  /** Name, description and input schema of a service's tools. */
  definitions: { tasks: 3500, search: 3500, analytics: 4000 },
  allDefinitions: 10_000,
  /** Claude Code cuts a tool description at 2 KB. */
  descriptionBytes: 2048,
  /** A question that leaves the page size to the tool; get_metadata without a filter too. */
  defaultAnswer: 5000,
  /** A filtered get_metadata answer: one page of whole entries, descriptions and all. */
  metadataPage: 5000,
  /** A page of rows as the tool gives it, over the provider's own JSON of the same page. */
  rowRatio: { search: 0.6, analytics: 0.5 },
} as const

export const STANDARD_PERSON = 'alice'

/**
 * The people whose properties get_metadata is measured on: alice's two properties and bob's two
 * are the sandbox's three kinds of site (a shop, a software product, a publisher), each listing
 * a real property's metadata with its own custom definitions and key events.
 */
export const METADATA_PEOPLE = [STANDARD_PERSON, 'bob'] as const

export const tokensOf = (value: unknown) => countTokens(JSON.stringify(value))

/** What a model reads of one service's tools: each one's name, description and input schema. */
export async function definitionsRead(client: Client) {
  const { tools } = await client.listTools()
  const read = (tool: Tool) =>
    tokensOf({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })
  return {
    tokens: tools.reduce((sum, tool) => sum + read(tool), 0),
    longestDescriptionBytes: Math.max(...tools.map((t) => Buffer.byteLength(t.description ?? ''))),
  }
}

/** The last 28 days of settled search data (Search Console's own "last 28 days"). */
function last28Days() {
  const today = pacificNow().day
  return { startDate: isoDay(today - 30), endDate: isoDay(today - 3) }
}

const REPORT_METRICS = [{ name: 'activeUsers' }, { name: 'sessions' }, { name: 'engagementRate' }]

/**
 * "My top queries and pages last month", "my traffic by source last month": no page size; "what
 * can I report on": a property's metadata, no filter.
 */
export const defaultQuestions = {
  search: (siteUrl: string) => ({ siteUrl, ...last28Days(), dimensions: ['query', 'page'] }),
  report: (propertiesId: string) => ({
    propertiesId,
    dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }],
    dimensions: [{ name: 'date' }, { name: 'sessionSource' }],
    metrics: REPORT_METRICS,
  }),
  metadata: (propertiesId: string) => ({ propertiesId }),
}

/** A person's sites and properties, as the sandbox's control API lists them. */
export interface Assets {
  sites: string[]
  properties: string[]
}

/**
 * A full page of rows, to set the tool's rows against the provider's own JSON: 1,000 search rows
 * of a query and a page (a person of the sandbox has about 480 such pairs, so each is also split
 * by device), 250 report rows of two dimensions and three metrics. `args` are the tool's, `body`
 * and `path` the provider's request for the same page (the sandbox's generic dialect).
 */
export function rowPage(service: 'search' | 'analytics', { sites, properties }: Assets) {
  if (service === 'search') {
    const siteUrl = sites[0]!
    const today = pacificNow().day
    const body = {
      startDate: isoDay(historyStart(today)),
      endDate: isoDay(today - 3),
      dimensions: ['query', 'page', 'device'],
      rowLimit: 1000,
    }
    return {
      tool: 'query_search_analytics',
      args: { siteUrl, ...body },
      body,
      rows: 1000,
      path: `/search/v1/sites/${encodeURIComponent(siteUrl)}/search-analytics`,
    }
  }
  const propertiesId = properties[0]!
  const { propertiesId: _property, ...question } = defaultQuestions.report(propertiesId)
  const body = {
    ...question,
    dateRanges: [{ startDate: '90daysAgo', endDate: 'yesterday' }],
    limit: 250,
  }
  return {
    tool: 'run_report',
    args: { propertiesId, ...body },
    body,
    rows: 250,
    path: `/analytics/v1/properties/${propertiesId}/report`,
  }
}

/** Tokens of the tool's structured result over tokens of the provider's JSON of the same page. */
export const rowRatio = (structured: unknown, providerAnswer: unknown) =>
  tokensOf(structured) / tokensOf(providerAnswer)

/**
 * The sizes of analytics grant whose definitions are measured: a grant of 1, 10 and 50 chosen
 * properties, and of every property on an account of 200.
 */
export const PROPERTY_GRANTS = [
  { name: '1', properties: 1, chosen: true },
  { name: '10', properties: 10, chosen: true },
  { name: '50', properties: 50, chosen: true },
  { name: 'all_of_200', properties: 200, chosen: false },
] as const

/** The budget of each, in tokens of the analytics definitions (none for every one of 200). */
export const PROPERTY_GRANT_BUDGET: Partial<Record<string, number>> = { '10': 4000, '50': 6000 }

export type PropertyGrant = (typeof PROPERTY_GRANTS)[number]

/**
 * One grant of PROPERTY_GRANTS as a model meets it: a new person `user` with that many
 * properties of one account (added through the sandbox's control API by `addProperty`), connected
 * by `connect` with a grant of them all or of every one. What the model reads of the tools, and
 * whether it finds the last property by the name the person gives it, and in how many calls.
 */
export async function propertyGrantRead(
  grant: PropertyGrant,
  user: string,
  addProperty: (user: string, displayName: string, account: string) => Promise<string>,
  connect: (user: string, covers: string[] | undefined) => Promise<Client>,
) {
  const ids: string[] = []
  for (let i = 1; i <= grant.properties; i++)
    ids.push(await addProperty(user, `Client site ${i}`, 'Agency'))
  const client = await connect(user, grant.chosen ? ids.map((id) => `properties/${id}`) : undefined)
  try {
    const { tokens } = await definitionsRead(client)
    const found = await findProperty(client, `Client site ${grant.properties}`)
    return { tokens, found: found.propertiesId === ids.at(-1), calls: found.calls }
  } finally {
    await client.close()
  }
}

/** A property option as a tool's schema names it: its number, and its name and account. */
interface PropertyOption {
  const: string
  title?: string
}

/**
 * How a model finds the property a person names, reading only what a model reads: the tools'
 * definitions (propertiesId's options), then, for one they do not name, the words of a refusal
 * to a call that gives the name instead of a number. The number, and the calls it took.
 */
export async function findProperty(
  client: Client,
  words: string,
): Promise<{ propertiesId: string; calls: number }> {
  const { tools } = await client.listTools()
  const field = tools.find((tool) => tool.name === 'run_report')!.inputSchema.properties!
    .propertiesId as { oneOf?: PropertyOption[]; anyOf?: { oneOf?: PropertyOption[] }[] }
  const options = field.oneOf ?? field.anyOf?.[0]?.oneOf ?? []
  const wanted = words.toLowerCase()
  const named = options.find((option) => option.title?.toLowerCase().includes(wanted))
  if (named) return { propertiesId: named.const, calls: 0 }
  const refused = await client.callTool({
    name: 'get_metadata',
    arguments: { propertiesId: words },
  })
  const text = (refused.content as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n')
  for (const [, title, number] of text.matchAll(/"([^"]+)": (\d+)/g))
    if (title!.toLowerCase().includes(wanted)) return { propertiesId: number!, calls: 1 }
  throw new Error(`No property named "${words}" in what the model reads: ${text.slice(0, 300)}`)
}
