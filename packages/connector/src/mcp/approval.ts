import type { EventEmitter } from 'node:events'
import {
  inputRequired,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server'
import type { Approvals, ApprovalCall, DecideResult } from '../approval/gate.js'
import type { AccessMode, ChangeDescription, ToolDefinition } from '../services/definition.js'
import type { ProviderProfile } from '../services/profiles/index.js'
import type { UpstreamApi } from '../upstream/index.js'
import { APPROVAL_QUESTION, type ClientAsking } from './asking.js'
import type { ApprovalChannel, McpEvents } from './events.js'
import type { ToolGrant } from './grant-access.js'
import {
  alreadyUsed,
  answerDidNotApprove,
  answerNotForThisCall,
  approvalExpired,
  askedOnPage,
  declined,
  notAnsweredInClient,
  elicitationMessage,
  grantEnded,
  notApprovedYet,
  onlyOnPage,
} from './approval-words.js'
import { providerReader } from './provider-reader.js'
import { waitOnDevices, type CallWaiting, type PersonReach } from './device-wait.js'

/**
 * The approval step of a change (docs/design.md, "Approval of changes"): before a change is sent,
 * the person approves exactly that call, and the server enforces it, failing closed.
 *
 *   1. a retry that carries the person's answer from the client: the answer is recorded;
 *   2. an approved, unused approval of exactly this call (grant, tool, argument digest): it is
 *      used, and the call goes with the etag the person saw as If-Match;
 *   3. otherwise the change is described (read from the provider, named by title) and the person
 *      is asked: in the client where it can answer (form elicitation for an auth-token change, URL
 *      elicitation to the page for a per-call one), else with a link to the approval page in an
 *      `isError` result. Calling the same tool again with the same arguments after approval runs it.
 */

/**
 * Whether the change may go. When it may not, the result to answer with, and what it is: the
 * person is being asked (`approval_pending`: the call comes again), or it is not approved
 * (`refused`: declined, expired, used, not for this call).
 */
export type Clearance =
  | {
      go: true
      ifMatch?: string
      /** The approval used (its key): the change's outcome is recorded against it. */
      approvalId: string
    }
  | {
      go: false
      result: CallToolResult | InputRequiredResult
      outcome: 'approval_pending' | 'refused'
    }

/** A change waiting for the person: its page, what it is, and until when. */
type Pending = { id: string; url: string; description: ChangeDescription; expiresAt: number }

const stop = (
  result: CallToolResult | InputRequiredResult,
  outcome: 'approval_pending' | 'refused' = 'refused',
): Clearance => ({ go: false, result, outcome })

/** The form the person answers in the client: one yes-or-no, "no" unless they say otherwise. */
const APPROVE_FORM = {
  type: 'object' as const,
  properties: {
    approve: {
      type: 'boolean' as const,
      title: 'Approve this change',
      description: 'Yes carries out exactly the change described; no changes nothing.',
      default: false,
    },
  },
  required: ['approve'],
}

export class ApprovalStep {
  constructor(
    private readonly approvals: Approvals,
    private readonly api: Pick<UpstreamApi, 'call'>,
    private readonly profile: ProviderProfile,
    /** Where each approval asked for is told, with how the person is asked (events.ts). */
    private readonly events?: EventEmitter<McpEvents>,
    /** The person's devices, for a client that cannot ask (device-wait.ts); unset, the link. */
    private readonly reach?: PersonReach,
  ) {}

  async clear(
    definition: ToolDefinition,
    args: Record<string, unknown>,
    grant: ToolGrant,
    asking: ClientAsking | undefined,
    waiting?: CallWaiting,
  ): Promise<Clearance> {
    const policy = definition.approval
    if (!policy) throw new Error(`${definition.name} is not a change: it needs no approval`)
    const call: ApprovalCall = { grantId: grant.link.grantId, tool: definition.name, args }

    const answered = asking?.answered
    if (answered && answered.state.tool === definition.name && answered.answer.kind === 'elicit') {
      return this.#answered(definition, call, answered.state.approval, answered.answer)
    }

    const consumed = await this.approvals.consume(call)
    if (consumed.ok) return cleared(consumed)
    if (consumed.reason === 'declined') return stop(declined(definition.name, 'page'))

    // Pending: ask about the same approval again. Otherwise ask anew, saying why.
    const waitingOne =
      consumed.reason === 'pending' ? await this.approvals.waiting(call) : undefined
    const channel = channelOf(policy.mode, asking)
    let pending: Pending
    if (waitingOne) {
      pending = waitingOne
    } else {
      const description = await policy.describe(
        args,
        providerReader(this.api, this.profile, definition.service, grant),
      )
      const asked = await this.approvals.request({ ...call, description, mode: policy.mode })
      pending = { ...asked, description }
      this.events?.emit('asked', definition.name, channel)
    }
    const before =
      consumed.reason === 'expired' || consumed.reason === 'used' ? consumed.reason : undefined
    if (channel === 'link' && this.reach) {
      const waited = await this.#waitOnDevices(definition, call, pending, waiting)
      if (waited) return waited
    }
    return stop(await this.#ask(definition, pending, asking, channel, before), 'approval_pending')
  }

  /**
   * The client cannot ask: the person's devices are told, and the call waits for their decision
   * (device-wait.ts). Approved, the call goes now; declined or expired, it says so; undecided
   * within the bound, or with no device, undefined: the link, as at once.
   */
  async #waitOnDevices(
    definition: ToolDefinition,
    call: ApprovalCall,
    pending: Pending,
    waiting: CallWaiting | undefined,
  ): Promise<Clearance | undefined> {
    const waited = await waitOnDevices(this.approvals, this.reach!, pending, waiting)
    if (waited === 'unreached') return undefined
    if (waited === 'pending')
      return stop(
        askedOnPage(definition.name, pending.description, pending.url, undefined, true),
        'approval_pending',
      )
    const consumed = await this.approvals.consume(call)
    if (consumed.ok) return cleared(consumed)
    switch (consumed.reason) {
      case 'declined':
        return stop(declined(definition.name, 'page'))
      case 'used':
        return stop(alreadyUsed(definition.name))
      case 'pending':
        return undefined
      default:
        return stop(approvalExpired(definition.name))
    }
  }

  /** Asks the person: in the client where it can answer, else through the page's link. */
  async #ask(
    definition: ToolDefinition,
    pending: Pick<Pending, 'id' | 'url' | 'description'>,
    asking: ClientAsking | undefined,
    channel: ApprovalChannel,
    before: 'expired' | 'used' | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
    const mode = definition.approval!.mode
    const state = { approval: pending.id, tool: definition.name }
    const message = elicitationMessage(pending.description, mode)
    if (channel === 'elicitation' && asking) {
      return inputRequired({
        inputRequests: {
          [APPROVAL_QUESTION]: inputRequired.elicit({ message, requestedSchema: APPROVE_FORM }),
        },
        requestState: await asking.mint(state),
      })
    }
    if (channel === 'url_elicitation' && asking) {
      return inputRequired({
        inputRequests: {
          [APPROVAL_QUESTION]: inputRequired.elicitUrl({ message, url: pending.url }),
        },
        requestState: await asking.mint(state),
      })
    }
    return askedOnPage(definition.name, pending.description, pending.url, before)
  }

  /** A retry with the client's answer to the question about `approvalId`. */
  async #answered(
    definition: ToolDefinition,
    call: ApprovalCall,
    approvalId: string,
    answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> },
  ): Promise<Clearance> {
    const perCall = definition.approval!.mode === 'per-call'
    const { action } = answer
    // Dismissed, not declined (some clients declare questions they never show, or close them
    // unanswered): nothing is decided here, and the change waits on its page.
    if (action !== 'cancel') {
      // For a per-call change, "accept" only says the page was opened: the page decides.
      const yes = action === 'accept' && (perCall || answer.content?.approve === true)
      if (!yes) {
        const decided = await this.approvals.decideFromClient(approvalId, call, 'decline')
        if (decided.ok || (decided.reason === 'decided' && decided.decision === 'declined'))
          return stop(notApproved(definition.name, action, answer.content))
        return stop(refusal(definition.name, decided))
      }
      if (!perCall) {
        // Approved here, the answer is this call's use of it: the call goes.
        const decided = await this.approvals.decideFromClient(approvalId, call, 'approve')
        if (decided.ok && decided.decision === 'approved') return cleared(decided)
        if (!decided.ok && decided.reason !== 'decided')
          return stop(refusal(definition.name, decided))
        if (!decided.ok && decided.decision === 'declined')
          return stop(declined(definition.name, 'page'))
      }
    }
    const consumed = await this.approvals.consume(call)
    if (consumed.ok) return cleared(consumed)
    switch (consumed.reason) {
      case 'used':
        return stop(alreadyUsed(definition.name))
      case 'declined':
        return stop(declined(definition.name, 'page'))
      case 'expired':
        return stop(approvalExpired(definition.name))
      case 'pending': {
        const waiting = await this.approvals.waiting(call)
        if (!waiting) return stop(approvalExpired(definition.name))
        const words = action === 'cancel' ? notAnsweredInClient : notApprovedYet
        return stop(words(definition.name, waiting.url), 'approval_pending')
      }
      case 'none':
        return stop(answerNotForThisCall(definition.name))
    }
  }
}

/**
 * How the person is asked about a change of `mode`: an auth-token change in the client's own
 * form where it can answer one, a per-call change on the page the client opens where it can
 * open one, else through a link in the result.
 */
function channelOf(mode: AccessMode, asking: ClientAsking | undefined): ApprovalChannel {
  if (mode === 'auth-token' && asking?.form) return 'elicitation'
  if (mode === 'per-call' && asking?.url) return 'url_elicitation'
  return 'link'
}

const cleared = (consumed: { ifMatch?: string; approvalId: string }): Clearance => ({
  go: true,
  ifMatch: consumed.ifMatch,
  approvalId: consumed.approvalId,
})

/** What the client's answer that approved nothing was, recorded as a decline. */
function notApproved(
  tool: string,
  action: 'accept' | 'decline',
  content: Record<string, unknown> | undefined,
): CallToolResult {
  if (action === 'decline') return declined(tool, 'client')
  return answerDidNotApprove(tool, content?.approve)
}

/** Why a decision given in the client was not taken. */
function refusal(tool: string, decided: DecideResult & { ok: false }): CallToolResult {
  switch (decided.reason) {
    case 'expired':
      return approvalExpired(tool)
    case 'per-call':
      return onlyOnPage(tool)
    case 'ended':
      return grantEnded()
    case 'decided':
      return decided.decision === 'declined' ? declined(tool, 'page') : alreadyUsed(tool)
    case 'not found':
    case 'not yours':
      return answerNotForThisCall(tool)
  }
}
