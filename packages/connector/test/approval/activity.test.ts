import { describe, expect, it } from 'vitest'
import { AuditTrail } from '../../src/approval/audit.js'
import { approvalKey } from '../../src/approval/digest.js'
import { connectorForSuite } from '../support/connector.js'
import { assistantV2, approvalLink, textOf } from '../mcp/approval-clients.js'
import { taskFixtures } from '../mcp/fixtures.js'
import { approvalFlow } from './flow.js'

/**
 * `/activity` (docs/design.md, "The person's pages"): the signed-in person's decided changes,
 * newest first, from the audit trail with no payload (when, which assistant, which service, what
 * kind of change, the decision and what became of it); nobody else's; and the trail pruned after
 * its retention.
 */

const suite = connectorForSuite()
const flow = approvalFlow(suite)
const { seed } = taskFixtures(suite)

const DAY = 24 * 60 * 60_000

/** The activity page's entries, in order: the text of each card. */
const entriesOf = (page: string) =>
  [...page.matchAll(/<article class="card">([\s\S]*?)<\/article>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )

describe('the activity page', () => {
  it('lists each decided change once, newest first: made, declined, unused, unanswered', async () => {
    const user = 'activity-ann'
    const { person, tokens, grantId } = await flow.connected(user, 'Helpful Assistant')
    const { tasklist, ids } = await seed(user, 2)
    const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)

    // Made: asked, approved on the page, called again.
    const asked = await assistant.call('create_task', { tasklist, title: 'Made' })
    const url = approvalLink(asked)
    await flow.onThePage(person, url, 'Approve')
    const made = await assistant.call('create_task', { tasklist, title: 'Made' })
    expect(made.isError ?? false, textOf(made)).toBe(false)

    // Declined on the page.
    const declined = await assistant.call('delete_task', { tasklist, task: ids[0] })
    await flow.onThePage(person, approvalLink(declined), 'Decline')

    // Approved, never used; and never answered: both run out.
    const unused = await assistant.call('update_task', { tasklist, task: ids[1], title: 'Later' })
    await flow.onThePage(person, approvalLink(unused), 'Approve')
    await assistant.call('create_task_list', { title: 'Never answered' })
    await suite.store.db
      .updateTable('approvals')
      .set({ expires_at: Date.now() - 1 })
      .where('grant_id', '=', grantId)
      .where('status', 'in', ['pending', 'approved'])
      .where('used_at', 'is', null)
      .execute()
    await flow.approvals.expire()
    await assistant.close()

    const page = await flow.open(person, `${suite.url}/activity`)
    expect(page.status).toBe(200)
    const entries = entriesOf(page.text)
    expect(entries).toHaveLength(4)
    // Newest first, each at its decision (or, unanswered, its expiry).
    expect(entries).toEqual([
      expect.stringMatching(
        /^Create a task list · Tasks Helpful Assistant · .* Not answered in time: nothing changed$/,
      ),
      expect.stringMatching(
        /^Change a task · Tasks Helpful Assistant · .* Approved: not made, the assistant did not come back in time$/,
      ),
      expect.stringMatching(
        /^Delete a task · Tasks Helpful Assistant · \d{4}-\d\d-\d\d \d\d:\d\d UTC Declined: nothing changed$/,
      ),
      expect.stringMatching(/^Add a task · Tasks Helpful Assistant · .* Approved: done$/),
    ])
    // No payload: neither the titles asked for nor the list.
    for (const secret of ['Made', 'Later', 'Never answered', 'Groceries', tasklist])
      expect(page.text).not.toContain(secret)
  })

  it('shows only the signed-in person’s own, and signed out, nothing but the sign-in', async () => {
    const owner = await flow.connected('activity-bo')
    const { id, url } = await flow.approvals.request(flow.deleteCall(owner.grantId))
    await flow.onThePage(owner.person, url, 'Decline')
    expect(await flow.statusOf(id)).toBe('declined')
    const ownerPage = await flow.open(owner.person, `${suite.url}/activity`)
    expect(entriesOf(ownerPage.text)).toHaveLength(1)

    const other = await flow.connected('activity-cy')
    await flow.signInFrom(other.person, `${suite.url}/activity`)
    const otherPage = await flow.open(other.person, `${suite.url}/activity`)
    expect(otherPage.text).toContain('Signed in as <strong>activity-cy</strong>')
    expect(entriesOf(otherPage.text)).toEqual([])

    const signedOut = await flow.open(suite.person('activity-bo'), `${suite.url}/activity`)
    expect(signedOut.text).toContain('Sign in with')
    expect(entriesOf(signedOut.text)).toEqual([])
  })

  it('tells apart two connections of assistants of one name: when each was made, where it returns', async () => {
    const person = suite.person('activity-eve')
    const first = await flow.connected('activity-eve', 'Claude', person)
    const second = await flow.connected('activity-eve', 'Claude', person)
    for (const { grantId } of [first, second]) {
      const { url } = await flow.approvals.request(flow.deleteCall(grantId))
      await flow.onThePage(person, url, 'Decline')
    }
    const page = await flow.open(person, `${suite.url}/activity`)
    const [newer, older] = entriesOf(page.text)
    const returnsTo = (connection: typeof first) => new URL(connection.client.redirect_uri).host
    expect(newer).toMatch(
      new RegExp(`Claude \\(connected .* UTC, returns to ${returnsTo(second)}\\)`),
    )
    expect(older).toMatch(
      new RegExp(`Claude \\(connected .* UTC, returns to ${returnsTo(first)}\\)`),
    )
  })

  it('the trail is kept AUDIT_RETENTION_DAYS, then pruned; the person, assistant and service outlive the grant', async () => {
    const { grantId } = await flow.connected('activity-dee')
    const now = Date.now()
    const trail = (at: number) => new AuditTrail(suite.store, () => at, 90)
    await trail(now - 91 * DAY).record({
      grantId,
      tool: 'create_task',
      decision: 'declined',
      approvalId: approvalKey('a'.repeat(43)),
    })
    await trail(now - 89 * DAY).record({
      grantId,
      tool: 'create_task',
      decision: 'declined',
      approvalId: approvalKey('b'.repeat(43)),
    })
    const events = () =>
      suite.store.db
        .selectFrom('audit_events')
        .select(['at', 'account', 'client_id', 'service'])
        .where('grant_id', '=', grantId)
        .execute()
    expect(await events()).toHaveLength(2)
    await trail(now).prune()
    const kept = await events()
    expect(kept).toHaveLength(1)
    expect(Number(kept[0]!.at)).toBe(now - 89 * DAY)
    expect(kept[0]).toMatchObject({ account: 'activity-dee', service: 'tasks' })
    expect(kept[0]!.client_id).toBeTruthy()
  })
})
