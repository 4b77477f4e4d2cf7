import { describe, expect, it } from 'vitest'
import {
  detailText,
  type ChangeDescription,
  type ProviderReader,
} from '../../../src/services/definition.js'
import { TASK_TOOLS } from '../../../src/services/tasks/index.js'
import { dueDay, moment, notesPreview, quoted } from '../../../src/services/wording.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { callTool, providerReader } from '../tool-calls.js'

/** describe() of every change tool, reading from the real sandbox through a ProviderReader. */

const sandbox = sandboxForSuite()
const tool = (name: string) => TASK_TOOLS.find((t) => t.name === name)!
let users = 0

async function newUser() {
  const user = `describe${++users}`
  const token = await sandbox.token(user, ['tasks'])
  const reader = providerReader(sandbox, token)
  const run = async (name: string, args: Record<string, unknown>, headers = {}) => {
    const res = await callTool(sandbox, token, tool(name), args, headers)
    return res
  }
  const ok = async (name: string, args: Record<string, unknown>) => {
    const res = await run(name, args)
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.text}`)
    return res.body
  }
  /** What the person is asked, for these arguments, as the tool's approval gate would ask it. */
  const ask = (name: string, args: Record<string, unknown>, provider: ProviderReader = reader) =>
    tool(name).approval!.describe(tool(name).input.parse(args), provider)
  const list = async (title: string) => (await ok('create_task_list', { title })).id as string
  const add = async (tasklist: string, title: string, more: Record<string, unknown> = {}) =>
    ok('create_task', { tasklist, title, ...more })
  return { user, token, reader, run, ok, ask, list, add }
}

const detail = (d: ChangeDescription, label: string) => {
  const item = d.details.find((each) => each.label === label)
  return item && detailText(item)
}

describe('describe() names the task and the list by title', () => {
  it('create_task_list', async () => {
    const { ask, reader } = await newUser()
    const d = await ask('create_task_list', { title: 'Garden' })
    expect(d).toEqual({
      summary: 'Create task list "Garden"?',
      details: [{ label: 'Title', value: '"Garden"' }],
    })
    expect(reader.calls).toEqual([])
  })

  it('create_task: with the due day, notes, parent and position', async () => {
    const { ask, list, add } = await newUser()
    const work = await list('Work')
    const plan = await add(work, 'Plan trip')
    const pick = await add(work, 'Pick dates', { parent: plan.id })
    const d = await ask('create_task', {
      tasklist: work,
      title: 'Call Ann',
      parent: plan.id,
      previous: pick.id,
      due: '2026-11-25T23:30:00-07:00',
      notes: 'Ask about the venue\nand the date',
      status: 'completed',
    })
    expect(d.summary).toBe(
      'Add task "Call Ann" to list "Work" under "Plan trip", after "Pick dates", due 25 Nov 2026, already done?',
    )
    expect(d.details).toEqual([
      { label: 'Title', value: '"Call Ann"' },
      { label: 'List', value: '"Work"' },
      { label: 'Subtask of', value: '"Plan trip"' },
      { label: 'Position', value: 'after "Pick dates"' },
      { label: 'Due', value: '25 Nov 2026' },
      { label: 'Notes', value: '"Ask about the venue" (32 characters in all)' },
      { label: 'Status', value: 'done' },
    ])
    expect(d.ifMatch).toBeUndefined()

    const plain = await ask('create_task', { tasklist: '@default', title: 'Call Ann' })
    expect(plain.summary).toBe('Add task "Call Ann" to list "My Tasks"?')
    expect(detail(plain, 'Position')).toBe('first in the list')
  })

  it('update_task: each change, what it was, and the etag the person saw', async () => {
    const { ask, list, add, run, ok } = await newUser()
    const groceries = await list('Groceries')
    const milk = await add(groceries, 'Buy milk', {
      notes: 'Two litres',
      due: '2026-11-20T00:00:00Z',
    })
    const args = { tasklist: groceries, task: milk.id, title: 'Buy oat milk', status: 'completed' }
    const d = await ask('update_task', args)
    expect(d.summary).toBe(
      'Change task "Buy milk" in list "Groceries": title to "Buy oat milk", mark as done?',
    )
    expect(d.details).toEqual([
      { label: 'Task', value: '"Buy milk"' },
      { label: 'List', value: '"Groceries"' },
      { label: 'Title', value: '"Buy oat milk"', before: '"Buy milk"' },
      { label: 'Status', value: 'done', before: 'not done' },
    ])
    expect(d.ifMatch).toBe(milk.etag)

    // The change goes with If-Match: it is made to the task the person saw, and to no other.
    const done = await run('update_task', args, { 'If-Match': d.ifMatch! })
    expect(done.status).toBe(200)
    const stale = await run(
      'update_task',
      { ...args, title: 'Buy milk' },
      { 'If-Match': d.ifMatch! },
    )
    expect(stale.status).toBe(412)

    const more = await ask('update_task', {
      tasklist: groceries,
      task: milk.id,
      notes: null,
      due: '2026-11-25T00:00:00Z',
      status: 'needsAction',
      completed: '2026-11-24T10:05:00+01:00',
    })
    expect(more.summary).toBe(
      'Change task "Buy oat milk" in list "Groceries": clear the notes, mark as not done, due 25 Nov 2026, done on 24 Nov 2026, 09:05 UTC?',
    )
    expect(detail(more, 'Notes')).toBe('none (was "Two litres")')
    expect(detail(more, 'Due')).toBe('25 Nov 2026 (was 20 Nov 2026)')
    expect(detail(more, 'Done on')).toBe('24 Nov 2026, 09:05 UTC (ignored: the task is not done)')
    expect(more.ifMatch).toBe((await ok('get_task', { tasklist: groceries, task: milk.id })).etag)
    expect(more.ifMatch).not.toBe(milk.etag)

    await ok('delete_task', { tasklist: groceries, task: milk.id })
    const restore = await ask('update_task', { tasklist: groceries, task: milk.id, deleted: false })
    expect(restore.summary).toBe('Change task "Buy oat milk" in list "Groceries": restore it?')
    expect(detail(restore, 'Restore')).toBe('yes, with the subtasks deleted with it')
  })

  it('move_task: under a parent after a sibling, to the top, to another list', async () => {
    const { ask, list, add, run } = await newUser()
    const trip = await list('Trip')
    const home = await list('Home')
    const plan = await add(trip, 'Plan trip')
    const pick = await add(trip, 'Pick dates', { parent: plan.id })
    const pack = await add(trip, 'Pack')

    const under = await ask('move_task', {
      tasklist: trip,
      task: pack.id,
      parent: plan.id,
      previous: pick.id,
    })
    expect(under.summary).toBe(
      'Move task "Pack" in list "Trip" under "Plan trip", after "Pick dates"?',
    )
    expect(under.details).toEqual([
      { label: 'Task', value: '"Pack"' },
      { label: 'List', value: '"Trip"' },
      { label: 'Subtask of', value: '"Plan trip"', before: 'none (top level)' },
      { label: 'Position', value: 'after "Pick dates"' },
    ])
    expect(under.ifMatch).toBe(pack.etag)

    const top = await ask('move_task', { tasklist: trip, task: pick.id })
    expect(top.summary).toBe(
      'Move task "Pick dates" in list "Trip" to the top level, as the first task?',
    )
    const first = await ask('move_task', { tasklist: trip, task: pack.id, parent: plan.id })
    expect(first.summary).toBe(
      'Move task "Pack" in list "Trip" under "Plan trip", as its first subtask?',
    )

    const away = await ask('move_task', {
      tasklist: trip,
      task: pack.id,
      destinationTasklist: home,
    })
    expect(away.summary).toBe('Move task "Pack" from list "Trip" to list "Home"?')
    expect(detail(away, 'List')).toBe('"Home" (was "Trip")')
    expect(detail(away, 'Subtask of')).toBe('none (top level) (unchanged)')
    expect(detail(away, 'Position')).toBe('first in the list')
    const moved = await run(
      'move_task',
      { tasklist: trip, task: pack.id, destinationTasklist: home },
      { 'If-Match': away.ifMatch! },
    )
    expect(moved.status).toBe(200)
  })

  it('delete_task: the task, its list, and what goes with it', async () => {
    const { user, ask, list, add, run } = await newUser()
    const groceries = await list('Groceries')
    const milk = await add(groceries, 'Buy milk', { due: '2026-11-25T00:00:00Z' })
    const d = await ask('delete_task', { tasklist: groceries, task: milk.id })
    expect(d.summary).toBe('Delete task "Buy milk" from list "Groceries"?')
    expect(d.details).toEqual([
      { label: 'Task', value: '"Buy milk"' },
      { label: 'List', value: '"Groceries"' },
      { label: 'Due', value: '25 Nov 2026' },
      { label: 'Status', value: 'not done' },
      { label: 'Subtasks', value: 'deleted with it, if it has any' },
    ])
    expect(d.ifMatch).toBe(milk.etag)
    expect(
      (await run('delete_task', { tasklist: groceries, task: milk.id }, { 'If-Match': d.ifMatch! }))
        .status,
    ).toBe(200)

    const assigned = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
      body: { user, tasklist: groceries, title: 'Review the draft', surfaceType: 'DOCUMENT' },
    })
    const a = await ask('delete_task', { tasklist: groceries, task: assigned.body.id })
    expect(detail(a, 'Also deleted')).toBe('the original in the document it was assigned from')
  })

  it('fails when what it should name cannot be read', async () => {
    const { ask, reader } = await newUser()
    await expect(ask('delete_task', { tasklist: '@default', task: 'nope' })).rejects.toThrow(/404/)
    const liar: ProviderReader = { get: async () => ({ kind: 'tasks#taskList' }) }
    await expect(ask('delete_task', { tasklist: '@default', task: 'x' }, liar)).rejects.toThrow(
      /not one/,
    )
    expect(reader.calls).toContain('/lists/%40default/tasks/nope')
  })
})

describe('describe() keeps hostile titles readable', () => {
  const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u
  const hostile = (n: number) =>
    `<script>alert(1)</script>\nline two\r\n\u0007\u0000\u001b[31m\u202eevil\u2028` + 'x'.repeat(n)

  const expectClean = (d: ChangeDescription) => {
    for (const text of [d.summary, ...d.details.map(detailText)]) {
      expect(text).not.toMatch(CONTROL)
      expect(Array.from(text).length).toBeLessThan(300)
    }
    expect(d.summary).toContain('…')
    // Plain text: the page that shows it escapes it, so `<script>` stays visible as such.
    expect(d.summary).toContain('"<script>alert(1)</script> line two [31mevil xxx')
  }

  it('from the provider (a 1,024-character title with newlines and control characters)', async () => {
    const { ask, list, add } = await newUser()
    const evil = await list(hostile(900))
    const task = await add(evil, hostile(900), { notes: hostile(8000) })
    for (const [name, args] of [
      ['delete_task', { tasklist: evil, task: task.id }],
      ['update_task', { tasklist: evil, task: task.id, title: hostile(900), notes: hostile(5) }],
      ['move_task', { tasklist: evil, task: task.id }],
      ['create_task', { tasklist: evil, title: hostile(900), parent: task.id }],
    ] as const)
      expectClean(await ask(name, args))
  })

  it('from anywhere (10,000 characters)', async () => {
    const { ask } = await newUser()
    const title = hostile(10_000)
    const liar: ProviderReader = {
      get: async (operation) =>
        operation === 'get_task'
          ? { kind: 'tasks#task', id: 't', etag: '"e"', title, status: 'needsAction', updated: '' }
          : { kind: 'tasks#taskList', id: 'l', etag: '"f"', title, updated: '' },
    }
    const d = await ask('delete_task', { tasklist: 'l', task: 't' }, liar)
    expectClean(d)
    expect(d.summary).toMatch(/^Delete task ".{79}…" from list ".{79}…"\?$/u)
    const created = await tool('create_task_list').approval!.describe({ title }, liar)
    expectClean(created)
  })
})

describe('wording', () => {
  it('reads dates, notes and titles as a person does', () => {
    expect(dueDay('2026-05-01T23:30:00-07:00')).toBe('1 May 2026')
    expect(dueDay('2026-11-25T00:00:00.000Z')).toBe('25 Nov 2026')
    expect(moment('2026-11-25T23:30:00-07:00')).toBe('26 Nov 2026, 06:30 UTC')
    expect(notesPreview('One line')).toBe('"One line"')
    expect(notesPreview('\n\nSecond\nThird')).toBe('"Second" (14 characters in all)')
    expect(notesPreview(' \n ')).toBe('blank (3 characters)')
    expect(quoted('')).toBe('(untitled)')
    expect(quoted(' \u202e ')).toBe('(untitled)')
    expect(quoted('a\ud800b')).toBe('"a\ufffdb"')
    expect(quoted('😀'.repeat(100))).toBe(`"${'😀'.repeat(79)}…"`)
  })
})

describe('what an approval costs: the reads each change declares, and no others', () => {
  const declared = (name: string) =>
    tool(name)
      .approval!.reads.map((r) => r.operation)
      .sort()

  it('with every optional argument given, each change reads exactly what it declares', async () => {
    const { ask, list, add, user } = await newUser()
    const home = await list('Home')
    const away = await list('Away')
    const parent = await add(home, 'Parent')
    const child = await add(home, 'Child', { parent: parent.id })
    const target = await add(away, 'Target')
    const sibling = await add(away, 'Sibling', { parent: target.id })
    const cases: [string, Record<string, unknown>][] = [
      ['create_task_list', { title: 'New' }],
      ['create_task', { tasklist: home, title: 'T', parent: parent.id, previous: child.id }],
      ['update_task', { tasklist: home, task: child.id, title: 'Renamed' }],
      [
        'move_task',
        {
          tasklist: home,
          task: child.id,
          destinationTasklist: away,
          parent: target.id,
          previous: sibling.id,
        },
      ],
      ['delete_task', { tasklist: home, task: child.id }],
    ]
    expect(cases.map(([name]) => name).sort()).toEqual(
      TASK_TOOLS.filter((t) => t.approval)
        .map((t) => t.name)
        .sort(),
    )
    for (const [name, args] of cases) {
      const reader = providerReader(sandbox, await sandbox.token(user, ['tasks']))
      await ask(name, args, reader)
      expect(reader.operations.sort(), name).toEqual(declared(name))
    }
  })
})
