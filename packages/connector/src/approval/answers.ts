import type { Context } from 'hono'
import type { PersonSession } from '../account/sessions.js'
import { APPROVALS_PATH, decidedPage } from '../pages/approvals-page.js'
import type { PageStatus } from '../pages/page.js'
import { problemPage } from '../pages/problem-page.js'
import type { ApprovalView } from './gate.js'

/**
 * What the approval pages answer when there is nothing for the person to decide: a refused
 * post, an unknown link, a change already settled, or another person's change.
 */

export type PageAnswer = Response | Promise<Response>

/** An approval still waiting, with the grant it belongs to. */
export type Pending = Extract<ApprovalView, { found: true }> & {
  grant: NonNullable<Extract<ApprovalView, { found: true }>['grant']>
}

export const refused = (c: Context, message: string, status: PageStatus = 400) =>
  problemPage(c, 'Nothing was decided', message, status, {
    href: APPROVALS_PATH,
    label: 'Changes waiting for you',
  })

export const notFound = (c: Context) =>
  problemPage(
    c,
    'No such change',
    'This approval link is not known. Ask your assistant to make the change again.',
    404,
  )

/** The page for what the approval has become, when it is no longer waiting for the person. */
export function settled(c: Context, view: Exclude<ApprovalView, { found: false }>) {
  if (!view.grant) {
    return problemPage(
      c,
      'Connection ended',
      "The assistant's connection to your account has ended, so this change will not be made.",
      410,
    )
  }
  if (view.status === 'expired') {
    return problemPage(
      c,
      'This request has expired',
      'Approvals last 10 minutes. Nothing was changed: ask your assistant to try again, and ' +
        'approve the new request.',
      410,
    )
  }
  if (view.status === 'approved' || view.status === 'declined') {
    return decidedPage(c, view.status, { used: view.used })
  }
  return undefined
}

/** Undefined when the signed-in person is the grant's; else the page saying why not. */
export function notTheirs(
  c: Context,
  view: Pending,
  session: PersonSession,
): PageAnswer | undefined {
  if (session.subject === view.grant.account) return undefined
  return problemPage(
    c,
    'Not your change',
    'This change belongs to another account, so it cannot be decided here. Nothing was ' +
      `decided. You are signed in as ${session.subject}: to decide it, sign out on the ` +
      'connections page and sign in with the account the assistant is connected to.',
    403,
    { href: '/connections', label: 'Your connected assistants' },
  )
}
