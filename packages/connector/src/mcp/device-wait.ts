import type { Approvals, Awaited } from '../approval/gate.js'
import { approvalKey } from '../approval/digest.js'
import type { ChangeToTell } from '../push/notifier.js'

/**
 * A change whose client cannot ask the person (docs/decisions.md, "The call that waits"): it is
 * told to the person's devices, and the call waits for their decision, keeping its answer alive,
 * up to a bound under the hosts' tool timeouts. Decided on any replica, it goes on at once;
 * unanswered, it ends with the approval page's link, as it would have at once.
 */

/** How a change reaches a person whose client cannot ask them: their devices. */
export interface PersonReach {
  /** Tells the person's devices of a change; how many took it. */
  tell(account: string, change: ChangeToTell): Promise<number>
  /** How long a call waits, in ms; 0: it never does. */
  readonly waitMs: number
}

/** What a waiting call has of its request: whether it still waits, and how to say it does. */
export interface CallWaiting {
  /** Aborted when the client goes away. */
  signal: AbortSignal
  /** Where the client asked for progress (`progressToken`): says the call still waits. */
  progress?: (progress: number, total: number, message: string) => Promise<void>
}

/** How often a waiting call says so, where its client asked for progress. */
const PROGRESS_EVERY_MS = 10_000

export const PROGRESS_MESSAGE = 'Waiting for the person to approve on their device'

/**
 * Tells the person's devices of a change (asked again, the same change: its notification is
 * replaced, by its topic) and waits for their decision: 'unreached' when no device took it,
 * else what became of the change.
 */
export async function waitOnDevices(
  approvals: Pick<Approvals, 'personOf' | 'awaitDecision'>,
  reach: PersonReach,
  change: { id: string; expiresAt: number },
  waiting: CallWaiting | undefined,
): Promise<Awaited | 'unreached'> {
  if (reach.waitMs <= 0 || waiting?.signal.aborted) return 'unreached'
  const account = await approvals.personOf(change.id)
  if (account === undefined) return 'unreached'
  const told = await reach.tell(account, {
    id: change.id,
    // Hex, so within the push topic's URL-safe alphabet and its 32 characters.
    topic: approvalKey(change.id).slice(0, 32),
    expiresAt: change.expiresAt,
  })
  if (told === 0) return 'unreached'
  const bound = Math.min(reach.waitMs, change.expiresAt - Date.now())
  const stop = AbortSignal.any([
    AbortSignal.timeout(Math.max(0, bound)),
    ...(waiting ? [waiting.signal] : []),
  ])
  const ticking = waiting?.progress && saying(waiting.progress, bound, stop)
  try {
    return await approvals.awaitDecision(change.id, stop)
  } finally {
    if (ticking) clearInterval(ticking)
  }
}

/** Says every PROGRESS_EVERY_MS, and once at once, that the call still waits. */
function saying(
  progress: NonNullable<CallWaiting['progress']>,
  boundMs: number,
  stop: AbortSignal,
): NodeJS.Timeout {
  const started = Date.now()
  const total = Math.ceil(boundMs / 1000)
  const say = () => {
    if (stop.aborted) return
    const elapsed = Math.min(total, Math.floor((Date.now() - started) / 1000))
    // A client gone since: its progress has nowhere to go, and the wait ends by its signal.
    progress(elapsed, total, PROGRESS_MESSAGE).catch(() => {})
  }
  say()
  return setInterval(say, PROGRESS_EVERY_MS).unref()
}
