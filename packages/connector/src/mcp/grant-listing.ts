import type { ListToolsResult, Tool } from '@modelcontextprotocol/server'
import { NAMED_IN_SCHEMA, SERVICES, type ServiceName } from '../services/catalog.js'
import type { ToolGrant } from './grant-access.js'
import type { GrantNames, Named } from './grant-names.js'

/**
 * A `tools/list` answer for the grant presented (never for a connection): each input field that
 * names one of the service's resources names those the grant covers, so that a model picks the
 * one the person means rather than asking them for an id.
 *
 * - analytics, always: `propertiesId` is one of the grant's properties, each titled with its
 *   display name and account; there is no tool that lists them.
 * - tasks and search, for a grant narrowed to chosen lists or sites: `tasklist`, `siteUrl`. A
 *   grant of every one keeps the shared listing, and the listing tools find them.
 *
 * The names are given once, in the service's main tool (its resource's `titledIn`); every other tool's field is
 * one of the same values, and says where their names are: a property's name and account cost
 * some 18 tokens, which four tools repeating would make 72 a property (docs/decisions.md, "A
 * grant's properties in the tools' schemas"). Beyond a page, the first are named, with how many
 * more there are and how to name another. The answer is private to its client (handler.ts): one
 * person's names never reach another's cache.
 */

type Schema = Record<string, unknown>

export class GrantListing {
  constructor(
    private readonly service: ServiceName,
    /** The listing every grant of every one shares (tools.ts). */
    private readonly shared: ListToolsResult,
    private readonly names: GrantNames,
  ) {}

  async for(grant: ToolGrant | undefined): Promise<ListToolsResult> {
    if (!grant || (this.service !== 'analytics' && grant.coverage.all)) return this.shared
    const named = await this.names.of(this.service, grant)
    // The provider could not name a grant of every one just now: the shared listing.
    if (named === undefined) return this.shared
    const { fields } = SERVICES[this.service].resource
    return {
      tools: this.shared.tools.map((tool) => {
        const properties = tool.inputSchema.properties
        if (!properties || !fields.some((field) => field in properties)) return tool
        // Values that are their own names (sites) are given whole in every tool.
        const titled =
          tool.name === SERVICES[this.service].resource.titledIn ||
          named.every((one) => one.title === undefined)
        const naming: Record<string, unknown> = { ...properties }
        for (const field of fields) {
          const shared = properties[field] as Schema | undefined
          if (shared) naming[field] = fieldSchema(this.service, shared, named, grant, titled)
        }
        return { ...tool, inputSchema: { ...tool.inputSchema, properties: naming } } as Tool
      }),
    }
  }
}

/** A resource field's schema, naming the grant's resources. */
function fieldSchema(
  service: ServiceName,
  shared: Schema,
  named: readonly Named[],
  grant: ToolGrant,
  titled: boolean,
): Schema {
  const page = named.slice(0, NAMED_IN_SCHEMA)
  const more = named.length - page.length
  const choice = choiceOf(titled ? page : page.map(({ value }) => ({ value })))
  const description = titled
    ? describe(service, String(shared.description ?? ''), named.length, more, grant)
    : pointer(service, String(shared.description ?? ''), more)
  if (page.length === 0) return { ...shared, description }
  // All of them: the field takes one of these. Beyond a page, one of these or another.
  if (more === 0) return { type: 'string', description, ...choice }
  return { type: 'string', description, anyOf: [choice, withoutDescription(shared)] }
}

/** One of `page`: titled constants where the provider names them, else a plain enum. */
function choiceOf(page: readonly Named[]): Schema {
  if (!page.some((one) => one.title !== undefined)) return { enum: page.map((one) => one.value) }
  return {
    oneOf: page.map((one) =>
      one.title === undefined ? { const: one.value } : { const: one.value, title: one.title },
    ),
  }
}

function withoutDescription(schema: Schema): Schema {
  const { description: _description, ...rest } = schema
  return rest
}

/** What the field's description says of the grant's resources. */
function describe(
  service: ServiceName,
  shared: string,
  total: number,
  more: number,
  grant: ToolGrant,
): string {
  const { noun, nouns, listedBy } = SERVICES[service].resource
  if (total === 0)
    return `${shared} This connection covers no ${noun} yet: the person can add one on their connections page.`
  const which = grant.coverage.all ? `every ${noun} of the person` : `only its ${total} ${nouns}`
  if (service === 'analytics') {
    if (more === 0)
      return `The property, by number: one of the ${total} this connection may use, titled with its name and account.`
    return `The property, by number. This connection may use ${which}, ${total} in all: the first ${total - more} are named here. For another, give its number, or its name, and the answer names the closest with their numbers.`
  }
  if (more === 0) return `${shared} This connection may use only these.`
  return `${shared} This connection may use ${which}: the first ${total - more} are named here, and ${listedBy} lists them all.`
}

/** A field that takes the same values as the titled one, and says where their names are. */
function pointer(service: ServiceName, shared: string, more: number): string {
  const { noun } = SERVICES[service].resource
  const field = SERVICES[service].resource.fields[0]
  const where = `${SERVICES[service].resource.titledIn}’s ${field} names`
  const one =
    more === 0 ? `one of those ${where}` : `one of those ${where}, or another it says how to name`
  return service === 'analytics' ? `The ${noun}, by number: ${one}.` : `${shared} It is ${one}.`
}
