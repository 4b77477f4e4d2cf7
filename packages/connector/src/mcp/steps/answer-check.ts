import { unexpectedAnswer } from '../results.js'
import type { Step } from './context.js'

/** The provider's answer, checked to be what the tool reads before anything is built from it. */
export const checkAnswer: Step = {
  name: 'answer',
  async run(call, next) {
    const sent = call.need('sent')
    const answer = call.tool.shape.answerOf(sent, call.need('input'))
    if (!isObject(answer) || !call.tool.conforms(answer)) {
      call.parts.log.warn(
        { tool: call.definition.name, status: sent.status },
        'provider answer is not what the tool reads',
      )
      return {
        outcome: 'upstream_error',
        result: unexpectedAnswer(call.var.approvalId !== undefined),
      }
    }
    call.var.answer = answer
    return next()
  },
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
