import type { ToolDefinition } from '../services/definition.js'

/**
 * What the MCP layer tells of its tool calls, for whoever counts them
 * (packages/connector/src/metrics listens), and the words it tells them in. A tool is named by
 * its definition, served at startup: never by a name read from a request.
 */

export interface McpEvents {
  /** A tool is served, at startup: its calls are told from now on. */
  served: [definition: ToolDefinition]
  /** One call of a tool ended in `outcome`; `started` is `performance.now()` when it began. */
  called: [definition: ToolDefinition, outcome: ToolOutcome, started: number]
  /** The person was asked to approve a change of `tool`, once for each approval made. */
  asked: [tool: string, channel: ApprovalChannel]
}

/** How a tool call ended. */
export const TOOL_OUTCOME_MEANINGS = {
  ok: "the tool's result",
  tool_error:
    'an `isError` result the model can act on: arguments refused before anything was sent, or a provider 4xx (invalid, a rule broken, not found, no permission, changed since read)',
  approval_pending:
    'the call stopped to ask the person (in the client, or with a link to the approval page); the same call comes again once they have answered',
  refused:
    'the change was not approved: declined, cancelled, expired, already used, or an answer that was not for this call (a question dismissed in the assistant leaves it waiting: `approval_pending`)',
  upstream_error:
    'the provider failed: 429, 5xx, timeout, network, open circuit, an answer not understood, or the upstream token could not be renewed',
  rate_limited: "refused by the connector's own per-grant tool-call limit",
  over_share:
    "refused before anything was sent: the person is beyond their fair share of one of the provider project's daily quotas, and the project has no room left",
  revoked: 'the provider revoked the credential during the call (the assistant gets a 401)',
  internal_error: 'a fault of the connector (logged)',
} as const
export type ToolOutcome = keyof typeof TOOL_OUTCOME_MEANINGS

/** How the person was asked to approve a change. */
export const APPROVAL_CHANNEL_MEANINGS = {
  elicitation: "a form in the assistant's own interface",
  url_elicitation: 'the assistant opens the approval page',
  link: "a result with the approval page's link, for a client that cannot be asked",
} as const
export type ApprovalChannel = keyof typeof APPROVAL_CHANNEL_MEANINGS
