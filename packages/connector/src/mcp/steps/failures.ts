import { isStoreUnreachable } from '../../store/unreachable.js'
import { UPSTREAM_FAILURES, UpstreamApiError } from '../../upstream/index.js'
import { changedSinceApproval } from '../approval-words.js'
import { GrantRevokedError } from '../grant-access.js'
import { grantFailure, internalFailure, upstreamFailure } from '../results.js'
import { ChangedSinceSeen } from '../seen-version.js'
import { recordChange } from './audit.js'
import { toolError, type Ended, type Step, type ToolCall } from './context.js'

/**
 * What the steps after it throw, as the outcome the model can act on: the provider's refusal or
 * failure, a change that met a newer version, a grant revoked, the store away. A change on its
 * way is recorded as failed.
 */
export const endFailures: Step = {
  name: 'failures',
  async run(call, next) {
    try {
      return await next()
    } catch (error) {
      return failed(call, error)
    }
  },
}

async function failed(call: ToolCall, error: unknown): Promise<Ended> {
  const { definition, tool } = call
  if (isStoreUnreachable(error)) {
    // Only the steps before the change is sent use the store (what follows it, the trail and a
    // list joining its grant, never throws): nothing was made, and the request is answered
    // 503, to be tried again (endpoint.ts).
    call.need('grant').endForStoreAway(error)
    return { outcome: 'internal_error', result: internalFailure() }
  }
  const approved = call.var.approvalId !== undefined
  if (approved) await recordChange(call, 'failed', statusOf(error))
  if (error instanceof ChangedSinceSeen) return toolError(changedSinceApproval(definition.name))
  if (error instanceof UpstreamApiError) {
    if (approved && error.status === 412) return toolError(changedSinceApproval(definition.name))
    return {
      // What the model can act on is a tool error; the rest is the provider's (failure-kinds.ts).
      outcome: UPSTREAM_FAILURES[error.kind].modelCanAct ? 'tool_error' : 'upstream_error',
      result: upstreamFailure(error, tool.shape.pathParams),
    }
  }
  const known = grantFailure(error)
  if (known) {
    const outcome = error instanceof GrantRevokedError ? 'revoked' : 'upstream_error'
    return { outcome, result: known }
  }
  call.parts.log.error({ err: error, tool: definition.name }, 'tool call failed')
  return { outcome: 'internal_error', result: internalFailure() }
}

const statusOf = (error: unknown) => (error instanceof UpstreamApiError ? error.status : undefined)
