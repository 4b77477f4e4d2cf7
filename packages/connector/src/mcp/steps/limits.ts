import { shareSpent, tooManyCalls } from '../results.js'
import type { Step } from './context.js'

/**
 * The grant's limit on calls, then the person's fair share of the provider project's day: a call
 * beyond either is refused with when to come back, and nothing is sent.
 */
export const withinLimits: Step = {
  name: 'limits',
  async run(call, next) {
    const { callLimit, shares } = call.parts
    const grant = call.need('grant')
    if (callLimit) {
      const verdict = await callLimit.take(grant.link.grantId)
      if (!verdict.allowed)
        return {
          outcome: 'rate_limited',
          result: tooManyCalls(callLimit, verdict.retryAfterSeconds),
        }
    }
    const { quota } = call.tool.shape
    if (shares && quota && grant.person !== undefined) {
      // Beyond the person's share, with no room left in the project's day.
      const verdict = await shares.admit(quota, grant.person)
      if (!verdict.allowed) return { outcome: 'over_share', result: shareSpent(verdict.refusal) }
    }
    return next()
  },
}
