import type { CallToolResult } from '@modelcontextprotocol/client'
import { expect } from 'vitest'
import { SERVICES, type ServiceName } from '../../src/services/catalog.js'
import { SERVICE_TOOLS } from '../../src/services/tools.js'
import type { ConnectorHarness, Person } from './connector.js'
import { mcpClientWithToken, resultText, structuredResult, type Era } from './mcp-client.js'
import { providerRequests } from './provider-log.js'

/**
 * One service's tools through the real connector and sandbox, as its tool tests use them: a new
 * person connected to the service through the real flow, with the MCP SDK's own client under
 * the protocol revision asked for; the service's definitions; a success checked against its
 * tool's output schema; and the calls the connector made to the service's API.
 *
 *   const tools = serviceTools(suite, 'search', 'search')
 *   const { client, call } = await tools.newPerson('2026-07-28')
 */
export function serviceTools(suite: ConnectorHarness, service: ServiceName, prefix: string) {
  const definitions = SERVICE_TOOLS[service]
  const definition = (name: string) => definitions.find((tool) => tool.name === name)!
  let people = 0
  return {
    definitions,
    definition,

    /** A person (`{prefix}-{era}-{n}`) connected to the service, with their MCP client. */
    async newPerson(era: Era, scope?: string) {
      const person: Person = suite.person(`${prefix}-${era.slice(0, 4)}-${++people}`)
      const { tokens } = await suite.connect({ person, service, scope })
      const { client, versions } = await mcpClientWithToken(
        suite.resource(service),
        tokens.access_token,
        era,
      )
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult
      return { person, tokens, client, versions, call }
    },

    /** A success of `name`: its structured content, checked against the tool's output schema. */
    structured: (name: string, result: CallToolResult) =>
      structuredResult(definition(name), result),
    text: resultText,

    /** The calls the connector made to the service's API since `from`, and the index to pass next. */
    upstreamCalls: (from = 0) => providerRequests(suite, service, from),

    /**
     * The provider's own answer to a POST of `body` at `path` (the sandbox's generic dialect, over
     * the same data as Google's), as `person` with the service's read scope: what a tool's
     * result is compared with.
     */
    async providerAnswer(person: Person, path: string, body: unknown) {
      const minted = await suite.sandboxRequest('POST', '/_sandbox/tokens', {
        json: { user: person.user, scopes: [SERVICES[service].readScope] },
      })
      const token = minted.body.access_token as string
      const answer = await suite.sandboxRequest('POST', path, { token, json: body })
      expect(answer.status, answer.text).toBe(200)
      return answer.body
    },
  }
}
