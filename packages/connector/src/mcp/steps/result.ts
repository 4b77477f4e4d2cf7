import { coveredBy } from '../coverage.js'
import { success } from '../results.js'
import type { Step, ToolCall } from './context.js'

/**
 * The result the model reads: what the grant covers of the answer, presented as the tool says,
 * and what the call made (a list) joined to the grant. The last step: it ends every call.
 */
export const presentResult: Step = {
  name: 'result',
  async run(call) {
    const { definition } = call
    const grant = call.need('grant')
    const answer = call.need('answer')
    const input = call.need('input')
    if (definition.made) await join(call, definition.made(answer))
    const shown =
      definition.narrow && !grant.coverage.all
        ? definition.narrow(answer, coveredBy(grant.coverage))
        : answer
    const structured = definition.answer ? definition.answer.present(shown, input) : shown
    // The provider's answer is the result as it is: its own text is the result's text.
    const sent = call.need('sent')
    const text = structured === sent.body ? sent.text : undefined
    return { outcome: 'ok', result: success(structured, text) }
  },
}

/** What the call made joins the grant: the assistant can use what it made. */
async function join(call: ToolCall, id: string | undefined) {
  if (id === undefined) return
  try {
    await call.need('grant').join(id)
  } catch (error) {
    // Made all the same: the answer must say so. The person can add it on their page.
    call.parts.log.error(
      { err: error, tool: call.definition.name },
      'what the call made did not join its grant',
    )
  }
}
