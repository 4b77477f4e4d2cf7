import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server'
import type { Logger } from 'pino'
import type { AuditTrail } from '../../approval/audit.js'
import type { FairShares } from '../../quotas/fair-shares.js'
import type { ToolDefinition } from '../../services/definition.js'
import type { ProviderProfile } from '../../services/profiles/index.js'
import type { RateLimiter } from '../../store/rate-limits.js'
import type { ApiResult, UpstreamApi } from '../../upstream/index.js'
import type { ApprovalStep } from '../approval.js'
import type { ClientAsking } from '../asking.js'
import type { CallWaiting } from '../device-wait.js'
import type { CallShape } from '../call.js'
import type { ToolOutcome } from '../events.js'
import type { ToolGrant } from '../grant-access.js'
import type { GrantNames } from '../grant-names.js'

/**
 * A tool call as the steps see it (docs/architecture.md, "A tool call, step by step"): the tool,
 * the arguments and the caller it starts with, the service's parts every step may use, and what
 * each step adds for the ones after it (`var`, in the manner of Hono's `c.var`).
 */

/** One of the service's tools, as built at startup from its definition. */
export interface ServedTool {
  definition: ToolDefinition
  shape: CallShape
  /**
   * Whether the provider's answer is what the tool reads: the `outputSchema` it is listed with,
   * or the answer its result is built from (compiled at startup).
   */
  conforms: (answer: unknown) => boolean
}

/** Who calls, as the tools see it: the grant, and how the person can be asked in the client. */
export interface ToolCaller {
  grant: ToolGrant
  /** Read only for a change: a read has no one to ask. */
  asking?: () => ClientAsking | undefined
  /** A change's call that waits for the person on their device (device-wait.ts). */
  waiting?: () => CallWaiting
}

/** What a call ended in: its result, and its outcome (events.ts says each). */
export interface Ended {
  outcome: ToolOutcome
  result: CallToolResult | InputRequiredResult
}

/** The service's parts the steps use: the same for every call. */
export interface ToolCallParts {
  api: Pick<UpstreamApi, 'call'>
  profile: ProviderProfile
  log: Logger
  approval: ApprovalStep | undefined
  audit: Pick<AuditTrail, 'record'> | undefined
  callLimit: RateLimiter | undefined
  shares: Pick<FairShares, 'admit'> | undefined
  connectionsUrl: string
  names: GrantNames
}

/** What the steps hand on, each set by the step named. */
export interface CallVars {
  /** The arguments as the input schema read them (input.ts). */
  input: Record<string, unknown>
  /** The grant the call runs as (grant.ts). */
  grant: ToolGrant
  /** The approval the change goes with: once set, the change is on its way (approval.ts). */
  approvalId: string
  /** The version of the resource the person saw, sent as If-Match (approval.ts). */
  ifMatch: string
  /** The provider's answer to the tool's own request (provider-call.ts). */
  sent: ApiResult
  /** That answer, checked to be what the tool reads (answer-check.ts). */
  answer: Record<string, unknown>
}

export class ToolCall {
  readonly var: Partial<CallVars> = {}

  constructor(
    readonly tool: ServedTool,
    readonly args: unknown,
    readonly caller: ToolCaller | undefined,
    readonly parts: ToolCallParts,
  ) {}

  get definition(): ToolDefinition {
    return this.tool.definition
  }

  /** What an earlier step must have set: its absence is a fault of the declared order. */
  need<K extends keyof CallVars>(key: K): CallVars[K] {
    const value = this.var[key]
    if (value === undefined) throw new Error(`no ${key} yet: a step before this one sets it`)
    return value as CallVars[K]
  }
}

export type Next = () => Promise<Ended>

/** A step hands the call on (`next()`) or ends it with an outcome. */
export interface Step {
  name: string
  run(call: ToolCall, next: Next): Promise<Ended>
}

export const toolError = (result: CallToolResult): Ended => ({ outcome: 'tool_error', result })
