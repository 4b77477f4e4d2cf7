import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../../src/services/definition.js'
import { inTableOrder } from '../../src/services/definition.js'
import { toolTable } from '../../src/services/table.js'

/**
 * A definition starts from its row of the tool table; what follows from the row is derived:
 * the service, method, path and scope, the approval's access mode, idempotency and MCP hints.
 */

const describeChange = async () => ({ summary: 'Change?', details: [] })
const output = z.object({})

// prettier-ignore
const TABLE = toolTable('tasks', {
  make:   ['POST /things',           'tasks',          'each time', 'auth-token'],
  put:    ['PUT /things/{thing}',    'tasks',          'each time', 'auth-token'],
  patch:  ['PATCH /things/{thing}',  'tasks',          'each time', 'auth-token'],
  remove: ['DELETE /things/{thing}', 'tasks',          'each time', 'per-call'],
  look:   ['POST /things/search',    'tasks.readonly', 'none (read)'],
})

const change = (row: (typeof TABLE)['make']) =>
  defineTool(row, {
    title: 'A change',
    description: 'Changes a thing.',
    input: { thing: z.string().optional(), name: z.string().optional() },
    query: [],
    output,
    approval: { describe: describeChange, reads: [] },
  })

const look = defineTool(TABLE.look, {
  title: 'A read',
  description: 'Reads things.',
  input: { q: z.string() },
  query: ['q'],
  output,
})

describe('a definition from its row of the tool table', () => {
  it('takes the service, method, path and scope from its row, and its access mode', () => {
    const remove = change(TABLE.remove)
    expect(remove).toMatchObject({
      service: 'tasks',
      name: 'remove',
      method: 'DELETE',
      path: '/things/{thing}',
      scope: 'tasks',
    })
    expect(remove.approval?.mode).toBe('per-call')
    expect(change(TABLE.make).approval?.mode).toBe('auth-token')
  })

  it('a read, whatever its method: read-only and idempotent hints, idempotent, no approval', () => {
    expect(look.method).toBe('POST')
    expect(look.annotations).toEqual({ readOnlyHint: true, idempotentHint: true })
    expect(look.idempotent).toBe(true)
    expect(look.approval).toBeUndefined()
  })

  it.each([
    ['make', false, false],
    ['put', true, false],
    ['patch', true, true],
    ['remove', true, true],
  ] as const)('a change by %s: idempotent %s, destructive %s', (name, idempotent, destructive) => {
    const tool = change(TABLE[name])
    expect(tool.idempotent).toBe(idempotent)
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: destructive,
      idempotentHint: idempotent,
    })
  })

  it('the body is what is neither in the path nor in the query', () => {
    expect(change(TABLE.put).body).toBe('rest')
    expect(look.body).toBe('none')
  })

  it('its input refuses unknown fields by the tool’s name, and runs its check', () => {
    const checked = defineTool(TABLE.look, {
      title: 'A read',
      description: 'Reads things.',
      input: { from: z.number(), to: z.number() },
      check: (args, ctx) => {
        if (args.from > args.to) ctx.addIssue({ code: 'custom', message: 'from is after to' })
      },
      query: [],
      output,
    })
    const messages = (args: unknown) =>
      checked.input.safeParse(args).error?.issues.map((issue) => issue.message)
    expect(messages({ from: 1, to: 2, extra: 1 })).toEqual([
      'look does not take "extra": remove it. It takes "from", "to"',
    ])
    expect(messages({ from: 2, to: 1 })).toEqual(['from is after to'])
    expect(messages({ from: 1, to: 2 })).toBeUndefined()
  })
})

describe('a service’s table', () => {
  it('refuses a scope the service does not have', () => {
    expect(() => toolTable('analytics', { x: ['GET /x', 'tasks', 'none (read)'] })).toThrow(
      'The analytics service has no scope "tasks" (tool x).',
    )
  })

  it('orders the definitions as its rows, each row with exactly one', () => {
    const all = { a: look, b: change(TABLE.make), c: change(TABLE.put) }
    const table = { make: TABLE.make, look: TABLE.look, put: TABLE.put }
    expect(inTableOrder(table, all).map((t) => t.name)).toEqual(['make', 'look', 'put'])
    expect(() => inTableOrder({ ...table, patch: TABLE.patch }, all)).toThrow(
      'The tool patch has a row but no definition.',
    )
    expect(() => inTableOrder({ make: TABLE.make, put: TABLE.put }, all)).toThrow(
      "The tool look is not one row of its service's table.",
    )
    expect(() => inTableOrder(table, { ...all, d: change(TABLE.make) })).toThrow(
      "The tool make is not one row of its service's table.",
    )
  })
})
