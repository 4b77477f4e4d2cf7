import { createHash } from 'node:crypto'
import { expect } from 'vitest'
import { approvalKey } from '../../src/approval/digest.js'
import type { ApprovalRequest } from '../../src/approval/gate.js'
import { csrfOf, type ConnectorHarness, type Person } from '../support/connector.js'

/**
 * The approval page as a person meets it: connected through an assistant, then sent a link to a
 * change the assistant asked for, signing in through the provider from that page.
 */

export function approvalFlow(suite: ConnectorHarness) {
  const flow = {
    ...approvalPages(),
    get approvals() {
      return suite.connector.parts.approvals
    },

    /** `user` connects a client named `clientName` to tasks: their person and grant id. */
    async connected(user: string, clientName = 'Helpful Assistant', person?: Person) {
      const client = await suite.registerClient({ client_name: clientName })
      const connection = await suite.connect({ client, person: person ?? suite.person(user) })
      const link = await suite.store.db
        .selectFrom('grant_links')
        .select('grant_id')
        .where('account', '=', user)
        .where('client_id', '=', client.client_id)
        .executeTakeFirstOrThrow()
      return { ...connection, grantId: link.grant_id }
    },

    /** A delete_task call of `grantId` waiting for approval, described with `summary`. */
    deleteCall(grantId: string, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
      return {
        grantId,
        tool: 'delete_task',
        args: { tasklist: 'list-1', task: 'task-1' },
        mode: 'per-call',
        description: {
          summary: 'Delete task "Buy milk" from list "Groceries"?',
          details: [
            { label: 'Task', value: '"Buy milk"' },
            { label: 'List', value: '"Groceries"' },
          ],
          ifMatch: '"etag-1"',
        },
        ...overrides,
      }
    },

    /**
     * The decision form's CSRF token for `person`'s own session, as the connector would issue
     * it: what someone who reached the form some other way would post.
     */
    formTokenOf(person: Person, approvalId: string) {
      const cookie = person.cookies
        .header(new URL(`${suite.url}/approvals/x`))
        .split('; ')
        .find((pair) => pair.startsWith('countersign_session='))
      if (!cookie) throw new Error('not signed in')
      const session = createHash('sha256')
        .update(cookie.slice(cookie.indexOf('=') + 1))
        .digest('hex')
      return suite.connector.parts.forms.approval.issue(
        `approval ${session} ${approvalKey(approvalId)}`,
      )
    },

    async statusOf(approvalId: string) {
      const row = await suite.store.db
        .selectFrom('approvals')
        .select('status')
        .where('id', '=', approvalKey(approvalId))
        .executeTakeFirst()
      return row?.status
    },
  }
  return flow
}

/**
 * The approval page as a person's browser drives it, on any connector (or several replicas behind
 * one URL): the person's browser knows its way through the provider (Person.signInOnPage).
 */
export function approvalPages() {
  const pages = {
    /** GET as `person`: status, headers and the page. */
    async open(person: Person, url: string) {
      const res = await person.fetch('GET', url)
      return { status: res.status, headers: res.headers, text: await res.text() }
    },

    /** Posts the decision form as `person`. */
    async post(
      person: Person,
      url: string,
      form: Record<string, string>,
      headers: Record<string, string> = {},
    ) {
      const res = await person.fetch('POST', url, form, headers)
      return {
        status: res.status,
        headers: res.headers,
        location: res.headers.get('location'),
        text: await res.text(),
      }
    },

    /** Opens the page, presses `button` with the page's CSRF token. */
    async decide(person: Person, url: string, button: 'Approve' | 'Decline') {
      const page = await pages.open(person, url)
      expect(page.status).toBe(200)
      return pages.post(person, url, { csrf: csrfOf(page.text), [button]: button })
    },

    /**
     * The person on the page at `url`: signs in if it shows a Sign in form, then presses
     * `button`, which must be answered with 200.
     */
    async onThePage(person: Person, url: string, button: 'Approve' | 'Decline' = 'Approve') {
      const page = await pages.open(person, url)
      if (page.text.includes('/sign-in"')) await pages.signInFrom(person, url)
      const decided = await pages.decide(person, url, button)
      expect(decided.status).toBe(200)
    },

    /** From a page with a Sign in form: through the provider (as `person.user`) and back. */
    signInFrom: (person: Person, pageUrl: string) => person.signInOnPage(pageUrl),
  }
  return pages
}

/** As `html` escapes text. */
export const escaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
