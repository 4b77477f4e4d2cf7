import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallToolResult, Client } from '@modelcontextprotocol/client'
import {
  type Assets,
  defaultQuestions,
  definitionsRead,
  mcpClientWithToken,
  METADATA_PEOPLE,
  PROPERTY_GRANTS,
  propertyGrantRead,
  rowPage,
  rowRatio,
  SERVICE_NAMES,
  SERVICES,
  type ServiceName,
  STANDARD_PERSON,
  stopProcess,
  tokensOf,
} from '@countersign/connector/testing'
import { startStack } from './connector-tools.js'
import { emit } from './stats.js'

/**
 * The model budget (docs/design.md, "Results sized for a model"), in o200k tokens, through the
 * compiled connector and sandbox and the MCP SDK's own client, as the sandbox's standard person:
 * what a model reads of each service's tools, the answers to the first questions a person asks (a
 * property's metadata on each kind of property among them), and full pages of rows against the
 * provider's own JSON. Counts, not times: the suite asserts the same figures
 * (packages/connector/test/services/model-budget.test.ts).
 */

export async function benchModelBudget(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-bench-budget-'))
  const children: ChildProcess[] = []
  const clients: Client[] = []
  try {
    const { sandbox, flow } = await startStack(children, dataDir)
    const connect = async (
      service: ServiceName,
      user: string = STANDARD_PERSON,
      covers?: string[],
    ) => {
      const person = flow.person(user)
      if (covers) person.covers = covers
      const { tokens } = await flow.connect({ service, person })
      const { client } = await mcpClientWithToken(
        flow.resource(service),
        tokens.access_token,
        '2026-07-28',
      )
      clients.push(client)
      return client
    }
    const sandboxJson = async <T>(path: string, init: RequestInit = {}) =>
      (await (await fetch(`${sandbox.url}${path}`, init)).json()) as T
    const providerAnswer = async (scope: string, path: string, body: unknown) => {
      const { access_token: token } = await sandboxJson<{ access_token: string }>(
        '/_sandbox/tokens',
        post({ user: STANDARD_PERSON, scopes: [scope] }),
      )
      return sandboxJson<unknown>(path, post(body, token))
    }
    const assetsOf = (user: string) => sandboxJson<Assets>(`/_sandbox/users/${user}`)
    const assets = await assetsOf(STANDARD_PERSON)

    const services: Partial<Record<ServiceName, Client>> = {}
    let longest = 0
    for (const service of SERVICE_NAMES) {
      const client = (services[service] = await connect(service))
      const read = await definitionsRead(client)
      emit(`model_tokens_definitions_${service}`, read.tokens, 'tokens')
      longest = Math.max(longest, read.longestDescriptionBytes)
    }
    emit('model_description_bytes_max', longest, 'bytes')

    // The analytics tools name the grant's properties: what that costs, and whether a model
    // finds the one the person names (calls: the refusals it read on the way).
    for (const grant of PROPERTY_GRANTS) {
      const read = await propertyGrantRead(
        grant,
        `budget-grant-${grant.name}`,
        async (user, displayName, account) => {
          const added = await sandboxJson<{ propertiesId: string }>(
            `/_sandbox/users/${user}/properties`,
            post({ displayName, account }),
          )
          return added.propertiesId
        },
        (user, covers) => connect('analytics', user, covers),
      )
      if (!read.found) throw new Error(`grant ${grant.name}: the model found another property`)
      emit(`model_tokens_definitions_analytics_grant_${grant.name}`, read.tokens, 'tokens')
      emit(`model_property_found_calls_grant_${grant.name}`, read.calls, 'calls')
    }

    const search = services.search!
    const analytics = services.analytics!
    const [site] = assets.sites
    const [property] = assets.properties
    emit(
      'model_tokens_default_search_query',
      tokensOf(await structured(search, 'query_search_analytics', defaultQuestions.search(site!))),
      'tokens',
    )
    emit(
      'model_tokens_default_report',
      tokensOf(await structured(analytics, 'run_report', defaultQuestions.report(property!))),
      'tokens',
    )
    // The largest index of the sandbox's three kinds of property (METADATA_PEOPLE's four).
    let metadata = 0
    for (const user of METADATA_PEOPLE) {
      const client = user === STANDARD_PERSON ? analytics : await connect('analytics', user)
      for (const id of (await assetsOf(user)).properties) {
        const index = await structured(client, 'get_metadata', defaultQuestions.metadata(id))
        metadata = Math.max(metadata, tokensOf(index))
      }
    }
    emit('model_tokens_default_metadata', metadata, 'tokens')
    for (const [service, figure] of [
      ['search', 'model_row_ratio_search'],
      ['analytics', 'model_row_ratio_report'],
    ] as const) {
      const page = rowPage(service, assets)
      const table = await structured(services[service]!, page.tool, page.args)
      const provider = await providerAnswer(SERVICES[service].readScope, page.path, page.body)
      emit(figure, rowRatio(table, provider), 'ratio')
    }
  } finally {
    await Promise.all(clients.map((client) => client.close()))
    await Promise.all(children.map(stopProcess))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** A tool's structured result, which must be a success. */
async function structured(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (result.isError || !result.structuredContent)
    throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 300)}`)
  return result.structuredContent
}

const post = (body: unknown, token?: string): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    ...(token && { authorization: `Bearer ${token}` }),
  },
  body: JSON.stringify(body),
})
