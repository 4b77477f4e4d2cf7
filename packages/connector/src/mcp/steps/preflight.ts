import { preflightRefusal } from '../results.js'
import { toolError, type Step } from './context.js'
import { readerOf } from './reader.js'

/** The tool's own check before the call (a parent that must exist, say): its refusal ends it. */
export const checkPreflight: Step = {
  name: 'preflight',
  async run(call, next) {
    const { preflight, name } = call.definition
    if (preflight) {
      const problem = await preflight(call.need('input'), readerOf(call))
      if (problem !== undefined) return toolError(preflightRefusal(name, problem))
    }
    return next()
  },
}
