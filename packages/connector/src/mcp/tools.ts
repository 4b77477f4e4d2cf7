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
import type { ToolDefinition } from '../services/definition.js'
import { toolJsonSchema } from '../services/json-schema.js'
import { SERVICES } from '../services/catalog.js'
import { viewMeta } from './views.js'
import { operationOf, type ProviderProfile } from '../services/profiles/index.js'
import type { AuditTrail } from '../approval/audit.js'
import type { ToolOutcome } from '../metrics/labels.js'
import { Metrics, type ToolCallMetrics } from '../metrics/metrics.js'
import type { FairShares } from '../quotas/fair-shares.js'
import type { RateLimiter } from '../store/rate-limits.js'
import { UpstreamApiError, type UpstreamApi, type UpstreamApiErrorKind } from '../upstream/index.js'
import type { ApprovalStep } from './approval.js'
import { isStoreUnreachable } from '../store/unreachable.js'
import { GrantRevokedError, type ToolGrant } from './grant-access.js'
import { changedSinceApproval } from './approval-words.js'
import type { ClientAsking } from './asking.js'
import { CallShape } from './call.js'
import { coveredBy, uncovered } from './coverage.js'
import { GrantListing } from './grant-listing.js'
import { GrantNames, namedList } from './grant-names.js'
import { providerReader } from './provider-reader.js'
import { ChangedSinceSeen, checkStillAsSeen } from './seen-version.js'
import {
  grantFailure,
  internalFailure,
  invalidArguments,
  outsideGrant,
  preflightRefusal,
  success,
  shareSpent,
  tooManyCalls,
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
 *   "per-call" (the tool table's access modes);
 * - `ui` (and its older flat form, `ui/resourceUri`): the view that draws the result, for hosts
 *   that render MCP Apps (views.ts).
 */
const SCOPE_META = 'countersign/scope'
const ACCESS_MODE_META = 'countersign/accessMode'

interface ServedTool {
  definition: ToolDefinition
  shape: CallShape
  /** Where each of its calls is counted, bound at startup. */
  metrics: ToolCallMetrics
  /**
   * Whether the provider's answer is what the tool reads: the `outputSchema` it is listed with,
   * or the answer its result is built from (compiled at startup).
   */
  conforms: (answer: unknown) => boolean
}

/**
 * An answer is checked against JSON Schema, as an MCP client checks a result, by the SDK's own
 * validator (ajv, compiled once per tool): it checks in place, where the zod schema it was
 * generated from would copy the whole answer first (docs/decisions.md, "Large results").
 */
const answerValidator = new AjvJsonSchemaValidator()

/** What a call ended in: its result, and how it is counted (metrics/labels.ts). */
interface Ended {
  outcome: ToolOutcome
  result: CallToolResult | InputRequiredResult
}

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
  /** Where each call is counted, by tool and outcome, and timed (src/metrics). */
  metrics?: Metrics
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

/** Who calls, as the tools see it: the grant, and how the person can be asked in the client. */
export interface ToolCaller {
  grant: ToolGrant
  /** Read only for a change: a read has no one to ask. */
  asking?: () => ClientAsking | undefined
}

export class ServiceTools {
  /**
   * The `tools/list` result, built once and shared (frozen): what a grant's listing starts from,
   * and the whole of it where the grant names nothing (grant-listing.ts).
   */
  readonly listing: ListToolsResult
  readonly #grantListing: GrantListing
  readonly #names: GrantNames
  readonly #served = new Map<string, ServedTool>()
  readonly #api: Pick<UpstreamApi, 'call'>
  readonly #profile: ProviderProfile
  readonly #log: Logger
  readonly #approval: ApprovalStep | undefined
  readonly #audit: Pick<AuditTrail, 'record'> | undefined
  readonly #callLimit: RateLimiter | undefined
  readonly #shares: Pick<FairShares, 'admit'> | undefined
  readonly #connectionsUrl: string
  readonly #metrics: Metrics

  constructor(definitions: readonly ToolDefinition[], deps: ServiceToolsDeps) {
    this.#api = deps.api
    this.#connectionsUrl = deps.connectionsUrl
    this.#profile = deps.profile
    this.#log = deps.log
    this.#approval = deps.approval
    this.#audit = deps.audit
    this.#callLimit = deps.callLimit
    this.#shares = deps.shares
    const metrics = (this.#metrics = deps.metrics ?? new Metrics())
    const tools: Tool[] = []
    for (const definition of definitions) {
      if (definition.approval && !this.#approval) continue
      if (this.#served.has(definition.name))
        throw new Error(`The tool ${definition.name} is defined twice.`)
      const shape = new CallShape(definition, operationOf(deps.profile, definition.name))
      const counted = metrics.toolCalls(definition.service, definition.name, {
        approval: definition.approval !== undefined,
      })
      const listed = listedTool(definition)
      const answer = definition.answer
        ? toolJsonSchema(definition.answer.schema, 'output')
        : listed.outputSchema
      const check = answerValidator.getValidator(answer as JsonSchemaType)
      const conforms = (body: unknown) => check(body).valid
      this.#served.set(definition.name, { definition, shape, metrics: counted, conforms })
      tools.push(listed)
    }
    this.listing = deepFreeze({ tools })
    this.#names = deps.names ?? new GrantNames(deps)
    const service = definitions[0]?.service ?? 'tasks'
    this.#grantListing = new GrantListing(service, this.listing, this.#names)
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
   * Runs one `tools/call`. Arguments are validated before anything is sent; every outcome the
   * model can act on is a result (see results.ts). Only an unknown tool is a protocol error.
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
      ended = await this.#call(tool, args, caller)
      return ended.result
    } finally {
      tool.metrics.record(ended?.outcome ?? 'internal_error', started)
    }
  }

  /** The call itself: its result, and the outcome it is counted as (metrics/labels.ts). */
  async #call(tool: ServedTool, args: unknown, caller: ToolCaller | undefined): Promise<Ended> {
    const { definition, shape, conforms } = tool
    const parsed = definition.input.safeParse(args ?? {})
    if (!parsed.success) {
      const unnamed = await this.#unnamed(definition, args, parsed.error, caller?.grant)
      return toolError(invalidArguments(definition.name, parsed.error, unnamed))
    }
    const input = parsed.data as Record<string, unknown>
    if (!caller) {
      // The endpoint always authenticates first: a call without a grant is a wiring fault.
      this.#log.error({ tool: definition.name }, 'tool call without a grant')
      return { outcome: 'internal_error', result: internalFailure() }
    }
    const { grant } = caller
    // Held to what the grant covers before anything else: no request, no question, no count.
    const outside = uncovered(definition.service, input, grant.coverage)
    if (outside !== undefined) return this.#outside(definition, outside, grant)
    if (this.#callLimit) {
      // Beyond the grant's limit: a result that says when to retry, and nothing sent upstream.
      const verdict = await this.#callLimit.take(grant.link.grantId)
      if (!verdict.allowed) {
        return {
          outcome: 'rate_limited',
          result: tooManyCalls(this.#callLimit, verdict.retryAfterSeconds),
        }
      }
    }
    const { quota } = tool.shape
    if (this.#shares && quota && grant.person !== undefined) {
      // Beyond the person's fair share of the project's day, with no room left: nothing sent.
      const verdict = await this.#shares.admit(quota, grant.person)
      if (!verdict.allowed) {
        this.#metrics.quotaShareRefused(quota)
        return { outcome: 'over_share', result: shareSpent(verdict.refusal) }
      }
    }
    const provider = () => providerReader(this.#api, this.#profile, definition.service, grant)
    /** The approval the change goes with: once set, the change is on its way. */
    let approvalId: string | undefined
    try {
      if (definition.preflight) {
        const problem = await definition.preflight(input, provider())
        if (problem !== undefined) return toolError(preflightRefusal(definition.name, problem))
      }
      let ifMatch: string | undefined
      if (definition.approval) {
        const clearance = await this.#approval!.clear(definition, input, grant, caller.asking?.())
        if (!clearance.go) return clearance
        approvalId = clearance.approvalId
        ifMatch = clearance.ifMatch
        // The person may have narrowed the grant while the change waited for them: what it
        // covers now decides, and a change approved for what it no longer covers is not made.
        const narrowed = uncovered(definition.service, input, await grant.coverageNow())
        if (narrowed !== undefined) {
          await this.#record(definition, grant, approvalId, 'failed', undefined)
          return this.#outside(definition, narrowed)
        }
        const { existing } = definition.approval
        if (ifMatch !== undefined && existing && !this.#profile.enforcesIfMatch)
          await checkStillAsSeen(provider(), existing, input, ifMatch)
      }
      const result = await this.#api.call(shape.apiCall(input, ifMatch), grant)
      if (approvalId) await this.#record(definition, grant, approvalId, 'executed', result.status)
      const answer = shape.answerOf(result, input)
      if (!isObject(answer) || !conforms(answer)) {
        this.#log.warn(
          { tool: definition.name, status: result.status },
          'provider answer is not what the tool reads',
        )
        return { outcome: 'upstream_error', result: unexpectedAnswer(approvalId !== undefined) }
      }
      if (definition.made) await this.#join(definition, grant, definition.made(answer))
      const shown =
        definition.narrow && !grant.coverage.all
          ? definition.narrow(answer, coveredBy(grant.coverage))
          : answer
      const structured = definition.answer ? definition.answer.present(shown, input) : shown
      // The provider's answer is the result as it is: its own text is the result's text.
      const text = structured === result.body ? result.text : undefined
      return { outcome: 'ok', result: success(structured, text) }
    } catch (error) {
      if (isStoreUnreachable(error)) {
        // Only the steps before the change is sent use the store (what follows it, the trail
        // and a list joining its grant, never throws): nothing was made, and the request is
        // answered 503, to be tried again (endpoint.ts).
        grant.storeAway = error
        return { outcome: 'internal_error', result: internalFailure() }
      }
      if (approvalId) await this.#record(definition, grant, approvalId, 'failed', statusOf(error))
      if (error instanceof ChangedSinceSeen) return toolError(changedSinceApproval(definition.name))
      if (error instanceof UpstreamApiError) {
        if (approvalId && error.status === 412)
          return toolError(changedSinceApproval(definition.name))
        return {
          outcome: UPSTREAM_OUTCOMES[error.kind],
          result: upstreamFailure(error, shape.pathParams),
        }
      }
      const known = grantFailure(error)
      if (known) {
        const outcome = error instanceof GrantRevokedError ? 'revoked' : 'upstream_error'
        return { outcome, result: known }
      }
      this.#log.error({ err: error, tool: definition.name }, 'tool call failed')
      return { outcome: 'internal_error', result: internalFailure() }
    }
  }

  /**
   * A call outside the grant, refused with the grant's own resources, closest first, from what
   * this replica knows of their names: a refusal sends nothing to the provider. A grant
   * narrowed while a change waited is refused without them.
   */
  #outside(definition: ToolDefinition, value: string, grant?: ToolGrant): Ended {
    const { service } = definition
    const named = grant && this.#names.known(service, grant)
    const covered = named && namedList(service, named, value)
    return toolError(outsideGrant(service, value, this.#connectionsUrl, covered))
  }

  /**
   * For a call of a service whose tools alone name its resources (analytics: no tool lists the
   * properties) that names none, or names one wrongly (by name, say): the grant's, closest to
   * what was given first, and where the person adds one. Nothing else is sent.
   */
  async #unnamed(
    definition: ToolDefinition,
    args: unknown,
    error: z.ZodError,
    grant: ToolGrant | undefined,
  ): Promise<string | undefined> {
    const { service } = definition
    const { fields, listedBy } = SERVICES[service].resource
    if (!grant || listedBy !== undefined) return undefined
    const field = fields.find((name) => error.issues.some((issue) => issue.path[0] === name))
    if (field === undefined) return undefined
    const named = await this.#names.of(service, grant)
    if (named === undefined) return undefined
    const given = isObject(args) && typeof args[field] === 'string' ? args[field] : undefined
    return `${namedList(service, named, given)} The person can add one at ${this.#connectionsUrl}.`
  }

  /** What the call made (a list) joins the grant: the assistant can use what it made. */
  async #join(definition: ToolDefinition, grant: ToolGrant, id: string | undefined) {
    if (id === undefined) return
    try {
      await grant.join(id)
    } catch (error) {
      // Made all the same: the answer must say so. The person can add it on their page.
      this.#log.error(
        { err: error, tool: definition.name },
        'what the call made did not join its grant',
      )
    }
  }

  /** The audit trail of a change that was sent: never its payload. */
  async #record(
    definition: ToolDefinition,
    grant: ToolGrant,
    approvalId: string,
    decision: 'executed' | 'failed',
    upstreamStatus: number | undefined,
  ) {
    try {
      await this.#audit?.record({
        grantId: grant.link.grantId,
        tool: definition.name,
        decision,
        upstreamStatus,
        approvalId,
      })
    } catch (error) {
      // The change is made (or refused) whatever the trail says: the answer must tell it.
      this.#log.error({ err: error, tool: definition.name }, 'could not record an audit event')
    }
  }
}

const statusOf = (error: unknown) => (error instanceof UpstreamApiError ? error.status : undefined)

const toolError = (result: CallToolResult): Ended => ({ outcome: 'tool_error', result })

/**
 * A provider's refusal the model can act on (change the arguments, read again) is a tool error;
 * the provider failing (busy, down, lost, not understood) is an upstream error.
 */
const UPSTREAM_OUTCOMES: Record<UpstreamApiErrorKind, ToolOutcome> = {
  invalid: 'tool_error',
  failed_precondition: 'tool_error',
  not_found: 'tool_error',
  permission: 'tool_error',
  conflict: 'tool_error',
  rate_limited: 'upstream_error',
  quota_exhausted: 'upstream_error',
  api_disabled: 'upstream_error',
  unavailable: 'upstream_error',
  outcome_unknown: 'upstream_error',
  malformed: 'upstream_error',
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}
