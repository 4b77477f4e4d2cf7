import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputResponse,
  type ClientCapabilities,
  type InputResponseView,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server'
import type { Vault } from '../vault/vault.js'
import { grantOf } from './grant-access.js'
import { elicitationModes, type ElicitationModes } from './elicitation-modes.js'

/**
 * Whether, and how, the person can be asked in their assistant's own interface during one
 * `tools/call` (docs/design.md, "Approval of changes", step 2).
 *
 * A 2026-07-28 request asks with a multi round-trip input request, answered by a retry of the
 * same call carrying the answer and the state we handed out; that retry may land on any replica.
 * A 2025-11-25 request asks when its client's session says it can answer (legacy-sessions.ts):
 * the SDK's shim turns the same input request into `elicitation/create` on the stream of the
 * call, whose answer the client POSTs to whichever replica and which is routed back to this one
 * (legacy-questions.ts); the shim then runs the handler again with the answer, as a retry would.
 * Other 2025-11-25 clients cannot be asked: the approval page is used instead.
 *
 * The state handed to the client names the approval the question is about. It is signed (the
 * SDK's HMAC codec, keyed from the vault so every replica verifies it) and bound to the grant: a
 * state forged, altered, expired or minted for another grant is refused before any handler runs.
 * It need not be secret: the approval's page checks who the person is.
 */

/** What a question in the client is about: one pending approval of one tool. */
export interface AskedState {
  approval: string
  tool: string
}

/** The key of our one input request, and of the client's answer to it. */
export const APPROVAL_QUESTION = 'approval'

export interface ClientAsking {
  /** The client answers form-mode elicitation (an approval of an auth-token change). */
  readonly form: boolean
  /** The client opens URL-mode elicitation (the approval page of a per-call change). */
  readonly url: boolean
  /** On a retry: the approval asked about and the client's answer; else undefined. */
  readonly answered?: { state: AskedState; answer: InputResponseView }
  /** Signs the state that goes with a question. */
  mint(state: AskedState): Promise<string>
}

export function requestStateCodec(vault: Vault): RequestStateCodec<AskedState> {
  return createRequestStateCodec<AskedState>({
    // The sealing key's derivation: every replica holds it. A state lives 10 minutes, as long as
    // the approval it names.
    key: vault.deriveKeys('mcp: request state')[0]!,
    ttlSeconds: 600,
    bind: (ctx) => `${ctx.mcpReq.method}\0${grantOf(ctx)?.link.grantId ?? ''}`,
  })
}

/**
 * The request's way to ask the person: from its 2026-07-28 envelope, or from its 2025-11-25
 * client's `session`; undefined when it has neither.
 */
export function clientAsking(
  ctx: ServerContext,
  codec: RequestStateCodec<AskedState>,
  session?: ElicitationModes,
): ClientAsking | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
  const declared = envelope ? askedBy(envelope) : session
  if (!declared) return undefined
  const state = ctx.mcpReq.requestState<AskedState>()
  return {
    ...declared,
    answered:
      state && typeof state === 'object'
        ? { state, answer: inputResponse(ctx.mcpReq.inputResponses, APPROVAL_QUESTION) }
        : undefined,
    mint: (payload) => codec.mint(payload, ctx),
  }
}

/** What a 2026-07-28 request's client says it can answer. */
function askedBy(envelope: Record<string, unknown>): ElicitationModes {
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined
  return elicitationModes(capabilities) ?? { form: false, url: false }
}
