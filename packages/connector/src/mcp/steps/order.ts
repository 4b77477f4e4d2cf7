import { checkAnswer } from './answer-check.js'
import { clearApproval } from './approval.js'
import type { Step } from './context.js'
import { endFailures } from './failures.js'
import { requireGrant } from './grant.js'
import { readInput } from './input.js'
import { withinLimits } from './limits.js'
import { checkPreflight } from './preflight.js'
import { callProvider } from './provider-call.js'
import { presentResult } from './result.js'
import { withinGrant } from './within-grant.js'

/**
 * A tool call, in order (docs/architecture.md, "A tool call, step by step"). Each step hands the
 * call on or ends it; nothing reaches the provider before the input, the grant, its coverage and
 * the limits hold, and no change before the person approved it.
 */
export const TOOL_CALL_STEPS: readonly Step[] = [
  readInput,
  requireGrant,
  withinGrant,
  withinLimits,
  endFailures,
  checkPreflight,
  clearApproval,
  callProvider,
  checkAnswer,
  presentResult,
]
