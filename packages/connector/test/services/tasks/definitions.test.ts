import { describe, expect, it } from 'vitest'
import { pathParamsOf } from '../../../src/services/definition.js'
import { toolJsonSchema } from '../../../src/services/json-schema.js'
import { TASK_TOOLS } from '../../../src/services/tasks/index.js'

/** The tool table for the task service, in its order, with its scopes. */
const SEED = [
  ['create_task', 'POST', '/lists/{tasklist}/tasks', 'tasks', 'auth-token'],
  ['create_task_list', 'POST', '/lists', 'tasks', 'auth-token'],
  ['delete_task', 'DELETE', '/lists/{tasklist}/tasks/{task}', 'tasks', 'per-call'],
  ['get_task', 'GET', '/lists/{tasklist}/tasks/{task}', 'tasks.readonly', undefined],
  ['list_task_lists', 'GET', '/lists', 'tasks.readonly', undefined],
  ['list_tasks', 'GET', '/lists/{tasklist}/tasks', 'tasks.readonly', undefined],
  ['move_task', 'POST', '/lists/{tasklist}/tasks/{task}/move', 'tasks', 'auth-token'],
  ['update_task', 'PATCH', '/lists/{tasklist}/tasks/{task}', 'tasks', 'auth-token'],
] as const

/** The provider's endpoint parameters and writable body fields, tool by tool. */
const FIELDS: Record<string, { query: string[]; body: string[]; required: string[] }> = {
  create_task: {
    query: ['parent', 'previous'],
    body: ['title', 'notes', 'status', 'due'],
    required: ['tasklist', 'title'],
  },
  create_task_list: { query: [], body: ['title'], required: ['title'] },
  delete_task: { query: [], body: [], required: ['tasklist', 'task'] },
  get_task: { query: [], body: [], required: ['tasklist', 'task'] },
  list_task_lists: { query: ['maxResults', 'pageToken'], body: [], required: [] },
  list_tasks: {
    query: [
      'maxResults',
      'pageToken',
      'dueMin',
      'dueMax',
      'completedMin',
      'completedMax',
      'updatedMin',
      'showCompleted',
      'showHidden',
      'showDeleted',
      'showAssigned',
    ],
    body: [],
    required: ['tasklist'],
  },
  move_task: {
    query: ['destinationTasklist', 'previous', 'parent'],
    body: [],
    required: ['tasklist', 'task'],
  },
  update_task: {
    query: [],
    body: ['title', 'notes', 'status', 'due', 'completed', 'deleted'],
    required: ['tasklist', 'task'],
  },
}

const READ_ONLY_FIELDS = [
  'id',
  'etag',
  'kind',
  'updated',
  'selfLink',
  'webViewLink',
  'position',
  'hidden',
  'links',
  'assignmentInfo',
]

const byName = (name: string) => TASK_TOOLS.find((tool) => tool.name === name)!

describe('task tool definitions', () => {
  it('are exactly the tool table’s eight tools, in its order, with its methods and paths', () => {
    expect(TASK_TOOLS.map((t) => [t.name, t.method, t.path])).toEqual(
      SEED.map(([name, method, path]) => [name, method, path]),
    )
    for (const tool of TASK_TOOLS) expect(tool.service).toBe('tasks')
  })

  it.each(SEED)(
    '%s: scope, approval and hints as the tool table says',
    (name, _m, _p, scope, mode) => {
      const tool = byName(name)
      expect(tool.scope).toBe(scope)
      expect(tool.approval?.mode).toBe(mode)
      const read = mode === undefined
      expect(tool.annotations.readOnlyHint).toBe(read)
      // update_task overwrites and clears what the person wrote: not only additive.
      expect(tool.annotations.destructiveHint ?? false).toBe(
        name === 'delete_task' || name === 'update_task',
      )
      const idempotent = read || name === 'update_task' || name === 'delete_task'
      expect(tool.idempotent).toBe(idempotent)
      expect(tool.annotations.idempotentHint).toBe(idempotent)
      if (!read) expect(typeof tool.approval?.describe).toBe('function')
    },
  )

  it.each(SEED)('%s: every path parameter and query entry is an input field', (name) => {
    const tool = byName(name)
    const fields = Object.keys(tool.input.shape)
    const inPath = pathParamsOf(tool.path)
    for (const param of [...inPath, ...tool.query]) expect(fields).toContain(param)
    expect(inPath.filter((p) => tool.query.includes(p))).toEqual([])
    expect([...tool.query].sort()).toEqual([...FIELDS[name]!.query].sort())
    // What is neither in the path nor in the query is the body: exactly the provider's writable
    // fields.
    const rest = fields.filter((f) => !inPath.includes(f) && !tool.query.includes(f))
    expect(rest.sort()).toEqual([...FIELDS[name]!.body].sort())
    expect(tool.body).toBe(FIELDS[name]!.body.length ? 'rest' : 'none')
    for (const field of READ_ONLY_FIELDS) expect(fields).not.toContain(field)
  })

  it.each(SEED)('%s: its schemas convert to JSON Schema a model can read', (name) => {
    const tool = byName(name)
    const input = toolJsonSchema(tool.input, 'input') as any
    expect(input.type).toBe('object')
    expect(input.additionalProperties).toBe(false)
    expect((input.required ?? []).sort()).toEqual([...FIELDS[name]!.required].sort())
    for (const [field, schema] of Object.entries<any>(input.properties))
      expect(schema.description, `${name}.${field}`).toMatch(/\w/)
    const output = toolJsonSchema(tool.output, 'output')
    expect(output.type).toBe('object')
    expect(tool.description.length).toBeLessThan(1000)
    expect(tool.title).toMatch(/^[A-Z]/)
  })

  it('the descriptions carry the provider’s rules a model needs', () => {
    const text = (name: string) => byName(name).description
    expect(text('create_task')).toMatch(/not a deadline/)
    expect(text('create_task')).toMatch(/time of day is dropped/)
    expect(text('create_task')).toMatch(/omit it for a top-level task/)
    expect(text('create_task')).toMatch(/first among its siblings/)
    expect(text('update_task')).toMatch(/time of day is dropped/)
    expect(text('update_task')).toMatch(/use delete_task/)
    expect(text('list_tasks')).toMatch(/showHidden/)
    expect(text('list_tasks')).toMatch(/showAssigned/)
    expect(text('list_tasks')).toMatch(/nextPageToken.*pageToken/)
    expect(text('list_task_lists')).toMatch(/nextPageToken.*pageToken/)
    expect(text('list_task_lists')).toMatch(/@default/)
    expect(text('move_task')).toMatch(/omit for the first position/)
    expect(text('move_task')).toMatch(/recurring tasks cannot move to another list/)
    expect(text('move_task')).toMatch(/completed and hidden task can only go first/)
    expect(text('move_task')).toMatch(/Assigned and repeating tasks cannot be parents/)
    expect(text('delete_task')).toMatch(/subtasks are deleted/)
    expect(text('delete_task')).toMatch(/also deletes the original/)
    for (const tool of TASK_TOOLS.filter((t) => t.approval))
      expect(tool.description, tool.name).toMatch(/only after they approve/)
  })
})
