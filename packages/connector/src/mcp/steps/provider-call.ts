import { recordChange } from './audit.js'
import type { Step } from './context.js'

/** The tool's one request to the provider; a change that got an answer is recorded as made. */
export const callProvider: Step = {
  name: 'provider',
  async run(call, next) {
    const { shape } = call.tool
    const apiCall = shape.apiCall(call.need('input'), call.var.ifMatch)
    const sent = await call.parts.api.call(apiCall, call.need('grant'))
    await recordChange(call, 'executed', sent.status)
    call.var.sent = sent
    return next()
  },
}
