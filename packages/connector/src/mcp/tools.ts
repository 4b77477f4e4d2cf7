import { EventEmitter } from 'node:events'
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/server'
import type { JsonSchemaType } from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import type { Logger } from 'pino'
import type { z } from 'zod'
import type { AuditTrail } from '../approval/audit.js'
import type { FairShares } from '../quotas/fair-shares.js'
import type { ToolDefinition } from '../services/definition.js'
import { toolJsonSchema } from '../services/json-schema.js'
import { operationOf, type ProviderProfile } from '../services/profiles/index.js'
import type { RateLimiter } from '../store/rate-limits.js'
import type { UpstreamApi } from '../upstream/index.js'
import type { ApprovalStep } from './approval.js'
import { CallShape } from './call.js'
import type { McpEvents } from './events.js'
import type { ToolGrant } from './grant-access.js'
import { GrantListing } from './grant-listing.js'
import { GrantNames } from './grant-names.js'
import { compose, type StepMeter } from './steps/compose.js'
import {
  ToolCall,
  type Ended,
  type ServedTool,
  type ToolCallParts,
  type ToolCaller,
} from './steps/context.js'
import { TOOL_CALL_STEPS } from './steps/order.js'
import { viewMeta } from './views.js'

export type { ToolCaller }

/**
 * One service's tools, built from its definitions once, at startup: the `tools/list` answer
 * (JSON Schema generated from the same zod schemas that validate) and the `tools/call` handler.
 * Nothing here knows a tool by name: everything a tool does is read from its definition.
 */

/**
 * The `_meta` keys of a listed tool:
 * - `countersign/scope`: the short scope a token needs to call it, e.g. "tasks.readonly";
 * - `countersign/accessMode`: for a change, how the person approves each call, "auth-token" or
 *   "per-call" (the tool table's access modes);
 * - `ui` (and its older flat form, `ui/resourceUri`): the view that draws the result, for hosts
 *   that render MCP Apps (views.ts).
 */
const SCOPE_META = 'countersign/scope'
const ACCESS_MODE_META = 'countersign/accessMode'

/**
 * An answer is checked against JSON Schema, as an MCP client checks a result, by the SDK's own
 * validator (ajv, compiled once per tool): it checks in place, where the zod schema it was
 * generated from would copy the whole answer first (docs/decisions.md, "Large results").
 */
const answerValidator = new AjvJsonSchemaValidator()

export interface ServiceToolsDeps {
  api: Pick<UpstreamApi, 'call'>
  /** Where each tool's call goes at the provider, and what the provider enforces itself. */
  profile: ProviderProfile
  log: Logger
  /**
   * The approval step every change goes through. Without it, changes are not served: they are
   * not listed, and a call to one is answered like a call to an unknown tool. No change can run
   * unapproved.
   */
  approval?: ApprovalStep
  /** Where executed and failed changes are recorded. */
  audit?: Pick<AuditTrail, 'record'>
  /**
   * The limit on tool calls per grant, which keeps the person's quota at the provider: counted
   * by grant id, for each call with valid arguments, before anything is sent. Unset: no limit.
   */
  callLimit?: RateLimiter
  /**
   * Fair shares of the provider project's daily quotas: a call of a person beyond their share,
   * when the project has no room left, is refused before anything is sent. Unset: none.
   */
  shares?: Pick<FairShares, 'admit'>
  /** Where each tool served and each call's end are told (events.ts); unset, nowhere. */
  events?: EventEmitter<McpEvents>
  /** What measures each step of every call (METRICS_TOOL_STEPS=1); unset, nothing. */
  stepCosts?: StepMeter
  /**
   * The person's connections page, where they change what a grant covers: named to the model
   * when a call names a list, site or property outside its grant.
   */
  connectionsUrl: string
  /**
   * Where the names of a grant's lists, sites or properties are read and kept a moment, for its
   * listing and its refusals; one of the service's own unless shared (tests).
   */
  names?: GrantNames
}

export class ServiceTools {
  /**
   * The `tools/list` result, built once and shared (frozen): what a grant's listing starts from,
   * and the whole of it where the grant names nothing (grant-listing.ts).
   */
  readonly listing: ListToolsResult
  readonly #grantListing: GrantListing
  readonly #served = new Map<string, ServedTool>()
  readonly #parts: ToolCallParts
  /** Every call runs through the same steps (steps/order.ts), each one measured if asked. */
  readonly #run: (call: ToolCall) => Promise<Ended>
  readonly #events: EventEmitter<McpEvents>

  constructor(definitions: readonly ToolDefinition[], deps: ServiceToolsDeps) {
    this.#events = deps.events ?? new EventEmitter()
    this.#run = compose(TOOL_CALL_STEPS, deps.stepCosts)
    const names = deps.names ?? new GrantNames(deps)
    this.#parts = {
      api: deps.api,
      profile: deps.profile,
      log: deps.log,
      approval: deps.approval,
      audit: deps.audit,
      callLimit: deps.callLimit,
      shares: deps.shares,
      connectionsUrl: deps.connectionsUrl,
      names,
    }
    const tools: Tool[] = []
    for (const definition of definitions) {
      if (definition.approval && !deps.approval) continue
      if (this.#served.has(definition.name))
        throw new Error(`The tool ${definition.name} is defined twice.`)
      const shape = new CallShape(definition, operationOf(deps.profile, definition.name))
      const listed = listedTool(definition)
      const answer = definition.answer
        ? toolJsonSchema(definition.answer.schema, 'output')
        : listed.outputSchema
      const check = answerValidator.getValidator(answer as JsonSchemaType)
      const conforms = (body: unknown) => check(body).valid
      this.#served.set(definition.name, { definition, shape, conforms })
      this.#events.emit('served', definition)
      tools.push(listed)
    }
    this.listing = deepFreeze({ tools })
    const service = definitions[0]?.service ?? 'tasks'
    this.#grantListing = new GrantListing(service, this.listing, names)
  }

  /** The `tools/list` result for the grant presented: its resources named (grant-listing.ts). */
  listingFor(grant: ToolGrant | undefined): Promise<ListToolsResult> {
    return this.#grantListing.for(grant)
  }

  /** The scope a call to `name` needs; undefined for a tool that is not served. */
  scopeOf(name: unknown): string | undefined {
    return typeof name === 'string' ? this.#served.get(name)?.definition.scope : undefined
  }

  /**
   * Runs one `tools/call` through the steps of steps/order.ts. Arguments are validated before
   * anything is sent; every outcome the model can act on is a result (see results.ts). Only an
   * unknown tool is a protocol error.
   */
  async call(
    name: string,
    args: unknown,
    caller: ToolCaller | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
    const tool = this.#served.get(name)
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${name.slice(0, 100)}. Call tools/list for the tools this server has.`,
      )
    }
    const started = performance.now()
    let ended: Ended | undefined
    try {
      ended = await this.#run(new ToolCall(tool, args, caller, this.#parts))
      return ended.result
    } finally {
      this.#events.emit('called', tool.definition, ended?.outcome ?? 'internal_error', started)
    }
  }
}

/** A definition as `tools/list` shows it. */
export function listedTool(definition: ToolDefinition): Tool {
  const meta: Record<string, unknown> = { [SCOPE_META]: definition.scope }
  if (definition.approval) meta[ACCESS_MODE_META] = definition.approval.mode
  if (definition.view) Object.assign(meta, viewMeta(definition.view))
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: objectSchema(definition.input, 'input'),
    outputSchema: objectSchema(definition.output, 'output'),
    annotations: { ...definition.annotations },
    _meta: meta,
  }
}

type ObjectSchema = Tool['inputSchema']

function objectSchema(schema: z.ZodType, io: 'input' | 'output'): ObjectSchema {
  const json = toolJsonSchema(schema, io)
  if (json.type !== 'object')
    throw new Error(`A tool's ${io} schema must describe an object, not ${String(json.type)}.`)
  return json as ObjectSchema
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}
