import { internalFailure } from '../results.js'
import type { Step } from './context.js'

/** The grant the call runs as: the endpoint always authenticates first, so none is a fault. */
export const requireGrant: Step = {
  name: 'grant',
  async run(call, next) {
    if (!call.caller) {
      call.parts.log.error({ tool: call.definition.name }, 'tool call without a grant')
      return { outcome: 'internal_error', result: internalFailure() }
    }
    call.var.grant = call.caller.grant
    return next()
  },
}
