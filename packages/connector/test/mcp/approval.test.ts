import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ElicitRequest } from '@modelcontextprotocol/client'
import { quoted } from '../../src/services/wording.js'
import { connectorForSuite } from '../support/connector.js'
import { approvalFlow } from '../approval/flow.js'
import { approvalLink, assistantV1, assistantV2, textOf, type Answer } from './approval-clients.js'
import { taskFixtures } from './fixtures.js'

/**
 * Every change through the real connector and sandbox, as the person meets it (docs/design.md,
 * "Approval of changes"): asked in the assistant where it can answer (the SDK v2 client under
 * 2026-07-28), on the approval page where it cannot (the v1 client, 2025-11-25), and delete_task
 * always on the page. Whatever goes wrong - a decline, a dismissal, an expiry, a replay, other
 * arguments, another person, a task changed since - the provider sees no write.
 */

const suite = connectorForSuite()
const flow = approvalFlow(suite)
const { seed, upstreamCalls, auditOf, deleteStatus, staleChange } = taskFixtures(suite)
const tasksMcp = () => suite.resource('tasks')

let people = 0
/** A person connected to tasks through the real flow, with a list of `tasks` tasks. */
async function connectedPerson(tasks = 2) {
  const user = `approver-${++people}`
  const person = suite.person(user)
  const { tokens, grantId } = await flow.connected(user, 'Helpful Assistant', person)
  const list = await seed(user, tasks)
  return { user, person, token: tokens.access_token as string, grantId, ...list }
}

const approveInClient: Answer = () => ({ action: 'accept', content: { approve: true } })

async function tasksOf(token: string, tasklist: string) {
  const res = await suite.sandboxRequest('GET', `/tasks/v1/lists/${tasklist}/tasks`, { token })
  return (res.body.items ?? []) as { id: string; title: string; parent?: string }[]
}

describe('a client that answers in its own interface (SDK v2, 2026-07-28)', () => {
  it('create_task: the person is asked with the task and list by title, approves, and it is made once', async () => {
    const p = await connectedPerson()
    const asked: ElicitRequest['params'][] = []
    const assistant = await assistantV2(tasksMcp(), p.token, (params) => {
      asked.push(params)
      return approveInClient(params)
    })
    const { next } = await upstreamCalls()
    const result = await assistant.call('create_task', {
      tasklist: p.tasklist,
      title: 'Buy oat milk',
      notes: 'the barista kind',
    })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(result.structuredContent).toMatchObject({ kind: 'tasks#task', title: 'Buy oat milk' })

    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ mode: 'form' })
    expect(asked[0]!.message).toMatch(/^Add task "Buy oat milk" to list "Groceries"\?/)
    expect(asked[0]!.message).toContain('Notes: "the barista kind"')
    const { writes } = await upstreamCalls(next)
    expect(writes.map((w) => `${w.method} ${w.status}`)).toEqual(['POST 200'])
    expect(await auditOf(p.grantId)).toEqual(['approved create_task', 'executed create_task 200'])
    await assistant.close()
  })

  it('the other auth-token changes: create_task_list, update_task, move_task, each asked and made', async () => {
    const p = await connectedPerson(3)
    const messages: string[] = []
    const assistant = await assistantV2(tasksMcp(), p.token, (params) => {
      messages.push(params.message)
      return approveInClient(params)
    })
    const list = await assistant.call('create_task_list', { title: 'Errands' })
    expect(list.structuredContent).toMatchObject({ kind: 'tasks#taskList', title: 'Errands' })
    const updated = await assistant.call('update_task', {
      tasklist: p.tasklist,
      task: p.ids[0],
      title: 'Task one, renamed',
      status: 'completed',
    })
    expect(updated.structuredContent).toMatchObject({
      title: 'Task one, renamed',
      status: 'completed',
    })
    const moved = await assistant.call('move_task', {
      tasklist: p.tasklist,
      task: p.ids[2],
      parent: p.ids[1],
    })
    expect(moved.structuredContent).toMatchObject({ id: p.ids[2], parent: p.ids[1] })
    expect(messages).toEqual([
      expect.stringMatching(/^Create task list "Errands"\?/),
      expect.stringMatching(
        /^Change task "Task 1" in list "Groceries": title to "Task one, renamed", mark as done\?/,
      ),
      expect.stringMatching(/^Move task "Task 3" in list "Groceries" under "Task 2"/),
    ])
    await assistant.close()
  })

  it.each([
    ['declines', { action: 'decline' } as const, /declined this update_task call/],
    [
      'answers "no"',
      { action: 'accept', content: { approve: false } } as const,
      /did not approve this update_task call \(approve was no\)/,
    ],
    [
      'accepts without saying yes',
      { action: 'accept', content: {} } as const,
      /did not approve this update_task call \(approve was missing\)/,
    ],
    [
      'accepts with an answer that is not a yes or no',
      { action: 'accept', content: { approve: 'yes' } } as const,
      /did not approve this update_task call \(approve was not a yes or no\)/,
    ],
  ])('the person %s: nothing is changed, and the result says so', async (_, answer, says) => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, () => answer)
    const { next } = await upstreamCalls()
    const result = await assistant.call('update_task', {
      tasklist: p.tasklist,
      task: p.ids[0],
      title: 'Never',
    })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(says)
    expect(textOf(result)).toMatch(/Nothing was changed/)
    expect((await upstreamCalls(next)).writes).toEqual([])
    expect((await tasksOf(p.providerToken, p.tasklist))[0]!.title).toBe('Task 1')
    expect(await auditOf(p.grantId)).toEqual(['declined update_task'])
    await assistant.close()
  })

  it('a question dismissed or never shown is no decline: the change waits, the result names its page, and approved there it is made once', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, () => ({ action: 'cancel' }))
    const { next } = await upstreamCalls()
    const args = { tasklist: p.tasklist, task: p.ids[0], title: 'Renamed later' }
    const result = await assistant.call('update_task', args)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(
      /got no answer in the assistant, so this update_task call still waits/,
    )
    expect(textOf(result)).toMatch(/Nothing was changed/)
    const url = /open (\S+) ,/.exec(textOf(result))![1]!
    expect(url).toMatch(/\/approvals\/[\w-]+$/)
    expect(await auditOf(p.grantId)).toEqual([])
    expect((await upstreamCalls(next)).writes).toEqual([])

    // On the page, the person approves it; the call comes again and is made, once.
    await flow.onThePage(p.person, url, 'Approve')
    const again = await assistantV2(tasksMcp(), p.token, undefined)
    const made = await again.call('update_task', args)
    expect(made.isError ?? false, textOf(made)).toBe(false)
    expect(made.structuredContent).toMatchObject({ title: 'Renamed later' })
    expect(await auditOf(p.grantId)).toEqual(['approved update_task', 'executed update_task 200'])
    await Promise.all([assistant.close(), again.close()])
  })

  it('delete_task is approved on the page (URL elicitation), where the connector checks the person', async () => {
    const p = await connectedPerson()
    const opened: string[] = []
    const assistant = await assistantV2(tasksMcp(), p.token, async (params) => {
      expect(params.mode).toBe('url')
      const { url } = params as { url: string }
      opened.push(url)
      await flow.onThePage(p.person, url, 'Approve')
      return { action: 'accept' }
    })
    const { next } = await upstreamCalls()
    const result = await assistant.call('delete_task', { tasklist: p.tasklist, task: p.ids[0] })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(result.structuredContent).toEqual({
      deleted: true,
      tasklist: p.tasklist,
      task: p.ids[0],
    })
    expect(opened).toEqual([expect.stringMatching(`^${suite.url}/approvals/`)])
    expect((await upstreamCalls(next)).writes.map((w) => `${w.method} ${w.status}`)).toEqual([
      `DELETE ${deleteStatus}`,
    ])
    expect((await tasksOf(p.providerToken, p.tasklist)).map((t) => t.id)).toEqual([p.ids[1]])
    await assistant.close()
  })

  it('delete_task is never approved on the client’s word: an "accept" without the page changes nothing', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, () => ({ action: 'accept' }))
    const { next } = await upstreamCalls()
    const result = await assistant.call('delete_task', { tasklist: p.tasklist, task: p.ids[0] })
    expect(textOf(result)).toMatch(/Not approved yet\. Nothing was changed\./)
    expect(approvalLink(result)).toMatch(`${suite.url}/approvals/`)
    expect((await upstreamCalls(next)).writes).toEqual([])
  })

  it('a client that answers forms but does not open URLs is sent the link for delete_task', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, approveInClient, { form: true })
    const args = { tasklist: p.tasklist, task: p.ids[1] }
    const asked = await assistant.call('delete_task', args)
    const url = approvalLink(asked)
    expect(textOf(asked)).toMatch(/Delete task "Task 2" from list "Groceries"\?/)
    await flow.onThePage(p.person, url, 'Approve')
    const done = await assistant.call('delete_task', args)
    expect(done.structuredContent).toMatchObject({ deleted: true, task: p.ids[1] })
  })

  it('a task changed after the person approved: nothing is changed, and the result says so', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, async (params) => {
      await flow.onThePage(p.person, (params as { url: string }).url, 'Approve')
      // Meanwhile, in another app, the task is renamed.
      await suite.sandboxRequest('PATCH', `/tasks/v1/lists/${p.tasklist}/tasks/${p.ids[0]}`, {
        token: p.providerToken,
        json: { title: 'Renamed elsewhere' },
      })
      return { action: 'accept' }
    })
    const result = await assistant.call('delete_task', { tasklist: p.tasklist, task: p.ids[0] })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/Nothing was changed: .* modified after the person approved/)
    const titles = (await tasksOf(p.providerToken, p.tasklist)).map((t) => t.title)
    expect(titles).toContain('Renamed elsewhere')
    expect(await auditOf(p.grantId)).toEqual(['approved delete_task', staleChange('delete_task')])
  })

  it('a replayed answer (the same retry sent again) changes nothing more', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, approveInClient)
    const args = { tasklist: p.tasklist, title: 'Only once' }
    expect((await assistant.call('create_task', args)).isError ?? false).toBe(false)
    const retry = assistant.sent.at(-1)!
    expect(retry.params.requestState).toEqual(expect.any(String))
    const { next } = await upstreamCalls()
    const replayed = await assistant.resend(retry)
    expect(replayed.status).toBe(200)
    expect(await replayed.text()).toMatch(/already used.*nothing more was changed/)
    expect((await upstreamCalls(next)).writes).toEqual([])
    expect(
      (await tasksOf(p.providerToken, p.tasklist)).filter((t) => t.title === 'Only once'),
    ).toHaveLength(1)
  })

  it('an answer sent back with other arguments approves nothing', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, () => ({ action: 'decline' }))
    await assistant.call('create_task', { tasklist: p.tasklist, title: 'Asked about' })
    const first = assistant.sent[0]!
    // The first call's state, sent back with an approving answer and another title.
    const { next } = await upstreamCalls()
    const forged = {
      ...first,
      params: {
        ...first.params,
        arguments: { tasklist: p.tasklist, title: 'Never asked about' },
        inputResponses: { approval: { action: 'accept', content: { approve: true } } },
        requestState: assistant.sent[1]!.params.requestState,
      },
    }
    const res = await assistant.resend(forged)
    expect(await res.text()).toMatch(/answer was about a different create_task call/)
    expect((await upstreamCalls(next)).writes).toEqual([])
  })

  it('a forged or altered request state is refused before anything runs', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV2(tasksMcp(), p.token, () => ({ action: 'decline' }))
    await assistant.call('create_task', { tasklist: p.tasklist, title: 'Asked about' })
    const retry = assistant.sent[1]!
    const state = retry.params.requestState as string
    const [version, body, mac] = state.split('.')
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString())
    payload.p.approval = 'A'.repeat(43)
    const altered = `${version}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`
    const { next } = await upstreamCalls()
    for (const requestState of [altered, 'v1.bm90aGluZw.bm90aGluZw', 'anything']) {
      const res = await assistant.resend({
        ...retry,
        params: {
          ...retry.params,
          inputResponses: { approval: { action: 'accept', content: { approve: true } } },
          requestState,
        },
      })
      expect(await res.text()).toMatch(/Invalid or expired requestState/)
    }
    expect((await upstreamCalls(next)).writes).toEqual([])
  })
})

describe('a client that cannot answer in its own interface (v1 SDK, 2025-11-25)', () => {
  it('all eight tools: reads run, each change is approved on the page and runs when called again', async () => {
    const p = await connectedPerson(3)
    const assistant = await assistantV1(tasksMcp(), p.token)
    const approvedOnPage = async (name: string, args: Record<string, unknown>) => {
      const asked = await assistant.call(name, args)
      const url = approvalLink(asked)
      expect(textOf(asked)).toMatch(/Nothing has been changed/)
      await flow.onThePage(p.person, url, 'Approve')
      const done = await assistant.call(name, args)
      expect(done.isError ?? false, textOf(done)).toBe(false)
      return done.structuredContent as Record<string, any>
    }

    const lists = await assistant.call('list_task_lists', {})
    expect((lists.structuredContent as any).items.map((l: any) => l.title)).toContain('Groceries')
    const page = await assistant.call('list_tasks', { tasklist: p.tasklist })
    expect((page.structuredContent as any).items).toHaveLength(3)
    const one = await assistant.call('get_task', { tasklist: p.tasklist, task: p.ids[0] })
    expect(one.structuredContent).toMatchObject({ title: 'Task 1' })

    const errands = await approvedOnPage('create_task_list', { title: 'Errands' })
    const created = await approvedOnPage('create_task', {
      tasklist: errands.id,
      title: 'Post a letter',
    })
    expect(created).toMatchObject({ title: 'Post a letter' })
    await approvedOnPage('update_task', {
      tasklist: p.tasklist,
      task: p.ids[0],
      notes: 'with care',
    })
    await approvedOnPage('move_task', {
      tasklist: p.tasklist,
      task: p.ids[1],
      destinationTasklist: errands.id,
    })
    await approvedOnPage('delete_task', { tasklist: p.tasklist, task: p.ids[2] })

    expect((await tasksOf(p.providerToken, p.tasklist)).map((t) => t.id)).toEqual([p.ids[0]])
    expect((await tasksOf(p.providerToken, errands.id)).map((t) => t.title).sort()).toEqual([
      'Post a letter',
      'Task 2',
    ])
    const trail = await auditOf(p.grantId)
    expect(trail.filter((e) => e.startsWith('executed'))).toEqual([
      'executed create_task_list 200',
      'executed create_task 200',
      'executed update_task 200',
      'executed move_task 200',
      `executed delete_task ${deleteStatus}`,
    ])
    await assistant.close()
  })

  it('called again before the person decided: the same link, nothing changed', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token)
    const args = { tasklist: p.tasklist, title: 'Wait for it' }
    const first = approvalLink(await assistant.call('create_task', args))
    const { next } = await upstreamCalls()
    expect(approvalLink(await assistant.call('create_task', args))).toBe(first)
    expect((await upstreamCalls(next)).calls).toEqual([])
  })

  it('declined on the page: the retry says so and changes nothing; the next call asks anew', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token)
    const args = { tasklist: p.tasklist, task: p.ids[0] }
    const url = approvalLink(await assistant.call('delete_task', args))
    await flow.onThePage(p.person, url, 'Decline')
    const { next } = await upstreamCalls()
    const retry = await assistant.call('delete_task', args)
    expect(textOf(retry)).toMatch(
      /declined this delete_task call on the approval page\. Nothing was changed/,
    )
    expect((await upstreamCalls(next)).writes).toEqual([])
    const again = approvalLink(await assistant.call('delete_task', args))
    expect(again).not.toBe(url)
    expect(await tasksOf(p.providerToken, p.tasklist)).toHaveLength(2)
  })

  it('expired before the call came back: nothing changed, the person is asked again', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token)
    const args = { tasklist: p.tasklist, title: 'Too late' }
    const url = approvalLink(await assistant.call('create_task', args))
    await flow.onThePage(p.person, url, 'Approve')
    // Ten minutes pass.
    await suite.store.db
      .updateTable('approvals')
      .set({ expires_at: Date.now() - 1 })
      .where('grant_id', '=', p.grantId)
      .execute()
    const { next } = await upstreamCalls()
    const retry = await assistant.call('create_task', args)
    expect(textOf(retry)).toMatch(/earlier approval expired unused/)
    expect(approvalLink(retry)).not.toBe(url)
    expect((await upstreamCalls(next)).writes).toEqual([])
  })

  it('replayed: an approval runs one call; the same call again needs its own approval', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token)
    const args = { tasklist: p.tasklist, title: 'Just one' }
    await flow.onThePage(
      p.person,
      approvalLink(await assistant.call('create_task', args)),
      'Approve',
    )
    const done = await assistant.call('create_task', args)
    expect(done.isError ?? false).toBe(false)
    const { next } = await upstreamCalls()
    const replayed = await assistant.resend(assistant.sent.at(-1)!)
    expect(await replayed.text()).toMatch(/already used once, so this call needs its own/)
    expect((await upstreamCalls(next)).writes).toEqual([])
  })

  it('changed arguments: an approval of one title does not create another', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token)
    const url = approvalLink(
      await assistant.call('create_task', { tasklist: p.tasklist, title: 'Approved title' }),
    )
    await flow.onThePage(p.person, url, 'Approve')
    const { next } = await upstreamCalls()
    const other = await assistant.call('create_task', {
      tasklist: p.tasklist,
      title: 'Approved title, then changed',
    })
    expect(approvalLink(other)).not.toBe(url)
    expect((await upstreamCalls(next)).writes).toEqual([])
    expect(await auditOf(p.grantId)).toContain('mismatch create_task')
  })

  it('another person cannot approve it: their answer is refused, the call stays unapproved', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token)
    const args = { tasklist: p.tasklist, task: p.ids[0] }
    const url = approvalLink(await assistant.call('delete_task', args))
    const mallory = suite.person(`mallory-${people}`)
    await flow.signInFrom(mallory, url)
    const page = await flow.open(mallory, url)
    expect(page.status).toBe(403)
    expect(page.text).not.toContain('Task 1')
    const { next } = await upstreamCalls()
    expect(approvalLink(await assistant.call('delete_task', args))).toBe(url)
    expect((await upstreamCalls(next)).writes).toEqual([])
    expect(await flow.statusOf(url.split('/').at(-1)!)).toBe('pending')
  })
})

describe('random change arguments', () => {
  it('each call is either refused with what to fix, or asked about by name; nothing is written', async () => {
    const p = await connectedPerson(1)
    const assistant = await assistantV1(tasksMcp(), p.token)
    const { next } = await upstreamCalls()
    const text = fc.string({ minLength: 0, maxLength: 40, unit: 'binary' })
    const call = fc.oneof(
      fc.record({ name: fc.constant('create_task'), title: text, notes: fc.option(text) }),
      fc.record({ name: fc.constant('update_task'), title: text, notes: fc.option(text) }),
      fc.record({ name: fc.constant('create_task_list'), title: text, notes: fc.constant(null) }),
    )
    await fc.assert(
      fc.asyncProperty(call, async ({ name, title, notes }) => {
        const args: Record<string, unknown> = { title }
        if (name !== 'create_task_list') args.tasklist = p.tasklist
        if (name === 'update_task') args.task = p.ids[0]
        if (notes !== null) args.notes = notes
        const result = await assistant.call(name, args)
        expect(result.isError, textOf(result)).toBe(true)
        if (/^Invalid arguments/.test(textOf(result))) return
        expect(approvalLink(result)).toMatch(`${suite.url}/approvals/`)
        // The title as the person reads it: on one line, shortened, or "(untitled)".
        if (name !== 'update_task') expect(textOf(result)).toContain(quoted(title))
      }),
      { numRuns: 40 },
    )
    expect((await upstreamCalls(next)).writes).toEqual([])
  }, 60_000)
})
