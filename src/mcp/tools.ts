import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/server'
import type { Logger } from 'pino'
import { z } from 'zod'
import type { ToolDefinition } from '../services/definition.js'
import { UpstreamApiError, type ApiGrant, type UpstreamApi } from '../upstream/index.js'
import { CallShape } from './call.js'
import { providerReader } from './provider-reader.js'
import {
  grantFailure,
  internalFailure,
  invalidArguments,
  preflightRefusal,
  success,
  unexpectedAnswer,
  upstreamFailure,
} from './results.js'

/**
 * One service's tools, built from its definitions once, at startup: the `tools/list` answer
 * (JSON Schema generated from the same zod schemas that validate) and the `tools/call` handler.
 * Nothing here knows a tool by name: everything a tool does is read from its definition.
 */

/**
 * The `_meta` keys of a listed tool:
 * - `countersign/scope`: the short scope a token needs to call it, e.g. "tasks.readonly";
 * - `countersign/accessMode`: for a change, how the person approves each call, "auth-token" or
 *   "per-call" (the seed's access modes).
 */
export const SCOPE_META = 'countersign/scope'
export const ACCESS_MODE_META = 'countersign/accessMode'

/**
 * Tools whose approval policy cannot be enforced are not served: they are not listed, and a
 * call to one is answered like a call to an unknown tool. Every change declares an approval
 * policy and nothing enforces one yet (the approval gate comes next), so today no change is
 * served at all. This is the one place that decides it: no change can ever run unapproved.
 */
const approvalEnforceable = (definition: ToolDefinition) => definition.approval === undefined

interface ServedTool {
  definition: ToolDefinition
  shape: CallShape
}

export interface ServiceToolsDeps {
  api: Pick<UpstreamApi, 'call'>
  log: Logger
}

export class ServiceTools {
  /** The `tools/list` result, built once and shared (frozen) by every request. */
  readonly listing: ListToolsResult
  readonly #served = new Map<string, ServedTool>()
  readonly #api: Pick<UpstreamApi, 'call'>
  readonly #log: Logger

  constructor(definitions: readonly ToolDefinition[], deps: ServiceToolsDeps) {
    this.#api = deps.api
    this.#log = deps.log
    const tools: Tool[] = []
    for (const definition of definitions) {
      if (!approvalEnforceable(definition)) continue
      if (this.#served.has(definition.name))
        throw new Error(`The tool ${definition.name} is defined twice.`)
      this.#served.set(definition.name, { definition, shape: new CallShape(definition) })
      tools.push(listedTool(definition))
    }
    this.listing = deepFreeze({ tools })
  }

  /** The scope a call to `name` needs; undefined for a tool that is not served. */
  scopeOf(name: unknown): string | undefined {
    return typeof name === 'string' ? this.#served.get(name)?.definition.scope : undefined
  }

  /**
   * Runs one `tools/call`. Arguments are validated before anything is sent; every outcome the
   * model can act on is a result (see results.ts). Only an unknown tool is a protocol error.
   */
  async call(name: string, args: unknown, grant: ApiGrant | undefined): Promise<CallToolResult> {
    const tool = this.#served.get(name)
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${name.slice(0, 100)}. Call tools/list for the tools this server has.`,
      )
    }
    const { definition, shape } = tool
    const parsed = definition.input.safeParse(args ?? {})
    if (!parsed.success) return invalidArguments(definition.name, parsed.error)
    const input = parsed.data as Record<string, unknown>
    if (!grant) {
      // The endpoint always authenticates first: a call without a grant is a wiring fault.
      this.#log.error({ tool: definition.name }, 'tool call without a grant')
      return internalFailure()
    }
    try {
      if (definition.preflight) {
        const problem = await definition.preflight(
          input,
          providerReader(this.#api, definition.service, grant),
        )
        if (problem !== undefined) return preflightRefusal(definition.name, problem)
      }
      const result = await this.#api.call(shape.apiCall(input), grant)
      const output = definition.output.safeParse(shape.structured(result, input))
      if (!output.success || !isObject(output.data)) {
        this.#log.warn(
          { tool: definition.name, status: result.status },
          'provider answer does not fit the output schema',
        )
        return unexpectedAnswer(definition.method !== 'GET')
      }
      return success(output.data)
    } catch (error) {
      if (error instanceof UpstreamApiError) return upstreamFailure(error, shape.pathParams)
      const known = grantFailure(error)
      if (known) return known
      this.#log.error({ err: error, tool: definition.name }, 'tool call failed')
      return internalFailure()
    }
  }
}

/** A definition as `tools/list` shows it. */
export function listedTool(definition: ToolDefinition): Tool {
  const meta: Record<string, string> = { [SCOPE_META]: definition.scope }
  if (definition.approval) meta[ACCESS_MODE_META] = definition.approval.mode
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonSchema(definition.input, 'input'),
    outputSchema: jsonSchema(definition.output, 'output'),
    annotations: { ...definition.annotations },
    _meta: meta,
  }
}

type ObjectSchema = Tool['inputSchema']

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): ObjectSchema {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Record<string, unknown>
  if (json.type !== 'object')
    throw new Error(`A tool's ${io} schema must describe an object, not ${String(json.type)}.`)
  return json as ObjectSchema
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}
