import type { CallToolResult } from '@modelcontextprotocol/server'
import { detailText, type AccessMode, type ChangeDescription } from '../services/definition.js'
import { failure } from './results.js'

/**
 * What the person and the model are told about an approval. The person reads the question in
 * their assistant (elicitation) or on the page; the model reads the `isError` results, each saying
 * that nothing was changed and what to do next.
 */

/** The question, with what the person checks before answering. */
export function elicitationMessage(description: ChangeDescription, mode: AccessMode): string {
  const lines = [
    description.summary,
    ...description.details.map((d) => `${d.label}: ${detailText(d)}`),
  ]
  if (mode === 'per-call')
    lines.push('', 'Open the approval page to check it and approve or decline it there.')
  return lines.join('\n')
}

/**
 * A result that sends the person to a change's page: its words for the model, with the page as a
 * `resource_link` beside them, which hosts show as a link the person can follow (in the text it is
 * plain text inside a JSON string).
 */
function withPage(result: CallToolResult, url: string, summary: string): CallToolResult {
  return {
    ...result,
    content: [
      ...result.content,
      {
        type: 'resource_link',
        uri: url,
        name: 'approval',
        title: 'Approve or decline this change',
        description: summary,
        mimeType: 'text/html',
      },
    ],
  }
}

/** The change waits on its page: the model passes the link on. */
export function askedOnPage(
  tool: string,
  description: ChangeDescription,
  url: string,
  before?: 'expired' | 'used',
  toldOnDevice = false,
): CallToolResult {
  const why =
    before === 'expired'
      ? 'The earlier approval expired unused (approvals last 10 minutes), so the person is asked again. '
      : before === 'used'
        ? 'The earlier approval of this same call was already used once, so this call needs its own. '
        : toldOnDevice
          ? 'A notification went to the person’s devices, and they have not decided yet. '
          : ''
  return withPage(
    failure(
      `${why}Not done yet: this change needs the person’s approval. ${description.summary} ` +
        `Ask the person to open ${url} , check the change and press Approve; then call ${tool} again with exactly the same arguments. ` +
        'That page also lists every other change waiting for them: when you asked for several, give the person this one link, and once they have approved them together, call each again. ' +
        'Nothing has been changed.',
    ),
    url,
    description.summary,
  )
}

export const declined = (tool: string, where: 'client' | 'page') =>
  failure(
    `The person declined this ${tool} call${where === 'page' ? ' on the approval page' : ''}. Nothing was changed. Do not retry unless they ask for it.`,
  )

/**
 * The question in the assistant came back unanswered (dismissed, or never shown): the change
 * still waits, and the person can decide it on its page.
 */
export const notAnsweredInClient = (tool: string, url: string) =>
  withPage(
    failure(
      `The approval question got no answer in the assistant, so this ${tool} call still waits for the person. Nothing was changed. Ask them to open ${url} , where they can approve or decline it (with any other change waiting for them); then call ${tool} again with exactly the same arguments.`,
    ),
    url,
    `The ${tool} call waiting for the person`,
  )

/**
 * An "accept" to the approval question whose form did not say yes (`approve` false, missing, or
 * not a yes or no): not the person's decline, and not a dismissal, but nothing was approved.
 */
export function answerDidNotApprove(tool: string, approve: unknown): CallToolResult {
  const was = approve === false ? 'no' : approve === undefined ? 'missing' : 'not a yes or no'
  const next =
    approve === false
      ? 'Do not retry unless the person asks for it.'
      : `If the person wants this change, call ${tool} again to ask them anew.`
  return failure(
    `The answer to the approval question did not approve this ${tool} call (approve was ${was}). Nothing was changed. ${next}`,
  )
}

export const approvalExpired = (tool: string) =>
  failure(
    `The approval of this ${tool} call expired (approvals last 10 minutes). Nothing was changed. Call ${tool} again to ask the person anew.`,
  )

export const alreadyUsed = (tool: string) =>
  failure(
    `This approval was already used: the ${tool} call it approved was carried out once, and nothing more was changed. To make the same change again, call ${tool} again and the person will be asked anew.`,
  )

export const answerNotForThisCall = (tool: string) =>
  failure(
    `The person’s answer was about a different ${tool} call (other arguments, or another connection). Nothing was changed. Call ${tool} again to ask about this one.`,
  )

export const notApprovedYet = (tool: string, url: string) =>
  withPage(
    failure(
      `Not approved yet. Nothing was changed. Ask the person to open ${url} and press Approve; then call ${tool} again with exactly the same arguments.`,
    ),
    url,
    `The ${tool} call waiting for the person`,
  )

export const onlyOnPage = (tool: string) =>
  failure(
    `A ${tool} call is approved only on the connector’s approval page, not in the assistant. Nothing was changed. Call ${tool} again to get the page’s link.`,
  )

export const grantEnded = () =>
  failure('This connection has ended. Nothing was changed. Connect the service again.')

/** The change was refused by the provider's If-Match: the resource is not what the person saw. */
export const changedSinceApproval = (tool: string) =>
  failure(
    `Nothing was changed: what this ${tool} call changes was modified after the person approved it, so the approval no longer describes it. Read it again, then call ${tool} again to ask the person about it as it is now.`,
  )
