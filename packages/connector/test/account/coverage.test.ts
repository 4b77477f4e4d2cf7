import { describe, expect, it } from 'vitest'
import { connectorForSuite, coverageAnswer, csrfOf, type Person } from '../support/connector.js'
import { providerRequests } from '../support/provider-log.js'
import { approvalLink, assistantV1, assistantV2, textOf } from '../mcp/approval-clients.js'
import { approvalPages } from '../approval/flow.js'
import { taskFixtures } from '../mcp/fixtures.js'

/**
 * What a connection may use, changed later on the person's connections page: shown for each
 * connection, changed with the same choice as at consent (Save), effective from the assistant's
 * next call with the token it has. Narrowing never widens what is in flight: a change approved
 * for a list no longer covered is refused when it would run. The choice's form names only what
 * the person has, for a grant of their own, from this page.
 */

const suite = connectorForSuite()
const { seed } = taskFixtures(suite)
const pages = approvalPages()

let people = 0
/** A person with lists A and B, connected to tasks covering `cover`, signed in to their page. */
async function connected(cover: (lists: string[]) => string[] | 'all') {
  const user = `coverage-page-${++people}`
  const a = await seed(user, 1, 'Shared')
  const b = await seed(user, 1, 'Private')
  const lists = [a.tasklist, b.tasklist]
  const person = suite.person(user)
  person.covers = cover(lists)
  const client = await suite.registerClient({ client_name: 'Helpful Assistant' })
  const { tokens } = await suite.connect({ client, person, service: 'tasks' })
  await person.signInToConnections()
  const grantId = (
    await suite.store.db
      .selectFrom('grant_links')
      .select('grant_id')
      .where('account', '=', user)
      .executeTakeFirstOrThrow()
  ).grant_id
  return { user, person, lists, a, b, token: tokens.access_token as string, grantId }
}

const coverageUrl = (grantId: string) => `${suite.url}/connections/${grantId}/coverage`

async function open(person: Person, url: string) {
  const res = await person.fetch('GET', url)
  return { status: res.status, text: await res.text() }
}

/** Saves `cover` on the grant's coverage page, as the person does it. */
async function save(person: Person, grantId: string, cover: 'all' | string[]) {
  const { text } = await open(person, coverageUrl(grantId))
  const form = coverageAnswer(text, cover)
  form.delete('Allow')
  form.set('Save', 'Save')
  const res = await person.fetch('POST', coverageUrl(grantId), form)
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

const listedIds = async (token: string) => {
  const assistant = await assistantV2(suite.resource('tasks'), token, undefined)
  const listed = await assistant.call('list_task_lists', {})
  await assistant.close()
  return ((listed.structuredContent as any).items ?? []).map((l: any) => l.id)
}

describe('what a connection may use, on the connections page', () => {
  it('is shown for each connection, with a way to change it', async () => {
    const p = await connected((lists) => [lists[0]!])
    const { text } = await open(p.person, `${suite.url}/connections`)
    expect(text).toContain('It may use 1 chosen task list.')
    expect(text).toContain(`href="/connections/${p.grantId}/coverage"`)
    const change = await open(p.person, coverageUrl(p.grantId))
    expect(change.status).toBe(200)
    expect(change.text).toContain('Which task lists may <em>Helpful Assistant</em> use?')
    // What it covers now is what the page shows ticked.
    expect(change.text).toMatch(new RegExp(`value="${p.lists[0]}"\\s+checked`))
    expect(change.text).not.toMatch(new RegExp(`value="${p.lists[1]}"\\s+checked`))
  })

  it('Save: from the next call on, with the token the assistant has, narrower or wider', async () => {
    const p = await connected(() => 'all')
    expect(await listedIds(p.token)).toEqual(expect.arrayContaining(p.lists))

    const narrowed = await save(p.person, p.grantId, [p.lists[1]!])
    expect(narrowed.status).toBe(303)
    const back = await open(p.person, `${suite.url}${narrowed.location}`)
    expect(back.text).toContain('Saved: Helpful Assistant may now use 1 chosen task list.')
    expect(await listedIds(p.token)).toEqual([p.lists[1]])

    await save(p.person, p.grantId, 'all')
    expect(await listedIds(p.token)).toEqual(expect.arrayContaining(p.lists))
  })

  it('a change approved for a list the person then took out is refused when it would run', async () => {
    const p = await connected(() => 'all')
    // The assistant asks to add a task to list B; the person is sent the approval page.
    const assistant = await assistantV1(suite.resource('tasks'), p.token)
    const args = { tasklist: p.b.tasklist, title: 'Into the private list' }
    const asked = await assistant.call('create_task', args)
    const link = approvalLink(asked)
    // They take list B out of the grant, then approve the change on its page all the same.
    await save(p.person, p.grantId, [p.a.tasklist])
    await pages.onThePage(p.person, link, 'Approve')
    const { next } = await providerRequests(suite, 'tasks')
    const result = await assistant.call('create_task', args)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/is not one the person lets this assistant use/)
    expect((await providerRequests(suite, 'tasks', next)).calls).toEqual([])
    await assistant.close()
  })

  it('refuses a post naming a list the person does not have, and changes nothing', async () => {
    const p = await connected((lists) => [lists[0]!])
    const other = await seed(`coverage-stranger-${++people}`, 0, 'Theirs')
    const refused = await save(p.person, p.grantId, [p.lists[0]!, other.tasklist])
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('The form named a task list that is not yours.')
    expect(await listedIds(p.token)).toEqual([p.lists[0]])
  })

  it("refuses another person's grant, a form without this page's token, and a post from another site", async () => {
    const mine = await connected((lists) => [lists[0]!])
    const theirs = await connected((lists) => [lists[0]!])
    // Another person's grant: not theirs to see or change.
    expect((await open(mine.person, coverageUrl(theirs.grantId))).status).toBe(404)
    const { text } = await open(mine.person, coverageUrl(mine.grantId))
    const form = coverageAnswer(text, 'all')
    form.set('Save', 'Save')
    const elsewhere = await mine.person.fetch('POST', coverageUrl(theirs.grantId), form)
    expect(elsewhere.status).toBe(404)
    // This page's token for another grant does not carry over.
    const foreign = await theirs.person.fetch('POST', coverageUrl(theirs.grantId), form)
    expect(foreign.status).toBe(400)
    // From another site: refused before anything is read.
    const cross = await mine.person.fetch('POST', coverageUrl(mine.grantId), form, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    })
    expect(cross.status).toBe(400)
    expect(await listedIds(mine.token)).toEqual([mine.lists[0]])
    expect(await listedIds(theirs.token)).toEqual([theirs.lists[0]])
    expect(csrfOf(text)).toBeTruthy()
  })
})
