import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TASK_TOOLS } from '../../../src/services/tasks/index.js'
import { timestamp } from '../../../src/services/tasks/inputs.js'
import { toolJsonSchema } from '../../../src/services/json-schema.js'
import { sandboxForSuite } from '@countersign/sandbox/testing'
import { upstreamRequest } from '../tool-calls.js'

const sandbox = sandboxForSuite()
const tool = (name: string) => TASK_TOOLS.find((t) => t.name === name)!

/** The messages a tool's input schema gives for `args`, each with the field it is about. */
function refusal(name: string, args: Record<string, unknown>) {
  const result = tool(name).input.safeParse(args)
  if (result.success) throw new Error(`${name} accepted ${JSON.stringify(args).slice(0, 200)}`)
  return result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }))
}

/** The one message a refusal gives: it names `field` and says what to change. */
function expectRefused(name: string, args: Record<string, unknown>, field: string, fix: RegExp) {
  const issues = refusal(name, args)
  expect(issues, JSON.stringify(issues)).toHaveLength(1)
  expect(issues[0]!.message).toContain(field)
  expect(issues[0]!.message).toMatch(fix)
  return issues[0]!
}

const long = (n: number, unit = 'a') => unit.repeat(n)

describe('task tool inputs', () => {
  it.each([
    ['create_task', { tasklist: '@default', title: 'Call Ann' }],
    [
      'create_task',
      {
        tasklist: 'abc',
        parent: 'p',
        previous: 'q',
        title: long(1024),
        notes: long(8192),
        status: 'completed',
        due: '2026-11-25t10:00:00.123456789+05:30',
      },
    ],
    ['create_task', { tasklist: 'l', title: long(1024, '😀') }],
    ['create_task_list', { title: 'Garden' }],
    ['delete_task', { tasklist: 'l', task: 't' }],
    ['get_task', { tasklist: '@default', task: 't' }],
    ['list_task_lists', {}],
    ['list_task_lists', { maxResults: 1000, pageToken: 'abc' }],
    [
      'list_tasks',
      {
        tasklist: 'l',
        maxResults: 100,
        dueMin: '2026-01-01T00:00:00Z',
        dueMax: '2026-12-31T23:59:59.999Z',
        completedMin: '2026-01-01T00:00:00-08:00',
        completedMax: '2026-01-01T00:00:00+14:00',
        updatedMin: '2024-02-29T00:00:00Z',
        showCompleted: false,
        showHidden: true,
        showDeleted: true,
        showAssigned: true,
      },
    ],
    ['move_task', { tasklist: 'l', task: 't' }],
    [
      'move_task',
      { tasklist: 'l', task: 't', destinationTasklist: 'm', previous: 'p', parent: 'q' },
    ],
    ['update_task', { tasklist: 'l', task: 't', status: 'completed' }],
    ['update_task', { tasklist: 'l', task: 't', notes: null, due: null }],
    [
      'update_task',
      {
        tasklist: 'l',
        task: 't',
        title: 'x',
        notes: '',
        due: '2026-11-25T00:00:00Z',
        completed: '2026-11-25T09:00:00Z',
        deleted: false,
      },
    ],
  ])('%s accepts valid flat input (case %#)', (name, args) => {
    const result = tool(name).input.safeParse(args)
    expect(result.success, result.error?.message).toBe(true)
    expect(result.data).toEqual(args)
  })

  it('refuse titles and notes over the task service’s limits, saying by how much', () => {
    expectRefused(
      'create_task',
      { tasklist: 'l', title: long(1025) },
      'title',
      /at most 1024 characters; it has 1025: shorten it/,
    )
    expectRefused('create_task_list', { title: long(1025) }, 'title', /shorten it/)
    expectRefused(
      'update_task',
      { tasklist: 'l', task: 't', title: long(1025) },
      'title',
      /shorten/,
    )
    expectRefused('create_task', { tasklist: 'l', title: long(1025, '😀') }, 'title', /it has 1025/)
    expectRefused(
      'create_task',
      { tasklist: 'l', title: 'x', notes: long(8193) },
      'notes',
      /at most 8192 characters; it has 8193/,
    )
    expectRefused('create_task', { tasklist: 'l', title: '' }, 'title', /must not be empty/)
    expectRefused('create_task_list', { title: '' }, 'title', /must not be empty/)
    expectRefused(
      'create_task',
      { tasklist: 'l' },
      'title',
      /title is required: give the task title/,
    )
  })

  it('refuse page sizes out of range, not clamping them', () => {
    expectRefused('list_tasks', { tasklist: 'l', maxResults: 0 }, 'maxResults', /at least 1/)
    expectRefused(
      'list_tasks',
      { tasklist: 'l', maxResults: 101 },
      'maxResults',
      /at most 100: ask for 100 or fewer/,
    )
    expectRefused(
      'list_tasks',
      { tasklist: 'l', maxResults: 2.5 },
      'maxResults',
      /whole number from 1 to 100/,
    )
    expectRefused('list_tasks', { tasklist: 'l', maxResults: '20' }, 'maxResults', /whole number/)
    expectRefused('list_task_lists', { maxResults: 0 }, 'maxResults', /at least 1/)
    expectRefused('list_task_lists', { maxResults: 1001 }, 'maxResults', /at most 1000/)
    expectRefused(
      'list_task_lists',
      { pageToken: '' },
      'pageToken',
      /leave it out for the first page/,
    )
  })

  it('what the listing states, the inputs hold to: Google’s timestamps, a change, ids in characters', () => {
    // JSON Schema's date-time admits these; Google's timestamps do not, as the tools say.
    for (const tool of ['create_task', 'list_tasks', 'update_task'])
      expect(TASK_TOOLS.find((t) => t.name === tool)!.description).toContain(
        'years 1 to 9999, no leap second, at most 9 decimals',
      )
    for (const due of [
      '0000-06-01T00:00:00Z',
      '2026-06-30T23:59:60Z',
      '2026-11-25T00:00:00.1234567891Z',
    ])
      expectRefused('create_task', { tasklist: 'l', title: 'x', due }, 'due', /years 1 to 9999/)
    // update_task: tasklist and task and at least one change, which the listing says.
    expect(toolJsonSchema(tool('update_task').input, 'input')).toMatchObject({ minProperties: 3 })
    expectRefused('update_task', { tasklist: 'l', task: 't' }, 'update_task', /something to change/)
    expect(
      tool('update_task').input.safeParse({ tasklist: 'l', task: 't', notes: null }).success,
    ).toBe(true)
    // 256 characters, as maxLength counts them, whatever their UTF-16 length.
    expect(
      tool('get_task').input.safeParse({ tasklist: '😀'.repeat(256), task: 't' }).success,
    ).toBe(true)
    expectRefused('get_task', { tasklist: '😀'.repeat(257), task: 't' }, 'tasklist', /at most 256/)
  })

  it('refuse what is not an RFC 3339 timestamp with a real date, showing an example', () => {
    for (const bad of [
      'tomorrow',
      '2026-11-25',
      '2026-11-25T10:00:00',
      '2026-02-29T00:00:00Z',
      '2026-11-25T24:00:00Z',
      '2026-11-25T10:00:00+0100',
      '0001-01-01T00:00:00+01:00',
    ]) {
      const issue = expectRefused(
        'create_task',
        { tasklist: 'l', title: 'x', due: bad },
        'due',
        /RFC 3339 timestamp .* such as 2026-11-25T00:00:00.000Z/,
      )
      expect(issue.path).toBe('due')
    }
    expectRefused(
      'list_tasks',
      { tasklist: 'l', updatedMin: 'yesterday' },
      'updatedMin',
      /RFC 3339/,
    )
    expectRefused(
      'update_task',
      { tasklist: 'l', task: 't', completed: 5 },
      'completed',
      /must be a string/,
    )
  })

  it('refuse unknown and read-only fields by name, listing the fields the tool takes', () => {
    const issue = expectRefused(
      'update_task',
      { tasklist: 'l', task: 't', title: 'x', position: '1', kind: 'k' },
      'update_task',
      /"position", "kind": remove them/,
    )
    expect(issue.message).toContain('It takes "tasklist", "task", "title"')
    expectRefused(
      'list_tasks',
      { tasklist: 'l', showCompletd: true },
      '"showCompletd"',
      /remove it/,
    )
    expectRefused('create_task_list', { title: 'x', id: 'y' }, '"id"', /remove it/)
    expectRefused(
      'move_task',
      { tasklist: 'l', task: 't', destination: 'm' },
      '"destination"',
      /It takes .*"destinationTasklist"/,
    )
  })

  it('refuse other mistakes with what to do instead', () => {
    expectRefused(
      'update_task',
      { tasklist: 'l', task: 't' },
      'update_task',
      /give at least one of title, notes/,
    )
    expectRefused(
      'update_task',
      { tasklist: 'l', task: 't', deleted: true },
      'deleted',
      /call delete_task/,
    )
    expectRefused(
      'update_task',
      { tasklist: 'l', task: 't', status: 'done' },
      'status',
      /"needsAction" \(not done\) or "completed" \(done\)/,
    )
    expectRefused('get_task', { tasklist: '..', task: 't' }, 'tasklist', /cannot be "\." or "\.\."/)
    expectRefused(
      'delete_task',
      { tasklist: 'l', task: '' },
      'task',
      /give a task id from list_tasks/,
    )
    expectRefused(
      'move_task',
      { tasklist: 'l', task: 't', parent: 'a\nb' },
      'parent',
      /control characters/,
    )
    expectRefused('list_tasks', { tasklist: 'l', showHidden: 'yes' }, 'showHidden', /true or false/)
    expectRefused(
      'get_task',
      { task: 't' },
      'tasklist',
      /tasklist is required: give a task list id/,
    )
    expect(refusal('get_task', 'nope' as any)[0]!.message).toMatch(
      /must be an object with "tasklist", "task"/,
    )
  })
})

/** Two digits from `min` to `max`. */
const two = (min: number, max: number) =>
  fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'))

/** An RFC 3339 timestamp built from parts in the given ranges, with any spelling of T and Z. */
const timestampFrom = (r: {
  year: [number, number]
  month: number
  day: number
  hour: number
  minute: number
  wild: boolean
}) =>
  fc
    .tuple(
      fc.integer({ min: r.year[0], max: r.year[1] }).map((n) => String(n).padStart(4, '0')),
      two(r.month === 12 ? 1 : 0, r.month),
      two(r.day === 28 ? 1 : 0, r.day),
      r.wild ? fc.constantFrom('T', 't', ' ') : fc.constantFrom('T', 't'),
      two(0, r.hour),
      two(0, r.minute),
      two(0, r.minute),
      fc.option(fc.stringMatching(/^\.\d{1,11}$/), { nil: '' }),
      fc.oneof(
        r.wild ? fc.constantFrom('Z', 'z', '', '+00:00') : fc.constantFrom('Z', 'z', '-00:00'),
        fc
          .tuple(fc.constantFrom('+', '-'), two(0, r.hour), two(0, r.minute))
          .map(([s, h, m]) => `${s}${h}:${m}`),
      ),
    )
    .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`)

/** Mostly well-formed timestamps, near the edges of the calendar and of the years. */
const plausibleTimestamp = timestampFrom({
  year: [1, 9999],
  month: 12,
  day: 28,
  hour: 23,
  minute: 59,
  wild: false,
})

/** Timestamps as a fuzzer writes them: RFC 3339-shaped, often with one part wrong. */
const timestampText = fc.oneof(
  { weight: 3, arbitrary: plausibleTimestamp },
  {
    weight: 3,
    arbitrary: timestampFrom({
      year: [0, 9999],
      month: 13,
      day: 32,
      hour: 24,
      minute: 60,
      wild: true,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0001-01-01T00:00:00+00:01',
      '9999-12-31T23:59:59-00:01',
      '2024-02-29T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
)

const text = (max: number) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: max - 3, maxLength: max + 3 }),
    fc.string({
      unit: fc.constantFrom('😀', 'é', '\n', '<', 'a'),
      minLength: max - 2,
      maxLength: max + 2,
    }),
  )

describe('what the inputs accept, the sandbox accepts', () => {
  it('create_task: any accepted input, sent as the tool sends it, is no invalid argument', async () => {
    const token = await sandbox.token('fuzz-create', ['tasks'])
    const request = (method: string, path: string, body?: unknown) =>
      sandbox.request(method, `/tasks/v1${path}`, { token, ...(body !== undefined && { body }) })
    const list = (await request('POST', '/lists', { title: 'Fuzz' })).body.id as string
    const anchor = (await request('POST', `/lists/${list}/tasks`, { title: 'anchor' })).body
      .id as string
    // Half the time no parent or previous; else mostly the anchor task, or any text (a 404 at
    // worst). Weighted so that most calls can succeed: the count of creates below is then far
    // from its bound whatever the run's random inputs.
    const id = fc.option(
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(anchor) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
      { nil: undefined, freq: 2 },
    )
    let sent = 0
    let created = 0
    const statuses: string[] = []

    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            tasklist: fc.constantFrom(list, list, list, '@default'),
            parent: id,
            previous: id,
            title: text(1024),
            notes: fc.option(text(8192), { nil: undefined }),
            status: fc.option(fc.constantFrom('needsAction', 'completed', 'done'), {
              nil: undefined,
            }),
            due: fc.option(timestampText, { nil: undefined }),
          },
          { requiredKeys: ['tasklist', 'title'] },
        ),
        async (raw) => {
          const args = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined))
          const parsed = tool('create_task').input.safeParse(args)
          if (!parsed.success) return
          sent++
          const call = upstreamRequest(tool('create_task'), parsed.data)
          const res = await request(call.method, call.path, call.body)
          expect(res.body?.error?.status, `${res.status} ${res.text.slice(0, 300)}`).not.toBe(
            'INVALID_ARGUMENT',
          )
          statuses.push(`${res.status} ${res.text.slice(0, 120)}`)
          if (res.status === 200) {
            created++
            expect(tool('create_task').output.safeParse(res.body).success).toBe(true)
          }
        },
      ),
      // About 30% of these inputs pass the schema. Sampled 200 times, 150 runs sent as few as 29
      // (the bound below is 30); 300 runs sent at least 64.
      { numRuns: 300 },
    )
    expect(sent).toBeGreaterThan(30)
    expect(created, statuses.join('\n')).toBeGreaterThan(10)
  })

  it('list_tasks: any accepted filters are no invalid argument', async () => {
    const token = await sandbox.token('fuzz-list', ['tasks.readonly'])
    const bound = fc.oneof(
      { weight: 6, arbitrary: plausibleTimestamp },
      { weight: 1, arbitrary: timestampText },
    )
    let sent = 0
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            tasklist: fc.constant('@default'),
            maxResults: fc.integer({ min: -5, max: 105 }),
            dueMin: bound,
            dueMax: bound,
            completedMin: bound,
            completedMax: bound,
            updatedMin: bound,
            showCompleted: fc.boolean(),
            showHidden: fc.boolean(),
            showDeleted: fc.boolean(),
            showAssigned: fc.boolean(),
          },
          { requiredKeys: ['tasklist'] },
        ),
        async (args) => {
          const parsed = tool('list_tasks').input.safeParse(args)
          if (!parsed.success) return
          sent++
          const call = upstreamRequest(tool('list_tasks'), parsed.data)
          const res = await sandbox.request(call.method, `/tasks/v1${call.path}`, { token })
          expect(res.status, res.text.slice(0, 300)).toBe(200)
        },
      ),
      // About a quarter of the records pass the schema (19 of 100 in one run): 200 of them keep
      // the count of calls sent well above 20.
      { numRuns: 200 },
    )
    expect(sent).toBeGreaterThan(20)
  })

  it('timestamps: the connector and the sandbox draw the same line', async () => {
    const token = await sandbox.token('fuzz-due', ['tasks'])
    const schema = timestamp('due')
    const seen = { accepted: 0, refused: 0 }
    await fc.assert(
      fc.asyncProperty(timestampText, async (due) => {
        const res = await sandbox.request('POST', '/tasks/v1/lists/@default/tasks', {
          token,
          body: { title: 'x', due },
        })
        const accepted = schema.safeParse(due).success
        seen[accepted ? 'accepted' : 'refused']++
        expect(accepted, `${due}: ${res.status} ${res.text.slice(0, 200)}`).toBe(res.status === 200)
      }),
      { numRuns: 200 },
    )
    expect(seen.accepted).toBeGreaterThan(40)
    expect(seen.refused).toBeGreaterThan(40)
  })
})
