import type { ToolGrant } from '../grant-access.js'
import { namedList } from '../grant-names.js'
import { uncovered } from '../coverage.js'
import { outsideGrant } from '../results.js'
import { toolError, type Ended, type Step, type ToolCall } from './context.js'

/** Held to what the grant covers before anything else: no request, no question, no count. */
export const withinGrant: Step = {
  name: 'coverage',
  async run(call, next) {
    const grant = call.need('grant')
    const outside = uncovered(call.definition.service, call.need('input'), grant.coverage)
    if (outside !== undefined) return outsideTheGrant(call, outside, grant)
    return next()
  },
}

/**
 * A call outside the grant, refused with the grant's own resources, closest first, from what
 * this replica knows of their names: a refusal sends nothing to the provider. A grant narrowed
 * while a change waited is refused without them.
 */
export function outsideTheGrant(call: ToolCall, value: string, grant?: ToolGrant): Ended {
  const { service } = call.definition
  const named = grant && call.parts.names.known(service, grant)
  const covered = named && namedList(service, named, value)
  return toolError(outsideGrant(service, value, call.parts.connectionsUrl, covered))
}
