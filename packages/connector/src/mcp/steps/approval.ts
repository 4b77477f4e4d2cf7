import { uncovered } from '../coverage.js'
import { checkStillAsSeen } from '../seen-version.js'
import { recordChange } from './audit.js'
import type { Step } from './context.js'
import { readerOf } from './reader.js'
import { outsideTheGrant } from './within-grant.js'

/**
 * A change goes only with the person's approval of that exact call (src/mcp/approval.ts): asked
 * in the client or on a page, or already given. Approved, it is held again to what the grant
 * covers now, and where the provider does not enforce If-Match, to the version the person saw.
 */
export const clearApproval: Step = {
  name: 'approval',
  async run(call, next) {
    const { definition, parts } = call
    const policy = definition.approval
    if (!policy) return next()
    const grant = call.need('grant')
    const input = call.need('input')
    const { caller } = call
    const clearance = await parts.approval!.clear(
      definition,
      input,
      grant,
      caller?.asking?.(),
      caller?.waiting?.(),
    )
    if (!clearance.go) return clearance
    call.var.approvalId = clearance.approvalId
    if (clearance.ifMatch !== undefined) call.var.ifMatch = clearance.ifMatch
    // The person may have narrowed the grant while the change waited for them: what it covers
    // now decides, and a change approved for what it no longer covers is not made.
    const narrowed = uncovered(definition.service, input, await grant.coverageNow())
    if (narrowed !== undefined) {
      await recordChange(call, 'failed', undefined)
      return outsideTheGrant(call, narrowed)
    }
    const { existing } = policy
    if (clearance.ifMatch !== undefined && existing && !parts.profile.enforcesIfMatch)
      await checkStillAsSeen(readerOf(call), existing, input, clearance.ifMatch)
    return next()
  },
}
