import { describe, expect, it } from 'vitest'
import type { ToolDefinition } from '../../../src/services/definition.js'
import { TASK_TOOLS } from '../../../src/services/tasks/index.js'
import { deletedTask, task, taskList } from '../../../src/services/tasks/resources.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { callTool } from '../tool-calls.js'

/** Every output schema against what the real sandbox returns, over HTTP. */

const sandbox = sandboxForSuite()
const tool = (name: string) => TASK_TOOLS.find((t) => t.name === name)!
let users = 0

async function newUser() {
  const user = `outputs${++users}`
  const token = await sandbox.token(user, ['tasks'])
  /** Calls the tool, asserts 200, and checks the answer against the tool's output schema. */
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await callTool(sandbox, token, tool(name), args)
    expect(res.status, res.text).toBe(200)
    return res.body
  }
  const checked = async (name: string, args: Record<string, unknown>) => {
    const body = await call(name, args)
    const parsed = tool(name).output.safeParse(body)
    if (!parsed.success) throw new Error(`${name} output refused: ${parsed.error.message}`)
    return parsed.data as any
  }
  return { user, token, call, checked }
}

describe('task output schemas accept what the sandbox returns', () => {
  it('lists: create_task_list, list_task_lists with a page token', async () => {
    const { checked } = await newUser()
    const list = await checked('create_task_list', { title: 'Groceries' })
    expect(list).toMatchObject({ kind: 'tasks#taskList', title: 'Groceries' })
    const first = await checked('list_task_lists', { maxResults: 1 })
    expect(first.items).toHaveLength(1)
    expect(first.nextPageToken).toEqual(expect.any(String))
    const second = await checked('list_task_lists', { pageToken: first.nextPageToken })
    expect(second.items.map((l: any) => l.title)).toContain('Groceries')
  })

  it('tasks: create with due, notes and parent; get; list with a page token', async () => {
    const { checked } = await newUser()
    const list = (await checked('create_task_list', { title: 'Trip' })).id
    const plan = await checked('create_task', {
      tasklist: list,
      title: 'Plan trip',
      notes: 'Dates\nand places',
      due: '2026-11-25T18:30:00-08:00',
    })
    expect(plan.due).toBe('2026-11-25T00:00:00.000Z')
    const pick = await checked('create_task', {
      tasklist: list,
      title: 'Pick dates',
      parent: plan.id,
      status: 'completed',
    })
    expect(pick).toMatchObject({ parent: plan.id, status: 'completed' })
    expect(pick.completed).toEqual(expect.any(String))
    await checked('create_task', {
      tasklist: list,
      title: 'Book',
      parent: plan.id,
      previous: pick.id,
    })
    expect(await checked('get_task', { tasklist: list, task: plan.id })).toMatchObject({
      title: 'Plan trip',
      notes: 'Dates\nand places',
      links: [],
    })
    const page = await checked('list_tasks', { tasklist: list, maxResults: 1 })
    expect(page).toMatchObject({ kind: 'tasks#tasks', items: [{ title: 'Plan trip' }] })
    const rest = await checked('list_tasks', {
      tasklist: list,
      pageToken: page.nextPageToken,
      dueMin: '2000-01-01T00:00:00Z',
      showCompleted: true,
      showHidden: true,
    })
    expect(rest.nextPageToken).toBeUndefined()
    const empty = await checked('list_tasks', { tasklist: list, dueMin: '2099-01-01T00:00:00Z' })
    expect(empty.items ?? []).toEqual([])
  })

  it('assigned tasks, from a document and from a chat space', async () => {
    const { user, checked } = await newUser()
    for (const surfaceType of ['DOCUMENT', 'SPACE']) {
      const res = await sandbox.request('POST', '/_sandbox/assigned-tasks', {
        body: { user, tasklist: '@default', title: `From a ${surfaceType}`, surfaceType },
      })
      expect(res.status).toBe(200)
      expect(task.safeParse(res.body).success).toBe(true)
    }
    const page = await checked('list_tasks', { tasklist: '@default', showAssigned: true })
    expect(page.items).toHaveLength(2)
    const [space, doc] = page.items
    expect(doc.assignmentInfo).toMatchObject({
      surfaceType: 'DOCUMENT',
      driveResourceInfo: { driveFileId: expect.any(String) },
    })
    expect(space.assignmentInfo.spaceInfo.space).toMatch(/^spaces\//)
    expect(await checked('get_task', { tasklist: '@default', task: doc.id })).toMatchObject({
      assignmentInfo: { linkToTask: expect.any(String) },
    })
  })

  it('changes: update_task, move_task, and delete_task with no body', async () => {
    const { call, checked } = await newUser()
    const home = (await checked('create_task_list', { title: 'Home' })).id
    const a = await checked('create_task', { tasklist: '@default', title: 'A' })
    const b = await checked('create_task', { tasklist: '@default', title: 'B' })
    const updated = await checked('update_task', {
      tasklist: '@default',
      task: a.id,
      title: 'A2',
      status: 'completed',
      due: '2026-01-02T00:00:00Z',
      notes: null,
    })
    expect(updated).toMatchObject({
      title: 'A2',
      status: 'completed',
      due: '2026-01-02T00:00:00.000Z',
    })
    const moved = await checked('move_task', { tasklist: '@default', task: a.id, parent: b.id })
    expect(moved.parent).toBe(b.id)
    const away = await checked('move_task', {
      tasklist: '@default',
      task: b.id,
      destinationTasklist: home,
    })
    expect(away.selfLink).toContain(home)

    const outsider = await sandbox.token(`outsider${++users}`, ['tasks'])
    const res = await callTool(sandbox, outsider, tool('delete_task'), {
      tasklist: home,
      task: b.id,
    })
    expect(res.status).toBe(404) // another person's list is unknown to them
    const gone = await call('delete_task', { tasklist: home, task: b.id })
    expect(gone).toBeUndefined()
    // What a body-less DELETE yields (resources.ts): its path parameters and deleted: true.
    expect(deletedTask.safeParse({ deleted: true, tasklist: home, task: b.id }).success).toBe(true)
    const read = await checked('get_task', { tasklist: home, task: b.id })
    expect(read.deleted).toBe(true)
    const restored = await checked('update_task', { tasklist: home, task: b.id, deleted: false })
    expect(restored.deleted).toBe(false)
  })

  it('refuse clearly wrong shapes', () => {
    const good = {
      kind: 'tasks#task',
      id: 'x',
      etag: '"e"',
      title: 'T',
      status: 'needsAction',
      updated: '2026-01-01T00:00:00.000Z',
    }
    const refused = (schema: ToolDefinition['output'], value: unknown) =>
      expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false)
    expect(task.safeParse({ ...good, somethingNew: { a: 1 } }).success).toBe(true)
    refused(task, { ...good, id: undefined })
    refused(task, { ...good, kind: 'tasks#taskList' })
    refused(task, { ...good, status: 'done' })
    refused(task, { ...good, links: 'none' })
    refused(task, 'a task')
    refused(taskList, good)
    refused(tool('list_tasks').output, { kind: 'tasks#tasks', etag: '"p"', items: {} })
    refused(tool('list_tasks').output, { kind: 'tasks#tasks', etag: '"p"', items: [{ id: 1 }] })
    refused(tool('list_task_lists').output, { kind: 'tasks#tasks', etag: '"p"', items: [] })
    refused(tool('delete_task').output, { deleted: false, tasklist: 'l', task: 't' })
    refused(tool('delete_task').output, {})
  })
})
