import type { ClientCapabilities } from '@modelcontextprotocol/server'

/**
 * The questions a client says it answers in its own interface (elicitation). Read alike from a
 * 2026-07-28 request (asking.ts) and a 2025-11-25 `initialize` (legacy-sessions.ts): its own
 * file, so that both read it from below.
 */
export interface ElicitationModes {
  /** The client answers a form in its own interface. */
  form: boolean
  /** The client opens a page the server names. */
  url: boolean
}

/** What `capabilities` say the client answers; undefined when they declare no elicitation. */
export function elicitationModes(
  capabilities: ClientCapabilities | undefined,
): ElicitationModes | undefined {
  const elicitation = capabilities?.elicitation as { form?: object; url?: object } | undefined
  if (!elicitation) return undefined
  return {
    // An empty `elicitation: {}` is the form mode of earlier revisions.
    form: elicitation.form !== undefined || !elicitation.url,
    url: elicitation.url !== undefined,
  }
}
