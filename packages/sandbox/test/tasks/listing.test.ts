import { describe, expect, it } from 'vitest'
import { sandboxForSuite } from '../support/sandbox.js'
import { newUser, type Resource, type TestUser } from './client.js'

const sandbox = sandboxForSuite()

/** Creates tasks from an outline, in list order: nesting by indent of two spaces. */
async function outline(u: TestUser, lines: string[], list = '@default') {
  const last: { id: string }[] = []
  const lastChild = new Map<string, string>()
  const created: Record<string, Resource> = {}
  for (const line of lines) {
    const depth = (line.length - line.trimStart().length) / 2
    const title = line.trim()
    const parent = depth === 0 ? undefined : last[depth - 1]!.id
    const previous = lastChild.get(parent ?? '')
    const task = await u.createTask({ title }, { parent, previous }, list)
    lastChild.set(parent ?? '', task.id)
    last[depth] = task
    last.length = depth + 1
    created[title] = task
  }
  return created
}

describe('list_tasks order and paging', () => {
  it('the list order is depth first: each task followed by its subtasks, at any depth', async () => {
    const u = await newUser(sandbox)
    const lines = [
      '1',
      '  1.1',
      '    1.1.1',
      '      1.1.1.1',
      '    1.1.2',
      '  1.2',
      '2',
      '3',
      '  3.1',
    ]
    await outline(u, lines)
    expect(await u.titles()).toEqual(lines.map((l) => l.trim()))
  })

  it('paging an unchanged list yields each task exactly once, in order, whatever the page size', async () => {
    const u = await newUser(sandbox)
    const lines = [
      'a',
      '  a1',
      '    a1x',
      '    a1y',
      '  a2',
      'b',
      'c',
      '  c1',
      '    c1x',
      '      c1xx',
      'd',
      'e',
    ]
    await outline(u, lines)
    const expected = lines.map((l) => l.trim())
    for (const maxResults of [1, 2, 3, 5, 11, 12, 100]) {
      expect(await u.titles({ maxResults })).toEqual(expected)
    }
  })

  it('maxResults defaults to 20 and nextPageToken appears only when there is more', async () => {
    const u = await newUser(sandbox)
    for (let i = 0; i < 21; i++) await u.createTask({ title: `t${i}` })
    const first = await u.page()
    expect(first.items).toHaveLength(20)
    expect(first.nextPageToken).toEqual(expect.any(String))
    const second = await u.page({ pageToken: first.nextPageToken })
    expect(second.items).toHaveLength(1)
    expect(second).not.toHaveProperty('nextPageToken')
  })

  it('a page exactly as long as what is left has no nextPageToken', async () => {
    const u = await newUser(sandbox)
    for (let i = 0; i < 4; i++) await u.createTask({ title: `t${i}` })
    const page = await u.page({ maxResults: 4 })
    expect(page.items).toHaveLength(4)
    expect(page).not.toHaveProperty('nextPageToken')
  })

  it('paging skips tasks that do not match and still finds the next match after a deleted subtree', async () => {
    const u = await newUser(sandbox)
    const t = await outline(u, ['a', '  a1', '  a2', 'b', '  b1', '    b1x', 'c', '  c1'])
    await u.remove(t['b'].id)
    await u.patch(t['a1'].id, { status: 'completed' })
    expect(await u.titles({ maxResults: 1, showCompleted: false })).toEqual(['a', 'a2', 'c', 'c1'])
    expect(await u.titles({ maxResults: 2, showDeleted: true })).toEqual([
      'a',
      'a1',
      'a2',
      'b',
      'b1',
      'b1x',
      'c',
      'c1',
    ])
  })

  it('list_task_lists pages in creation order with each list exactly once', async () => {
    const u = await newUser(sandbox)
    for (let i = 1; i <= 4; i++) await u.createList(`L${i}`)
    const titles: string[] = []
    let pageToken: string | undefined
    do {
      const page = (
        await u.call('GET', `/lists?maxResults=2${pageToken ? `&pageToken=${pageToken}` : ''}`)
      ).body
      titles.push(...page.items.map((l: { title: string }) => l.title))
      pageToken = page.nextPageToken
    } while (pageToken)
    expect(titles).toEqual(['My Tasks', 'L1', 'L2', 'L3', 'L4'])
  })
})

describe('list_tasks filters', () => {
  it('showCompleted false leaves out completed tasks; by default they are listed', async () => {
    const u = await newUser(sandbox)
    await u.createTask({ title: 'open' })
    await u.createTask({ title: 'done', status: 'completed' })
    expect(await u.titles()).toEqual(['done', 'open'])
    expect(await u.titles({ showCompleted: false })).toEqual(['open'])
  })

  it('hidden tasks are listed only with showHidden true', async () => {
    const u = await newUser(sandbox)
    await u.createTask({ title: 'done', status: 'completed' })
    await u.call('POST', '/lists/@default/clear')
    expect(await u.titles()).toEqual([])
    expect(await u.titles({ showHidden: true })).toEqual(['done'])
    expect(await u.titles({ showHidden: true, showCompleted: false })).toEqual([])
  })

  it('assigned tasks are listed only with showAssigned true', async () => {
    const u = await newUser(sandbox)
    await u.createTask({ title: 'mine' })
    await sandbox.request('POST', '/_sandbox/assigned-tasks', {
      body: { user: u.name, tasklist: '@default', title: 'assigned', surfaceType: 'SPACE' },
    })
    expect(await u.titles()).toEqual(['mine'])
    expect(await u.titles({ showAssigned: true })).toEqual(['assigned', 'mine'])
  })

  it('a subtask matches on its own, whatever its parent does', async () => {
    const u = await newUser(sandbox)
    const t = await outline(u, ['p', '  child'])
    await u.patch(t['p'].id, { status: 'completed' })
    expect(await u.titles({ showCompleted: false })).toEqual(['child'])
  })

  it('dueMin and dueMax are inclusive bounds on the due day at midnight UTC; tasks without due are left out', async () => {
    const u = await newUser(sandbox)
    await u.createTask({ title: 'none' })
    await u.createTask({ title: 'may1', due: '2026-05-01T23:00:00-05:00' })
    await u.createTask({ title: 'may2', due: '2026-05-02T00:00:00Z' })
    await u.createTask({ title: 'may3', due: '2026-05-03T00:00:00Z' })
    expect(await u.titles({ dueMin: '2026-05-02T00:00:00Z' })).toEqual(['may3', 'may2'])
    expect(await u.titles({ dueMax: '2026-05-02T00:00:00Z' })).toEqual(['may2', 'may1'])
    expect(
      await u.titles({ dueMin: '2026-05-01T00:00:00.001Z', dueMax: '2026-05-02T23:59:59Z' }),
    ).toEqual(['may2'])
    expect(
      await u.titles({ dueMin: '2026-05-02T01:00:00+01:00', dueMax: '2026-05-02T01:00:00+01:00' }),
    ).toEqual(['may2'])
  })

  it('completedMin and completedMax are inclusive; open tasks are left out when a bound is given', async () => {
    const u = await newUser(sandbox)
    await u.createTask({ title: 'open' })
    await u.createTask({ title: 'jan', status: 'completed', completed: '2026-01-10T00:00:00Z' })
    await u.createTask({ title: 'feb', status: 'completed', completed: '2026-02-10T00:00:00Z' })
    expect(await u.titles({ completedMin: '2026-01-10T00:00:00Z' })).toEqual(['feb', 'jan'])
    expect(await u.titles({ completedMax: '2026-01-10T00:00:00Z' })).toEqual(['jan'])
    expect(
      await u.titles({
        completedMin: '2026-01-10T00:00:00.001Z',
        completedMax: '2026-02-10T00:00:00Z',
      }),
    ).toEqual(['feb'])
  })

  it('updatedMin is an inclusive lower bound on the last modification time', async () => {
    const u = await newUser(sandbox)
    const old = await u.createTask({ title: 'old' })
    await new Promise((r) => setTimeout(r, 5))
    const fresh = await u.createTask({ title: 'fresh' })
    expect(await u.titles({ updatedMin: fresh.updated })).toEqual(['fresh'])
    expect(await u.titles({ updatedMin: old.updated })).toEqual(['fresh', 'old'])
  })
})
