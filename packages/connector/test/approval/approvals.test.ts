import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { approvalKey } from '../../src/approval/digest.js'
import type { ApprovalRequest } from '../../src/approval/gate.js'
import { connectorForSuite, type Person } from '../support/connector.js'
import { approvalFlow, escaped } from './flow.js'

/**
 * Several changes, one visit (docs/design.md, "The person's pages"): the page of one change lists
 * every other change waiting for the same person, from any of their assistants and services, each
 * with its own Approve and Decline, and `Approve all` approves exactly the changes it named that
 * may go together, each by itself. Nobody else's change is shown or decided, a deletion waits for
 * its own Approve, and a post that is not the page's own decides nothing.
 */

const suite = connectorForSuite()
const flow = approvalFlow(suite)

/** The forms of a page: each one's action and hidden fields. */
function formsOf(page: string): { action: string; fields: [string, string][] }[] {
  return [...page.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => ({
    action: m[1]!,
    fields: [...m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
      (f) => [f[1]!, f[2]!] as [string, string],
    ),
  }))
}

/** The Approve all form of a page: its token and the ids it names. */
function approveAllOf(page: string) {
  const form = formsOf(page).find((f) => f.action === '/approvals')
  if (!form) return undefined
  return {
    csrf: form.fields.find(([name]) => name === 'csrf')![1],
    ids: form.fields.filter(([name]) => name === 'id').map(([, value]) => value),
  }
}

/** Posts Approve all with `ids` and `csrf` as `person`. */
function approveAll(
  person: Person,
  ids: readonly string[],
  csrf: string,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams([
    ['csrf', csrf],
    ...ids.map((id) => ['id', id] as [string, string]),
    ['Approve all', 'Approve all'],
  ])
  return person
    .fetch('POST', `${suite.url}/approvals`, body, headers)
    .then(async (res) => ({ status: res.status, text: await res.text() }))
}

/** An auth-token change of `grantId`: a task added to a list, described with `title`. */
const addTask = (grantId: string, title: string): ApprovalRequest => ({
  grantId,
  tool: 'create_task',
  args: { tasklist: 'list-1', title },
  mode: 'auth-token',
  description: {
    summary: `Add task "${title}" to list "Groceries"?`,
    details: [
      { label: 'Title', value: `"${title}"` },
      { label: 'List', value: '"Groceries"' },
    ],
  },
})

/** A person with two assistants on tasks and one on search, and changes from each. */
async function personWithChanges(user: string) {
  const first = await flow.connected(user, 'Helpful Assistant')
  const second = await flow.connected(user, 'Second Helper', first.person)
  const searchClient = await suite.registerClient({ client_name: 'Search Helper' })
  await suite.connect({ client: searchClient, service: 'search', person: first.person })
  const searchGrant = (
    await suite.store.db
      .selectFrom('grant_links')
      .select('grant_id')
      .where('account', '=', user)
      .where('service', '=', 'search')
      .executeTakeFirstOrThrow()
  ).grant_id
  const milk = await flow.approvals.request(addTask(first.grantId, 'Buy milk'))
  const eggs = await flow.approvals.request(addTask(second.grantId, 'Eggs'))
  const sitemap = await flow.approvals.request({
    grantId: searchGrant,
    tool: 'submit_sitemap',
    args: { siteUrl: 'https://www.example.com/', feedpath: 'https://www.example.com/s.xml' },
    mode: 'auth-token',
    description: {
      summary: 'Submit sitemap "https://www.example.com/s.xml" for https://www.example.com/?',
      details: [{ label: 'Sitemap', value: 'https://www.example.com/s.xml' }],
    },
  })
  const deletion = await flow.approvals.request(
    flow.deleteCall(second.grantId, { args: { tasklist: 'list-1', task: `old-${user}` } }),
  )
  await flow.signInFrom(first.person, milk.url)
  return { person: first.person, first, second, milk, eggs, sitemap, deletion }
}

describe('several changes, one visit', () => {
  it('the page of one change lists the others waiting, from every assistant and service, each with its own forms', async () => {
    const p = await personWithChanges('visit-ann')
    const page = (await flow.open(p.person, p.milk.url)).text
    // The change the link was for is the heading; the others follow.
    expect(page).toMatch(
      /<h1>\s*Add task &quot;Buy milk&quot; to list &quot;Groceries&quot;\?\s*<\/h1>/,
    )
    expect(page).toContain('Also waiting for your approval (3)')
    for (const text of [
      'Add task &quot;Eggs&quot; to list &quot;Groceries&quot;?',
      escaped('Submit sitemap "https://www.example.com/s.xml" for https://www.example.com/?'),
      'Delete task &quot;Buy milk&quot; from list &quot;Groceries&quot;?',
      'Second Helper',
      'Search Helper',
      'Search performance',
    ])
      expect(page).toContain(text)
    const actions = formsOf(page).map((f) => f.action)
    for (const change of [p.milk, p.eggs, p.sitemap, p.deletion])
      expect(actions).toContain(`/approvals/${change.id}`)
    // Approve all names the three that may go together, never the deletion.
    expect(new Set(approveAllOf(page)!.ids)).toEqual(new Set([p.milk.id, p.eggs.id, p.sitemap.id]))
    expect(page).toContain('<button name="Approve all" value="Approve all">Approve all</button>')

    // GET /approvals: the same list, with no change in front.
    const list = (await flow.open(p.person, `${suite.url}/approvals`)).text
    expect(list).toContain('Changes waiting for your approval (4)')
    expect(new Set(approveAllOf(list)!.ids)).toEqual(new Set([p.milk.id, p.eggs.id, p.sitemap.id]))
  })

  it('Approve all approves exactly what it named, each by itself and each in the audit trail; the deletion waits for its own Approve', async () => {
    const p = await personWithChanges('visit-bo')
    const page = (await flow.open(p.person, p.milk.url)).text
    const { ids, csrf } = approveAllOf(page)!
    // A change that reaches the person after the page was drawn is not part of it.
    const late = await flow.approvals.request(addTask(p.first.grantId, 'Late'))

    const answer = await approveAll(p.person, ids, csrf)
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('Approved 3 changes: go back to your assistant')
    for (const change of [p.milk, p.eggs, p.sitemap])
      expect(await flow.statusOf(change.id)).toBe('approved')
    expect(await flow.statusOf(p.deletion.id)).toBe('pending')
    expect(await flow.statusOf(late.id)).toBe('pending')
    // What still waits is listed below, the deletion with its own form.
    expect(formsOf(answer.text).map((f) => f.action)).toContain(`/approvals/${p.deletion.id}`)
    const audit = await suite.store.db
      .selectFrom('audit_events')
      .select(['decision', 'tool', 'approval_id', 'account'])
      .where('account', '=', 'visit-bo')
      .execute()
    expect(audit.map((e) => `${e.decision} ${e.tool}`).sort()).toEqual([
      'approved create_task',
      'approved create_task',
      'approved submit_sitemap',
    ])
    expect(new Set(audit.map((e) => e.approval_id))).toEqual(
      new Set([p.milk.id, p.eggs.id, p.sitemap.id].map(approvalKey)),
    )

    // Its own Approve, on the same visit, approves the deletion.
    const deletion = formsOf(answer.text).find((f) => f.action === `/approvals/${p.deletion.id}`)!
    const decided = await flow.post(p.person, `${suite.url}/approvals/${p.deletion.id}`, {
      csrf: deletion.fields.find(([name]) => name === 'csrf')![1],
      Approve: 'Approve',
    })
    expect(decided.status).toBe(200)
    expect(decided.text).toContain('Approved: go back to your assistant and ask it to try again.')
    expect(await flow.statusOf(p.deletion.id)).toBe('approved')

    // Replayed, the same post approves nothing more.
    const replayed = await approveAll(p.person, ids, csrf)
    expect(replayed.text).toContain('Approved 0 changes')
    expect(
      (
        await suite.store.db
          .selectFrom('audit_events')
          .select('decision')
          .where('account', '=', 'visit-bo')
          .where('decision', '=', 'approved')
          .execute()
      ).length,
    ).toBe(4)
  })

  it('an Approve all post that is not the page’s own decides nothing: no token, ids added, another site, a deletion slipped in, another person’s change', async () => {
    const p = await personWithChanges('visit-cy')
    const other = await personWithChanges('visit-dee')
    const page = (await flow.open(p.person, p.milk.url)).text
    const { ids, csrf } = approveAllOf(page)!
    const attempts: [string[], string, Record<string, string>][] = [
      [ids, '', {}],
      [ids, 'forged', {}],
      [[...ids, p.deletion.id], csrf, {}],
      [[...ids, other.milk.id], csrf, {}],
      [ids.slice(1), csrf, {}],
      [ids, csrf, { origin: 'https://evil.example' }],
      [ids, csrf, { 'sec-fetch-site': 'cross-site' }],
    ]
    for (const [posted, token, headers] of attempts) {
      const answer = await approveAll(p.person, posted, token, headers)
      expect(answer.status, JSON.stringify([posted.length, token.length, headers])).toBe(400)
    }
    for (const change of [p.milk, p.eggs, p.sitemap, p.deletion, other.milk])
      expect(await flow.statusOf(change.id)).toBe('pending')

    // Even with a token made for them by the connector's own key (as a flaw elsewhere might
    // yield), a deletion and another person's change are refused one by one.
    const forged = tokenFor(p.person, [...ids, p.deletion.id, other.milk.id])
    const answer = await approveAll(p.person, [...ids, p.deletion.id, other.milk.id], forged)
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('Approved 3 changes')
    expect(answer.text).toContain('2 could not be approved')
    expect(await flow.statusOf(p.deletion.id)).toBe('pending')
    expect(await flow.statusOf(other.milk.id)).toBe('pending')
  })

  it('another person never sees, nor decides, someone else’s changes', async () => {
    const p = await personWithChanges('visit-eve')
    const stranger = await flow.connected('visit-frank')
    await flow.signInFrom(stranger.person, `${suite.url}/approvals`)
    const list = (await flow.open(stranger.person, `${suite.url}/approvals`)).text
    expect(list).toContain('Nothing is waiting for your approval')
    expect(list).not.toContain('Buy milk')
    expect(approveAllOf(list)).toBeUndefined()
    const theirs = await flow.open(stranger.person, p.milk.url)
    expect(theirs.status).toBe(403)
    expect(theirs.text).not.toContain('Eggs')
  })

  it('signed out, the list shows nothing and offers the sign-in through the provider', async () => {
    await personWithChanges('visit-gil')
    const person = suite.person('visit-gil')
    const page = await flow.open(person, `${suite.url}/approvals`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Sign in with')
    expect(page.text).not.toContain('Buy milk')
    const back = await flow.signInFrom(person, `${suite.url}/approvals`)
    expect(back.url).toBe(`${suite.url}/approvals`)
    expect(back.text).toContain('Changes waiting for your approval (4)')
  })
})

/** The Approve all token the connector would issue `person`'s session for `ids`. */
function tokenFor(person: Person, ids: readonly string[]): string {
  const cookie = person.cookies
    .header(new URL(`${suite.url}/approvals`))
    .split('; ')
    .find((pair) => pair.startsWith('countersign_session='))!
  const session = createHash('sha256')
    .update(cookie.slice(cookie.indexOf('=') + 1))
    .digest('hex')
  return suite.connector.parts.forms.approval.issue(
    `approve all ${session} ${ids.map(approvalKey).sort().join(' ')}`,
  )
}

describe('a form as large as its page', () => {
  it('Approve all with 90 changes waiting approves every one; a form longer than the page could send decides nothing', async () => {
    const user = 'visit-many'
    const { person, grantId } = await flow.connected(user, 'Busy Assistant')
    const changes = []
    for (let i = 0; i < 90; i++)
      changes.push(await flow.approvals.request(addTask(grantId, `Errand ${i}`)))
    await flow.signInFrom(person, changes[0]!.url)
    const form = approveAllOf((await flow.open(person, `${suite.url}/approvals`)).text)!
    expect(form.ids).toHaveLength(90)
    // Beyond 4 KiB: the page's own form is read whole, since the page drew every one of them.
    expect(new URLSearchParams(form.ids.map((id) => ['id', id])).toString().length).toBeGreaterThan(
      4096,
    )

    // A form padded past what the page could send is read no further: 413, nothing decided.
    const padded = await approveAll(
      person,
      [...form.ids, ...form.ids.map((id) => `${id}x`.repeat(3))],
      form.csrf,
    )
    expect(padded.status).toBe(413)
    expect(await flow.statusOf(changes[0]!.id)).toBe('pending')

    const done = await approveAll(person, form.ids, form.csrf)
    expect(done.status).toBe(200)
    expect(done.text).toContain('Approved 90 changes')
    for (const change of changes) expect(await flow.statusOf(change.id)).toBe('approved')
  })
})
