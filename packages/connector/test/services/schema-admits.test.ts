import type { CallToolResult } from '@modelcontextprotocol/client'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv'
import { isoDay, pacificNow } from '@countersign/sandbox/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ServiceName } from '../../src/services/catalog.js'
import type { ToolDefinition } from '../../src/services/definition.js'
import { toolJsonSchema } from '../../src/services/json-schema.js'
import { SERVICE_TOOLS } from '../../src/services/tools.js'
import { connectorForSuite } from '../support/connector.js'
import { serviceTools } from '../support/service-tools.js'
import { givenValues, STATED_FILTER_BOUNDS } from './given-values.js'
import { admittedBy, emptyOf, type Given, type JsonSchema } from './schema-values.js'
import { STATED_RULES, type StatedRule } from './stated-rules.js'

/**
 * What a tool's published inputSchema admits, the server accepts, or refuses only for a rule the
 * listing states (docs/decisions.md, "What a schema admits is accepted"). Every tool's values are
 * generated from its inputSchema as tools/list shows it: random ones, the bounds, every enum
 * value, each optional object or list as `{}` or `[]`. Each is held to the input validation the
 * MCP layer runs; a sample goes through the real connector and sandbox.
 */

const TOOLS = Object.values(SERVICE_TOOLS).flat()
const tool = (name: string) => TOOLS.find((t) => t.name === name)!
const published = (definition: ToolDefinition) =>
  toolJsonSchema(definition.input, 'input') as JsonSchema
/** What `definition`'s inputSchema admits; `first` supplies some fields' values instead. */
const admitted = (definition: ToolDefinition, first?: Given) =>
  admittedBy(published(definition), givenValues(published(tool('run_report')), first))

/** What the listing shows a model of a tool, and of the tool whose fields it takes. */
const TAKES_FIELDS_OF: Record<string, string> = {
  run_reports: 'run_report',
  run_realtime_report: 'run_report',
}
const listing = (definition: ToolDefinition): string => {
  const own = JSON.stringify({ description: definition.description, input: published(definition) })
  const other = TAKES_FIELDS_OF[definition.name]
  return other ? own + listing(tool(other)) : own
}

const rulesOf = (name: string) => STATED_RULES.filter((rule) => rule.tools.includes(name))

/** A refusal's messages, each after its field's path, as the MCP layer writes them. */
const messagesOf = (definition: ToolDefinition, args: unknown) => {
  const parsed = definition.input.safeParse(args)
  return parsed.success
    ? undefined
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}

/**
 * `args` are accepted, unless they break a rule the listing states, and then every message says
 * one the arguments break. Breaking a rule that is not the provider's to judge is refused.
 */
function heldToItsSchema(definition: ToolDefinition, args: Record<string, unknown>) {
  const broken = rulesOf(definition.name).filter((rule) => rule.broken(args))
  const messages = messagesOf(definition, args)
  const shown = JSON.stringify(args).slice(0, 600)
  if (!messages) {
    const must = broken.filter((rule) => !rule.may).map((rule) => rule.rule)
    expect(must, `${definition.name} accepted ${shown}`).toEqual([])
    return
  }
  for (const message of messages) {
    const reason = broken.find((rule: StatedRule) => rule.says.test(message.replace(/^\S*: /, '')))
    expect(reason, `${definition.name} refused ${shown}: ${message}`).toBeDefined()
  }
}

const validator = new AjvJsonSchemaValidator()

describe('what a tool’s inputSchema admits is accepted', () => {
  it.each(TOOLS.map((t) => [t.name, t] as const))(
    '%s: every value its inputSchema admits, or refused for a rule it states',
    (_, definition) => {
      const conforms = validator.getValidator(published(definition))
      fc.assert(
        fc.property(admitted(definition), (args) => {
          // The values are the schema's own: the MCP SDK's validator admits each.
          expect(conforms(args).valid, JSON.stringify(args).slice(0, 300)).toBe(true)
          heldToItsSchema(definition, args as Record<string, unknown>)
        }),
        { numRuns: 300 },
      )
    },
  )

  it('the filters are generated within the bounds dimensionFilter’s description states', () => {
    const { description } = published(tool('run_report')).properties!.dimensionFilter!
    const { expressions, depth, name, values, text } = STATED_FILTER_BOUNDS
    for (const bound of [
      `1 to ${expressions} expressions`,
      `at most ${depth} deep`,
      `fieldName (up to ${name} characters)`,
      `"values": [1 to ${values.toLocaleString('en')}]`,
      `text values up to ${text.toLocaleString('en')} characters`,
    ])
      expect(description).toContain(bound)
  })

  it('each rule said in words is in the listing of every tool it holds for', () => {
    for (const rule of STATED_RULES)
      for (const name of rule.tools) expect(listing(tool(name)), rule.rule).toMatch(rule.stated)
  })
})

/** Every optional object or list of a tool: its path among the arguments, and its empty value. */
function optionalContainers(definition: ToolDefinition) {
  const schema = published(definition)
  const fields = (node: JsonSchema, at: string[]) =>
    Object.entries(node.properties ?? {})
      .filter(([key, field]) => !node.required?.includes(key) && emptyOf(field) !== undefined)
      .map(([key, field]) => ({ path: [...at, key], empty: emptyOf(field) }))
  const own = fields(schema, [])
  if (definition.name !== 'run_reports') return own
  // Each request takes run_report's fields: the first request's are tried.
  return [...own, ...fields(published(tool('run_report')), ['requests', '0'])]
}

const withAt = (args: unknown, path: string[], value: unknown): any => {
  if (!path.length) return value
  const [key, ...rest] = path
  const copy: any = Array.isArray(args) ? [...args] : { ...(args as object) }
  if (value === undefined && !rest.length) delete copy[key!]
  else copy[key!] = withAt(copy[key!], rest, value)
  return copy
}

/** Values the server accepts and no stated rule refuses: what an empty value is added to. */
const acceptedArgs = (definition: ToolDefinition, runs: number) =>
  fc.sample(
    admitted(definition).filter(
      (args) =>
        definition.input.safeParse(args).success &&
        !rulesOf(definition.name).some((rule) => rule.broken(args as Record<string, unknown>)),
    ),
    { numRuns: runs, seed: 7 },
  ) as Record<string, unknown>[]

describe('an empty optional object or list means none', () => {
  const withContainers = TOOLS.filter((t) => optionalContainers(t).length)

  it('is in every tool that takes one', () => {
    expect(withContainers.map((t) => t.name)).toEqual([
      'query_search_analytics',
      'get_metadata',
      'run_realtime_report',
      'run_report',
      'run_reports',
    ])
  })

  it.each(withContainers.map((t) => [t.name, t] as const))(
    '%s: each one as {} or [] is accepted, and the call is the one without it',
    (_, definition) => {
      for (const args of acceptedArgs(definition, 20))
        for (const { path, empty } of optionalContainers(definition)) {
          const without = definition.input.parse(withAt(args, path, undefined))
          const parsed = definition.input.safeParse(withAt(args, path, empty))
          expect(parsed.error?.issues, `${path.join('.')}: ${JSON.stringify(empty)}`).toBe(
            undefined,
          )
          expect(parsed.data).toEqual(without)
        }
    },
  )

  it('a required list stays required: [] is refused where the schema says minItems', () => {
    for (const definition of TOOLS) {
      const schema = published(definition)
      const [args] = acceptedArgs(definition, 1)
      for (const field of schema.required ?? []) {
        if (!schema.properties![field]!.minItems) continue
        const messages = messagesOf(definition, { ...args, [field]: [] })
        expect(messages, `${definition.name}.${field}`).toEqual([
          expect.stringMatching(new RegExp(`^${field}: .*at least one`)),
        ])
      }
    }
  })
})

describe('through the connector: an admitted empty value is never refused as invalid', () => {
  const suite = connectorForSuite()

  /** A call that went past the input validation, with what the provider holds. */
  async function connected(service: ServiceName) {
    const tools = serviceTools(suite, service, `admits-${service}`)
    const { call, client, person } = await tools.newPerson('2026-07-28')
    const assets = await suite.sandboxRequest('GET', `/_sandbox/users/${person.user}`)
    // The input validation's refusal; a preflight's (an unknown name) says "Nothing else was sent".
    const refusedAsInvalid = (result: CallToolResult) =>
      result.isError === true &&
      /^Invalid arguments for .*Nothing was sent to the provider/s.test(tools.text(result))
    return { call, client, refusedAsInvalid, assets: assets.body as Record<string, string[]> }
  }

  /** Known good arguments of each tool with optional objects or lists, on the person's own. */
  const BASES: Record<string, (assets: Record<string, string[]>) => Record<string, unknown>> = {
    query_search_analytics: ({ sites }) => ({
      siteUrl: sites![0],
      startDate: isoDay(pacificNow().day - 30),
      endDate: isoDay(pacificNow().day - 3),
    }),
    get_metadata: ({ properties }) => ({ propertiesId: properties![0] }),
    run_realtime_report: ({ properties }) => ({
      propertiesId: properties![0],
      metrics: [{ name: 'activeUsers' }],
    }),
    run_report: ({ properties }) => ({
      propertiesId: properties![0],
      dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
      metrics: [{ name: 'sessions' }],
    }),
    run_reports: ({ properties }) => ({
      propertiesId: properties![0],
      requests: [
        {
          dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }],
          metrics: [{ name: 'sessions' }],
        },
      ],
    }),
  }

  it.each(['search', 'analytics'] as const)(
    '%s: every optional object or list left empty, answered',
    async (service) => {
      const { call, client, refusedAsInvalid, assets } = await connected(service)
      for (const definition of SERVICE_TOOLS[service]) {
        const base = BASES[definition.name]
        if (!base) continue
        for (const { path, empty } of optionalContainers(definition)) {
          const result = await call(definition.name, withAt(base(assets), path, empty))
          expect(refusedAsInvalid(result), `${definition.name} ${path.join('.')}`).toBe(false)
          expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false)
        }
      }
      await client.close()
    },
  )

  /**
   * Some of the property's names (and currencies the provider knows), so that reports get past
   * the names' preflight to the provider.
   */
  const namesOf =
    (tool: string): Given =>
    (at) => {
      const realtime = tool === 'run_realtime_report'
      if (at.endsWith('dimensions[].name'))
        return fc.constantFrom(...(realtime ? ['country', 'minutesAgo'] : ['country', 'date']))
      if (at.endsWith('metrics[].name'))
        return fc.constantFrom(...(realtime ? ['activeUsers'] : ['sessions', 'activeUsers']))
      if (at.endsWith('currencyCode')) return fc.constantFrom('EUR', 'USD', 'JPY')
      if (at.endsWith('dimensionFilter'))
        return fc.constantFrom({}, { filter: { fieldName: 'country', emptyFilter: {} } })
      if (at.endsWith('metricFilter'))
        return fc.constantFrom(
          {},
          {
            filter: {
              fieldName: 'activeUsers',
              numericFilter: { operation: 'GREATER_THAN', value: { int64Value: '0' } },
            },
          },
        )
      return undefined
    }

  /** A page of the site, as its sites hold them. */
  const pageOf = (site: string) =>
    site.startsWith('sc-domain:')
      ? `https://${site.slice('sc-domain:'.length)}/page`
      : `${site}page`

  it.each(['tasks', 'search', 'analytics'] as const)(
    '%s: a sample of the values each read admits, on the person’s own, none refused as invalid unless a stated rule says so',
    async (service) => {
      const { call, client, refusedAsInvalid, assets } = await connected(service)
      const [site] = assets.sites ?? []
      const own: Record<string, unknown> = {
        tasklist: '@default',
        siteUrl: site,
        inspectionUrl: site && pageOf(site),
        sitemapIndex: site && pageOf(site),
        propertiesId: assets.properties?.[0],
      }
      const onTheirOwn = (definition: ToolDefinition) =>
        admitted(definition, namesOf(definition.name))
          .map((sample) =>
            Object.fromEntries(
              Object.entries(sample as object).map(([key, value]) => [key, own[key] ?? value]),
            ),
          )
          .filter((args) => !rulesOf(definition.name).some((rule) => rule.broken(args)))
      for (const definition of SERVICE_TOOLS[service]) {
        if (definition.approval) continue
        for (const args of fc.sample(onTheirOwn(definition), { numRuns: 5, seed: 11 })) {
          const result = await call(definition.name, args)
          expect(refusedAsInvalid(result), JSON.stringify(args).slice(0, 300)).toBe(false)
        }
      }
      await client.close()
    },
  )
})
