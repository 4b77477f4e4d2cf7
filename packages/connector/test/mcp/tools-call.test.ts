import { EVERY_ONE } from '../../src/auth/coverage.js'
import { ProtocolError } from '@modelcontextprotocol/server'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { CallShape } from '../../src/mcp/call.js'
import { GrantRevokedError } from '../../src/mcp/grant-access.js'
import { listedTool, ServiceTools } from '../../src/mcp/tools.js'
import type { ToolDefinition } from '../../src/services/definition.js'
import { GENERIC_PROFILE } from '../../src/services/profiles/generic.js'
import { SEARCH_TOOLS } from '../../src/services/search/index.js'
import { TASK_TOOLS } from '../../src/services/tasks/index.js'
import { deletedTask } from '../../src/services/tasks/resources.js'
import {
  UpstreamApiError,
  UpstreamUnavailableError,
  type ApiCall,
  type ApiResult,
  type UpstreamApiErrorKind,
} from '../../src/upstream/index.js'

/**
 * The tools layer on its own: definitions to upstream calls, answers and failures to tool
 * results, and the rule that a change is not served while its approval cannot be enforced.
 * (Through the real connector and sandbox: tools.test.ts.)
 */

const definition = (name: string) => TASK_TOOLS.find((tool) => tool.name === name)!
const shape = (name: string) => new CallShape(definition(name), GENERIC_PROFILE.operations[name]!)
const log = pino({ level: 'silent' })
const grant = {
  upstreamAccessToken: async () => 'token',
  upstreamTokenAfterUnauthorized: async () => 'token',
  link: { grantId: 'grant-1' },
  coverage: EVERY_ONE,
  coverageNow: async () => EVERY_ONE,
  join: async () => {},
  endForStoreAway: () => {},
}
const caller = { grant }
const task = {
  kind: 'tasks#task',
  id: 't1',
  etag: '"1"',
  title: 'Buy milk',
  status: 'needsAction',
  updated: '2026-11-25T10:00:00.000Z',
}

/** ServiceTools over a provider that answers `answer` (or throws it), recording the calls. */
function toolsAnswering(
  answer: ApiResult | Error,
  definitions: readonly ToolDefinition[] = TASK_TOOLS,
) {
  const calls: ApiCall[] = []
  const tools = new ServiceTools(definitions, {
    api: {
      call: async (call) => {
        calls.push(call)
        if (answer instanceof Error) throw answer
        return answer
      },
    },
    profile: GENERIC_PROFILE,
    log,
    connectionsUrl: 'http://127.0.0.1/connections',
  })
  return { tools, calls }
}

const textOf = (result: object) =>
  ((result as { content: unknown[] }).content[0] as { text: string }).text

describe('arguments to an upstream call', () => {
  it('path parameters fill the path, query fields the query; a read has no body', () => {
    const call = shape('list_tasks').apiCall({
      tasklist: 'a/b c',
      maxResults: 5,
      showHidden: true,
      dueMin: '2026-11-25T00:00:00Z',
    })
    expect(call).toMatchObject({
      service: 'tasks',
      method: 'GET',
      path: '/lists/{tasklist}/tasks',
      pathParams: { tasklist: 'a/b c' },
      idempotent: true,
    })
    expect(call.query).toMatchObject({
      maxResults: 5,
      showHidden: true,
      dueMin: '2026-11-25T00:00:00Z',
    })
    expect(call.body).toBeUndefined()
  })

  it('with body "rest", the other fields given are the body; null clears, undefined is left out', () => {
    const created = shape('create_task').apiCall({
      tasklist: 'L',
      parent: 'P',
      title: 'Buy milk',
      notes: undefined,
    })
    expect(created).toMatchObject({
      method: 'POST',
      pathParams: { tasklist: 'L' },
      query: { parent: 'P' },
      body: { title: 'Buy milk' },
      idempotent: false,
    })
    const updated = shape('update_task').apiCall(
      { tasklist: 'L', task: 'T', notes: null, due: undefined },
      '"7"',
    )
    expect(updated.body).toEqual({ notes: null })
    expect(updated.pathParams).toEqual({ tasklist: 'L', task: 'T' })
    expect(updated.ifMatch).toBe('"7"')
  })

  it('a DELETE answered without a body stands for its path parameters and deleted: true', () => {
    const gone = shape('delete_task').answerOf(
      { status: 204, body: undefined },
      { tasklist: 'L', task: 'T' },
    )
    expect(gone).toEqual({ deleted: true, tasklist: 'L', task: 'T' })
    expect(deletedTask.safeParse(gone).success).toBe(true)
    expect(shape('get_task').answerOf({ status: 200, body: task }, {})).toBe(task)
  })
})

describe('the tools served', () => {
  it('without an approval step a change is not served: not listed, unknown when called', async () => {
    const { tools, calls } = toolsAnswering({ status: 200, body: task })
    const listed = tools.listing.tools.map((tool) => tool.name)
    for (const tool of TASK_TOOLS) expect(listed.includes(tool.name)).toBe(!tool.approval)
    for (const change of TASK_TOOLS.filter((tool) => tool.approval)) {
      expect(tools.scopeOf(change.name)).toBeUndefined()
      const error = await tools
        .call(change.name, { tasklist: 'L', task: 'T', title: 'x' }, caller)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ProtocolError)
      expect((error as ProtocolError).code).toBe(-32602)
    }
    expect(calls).toEqual([])
  })

  it('the listing is built once and shared, frozen', () => {
    const { tools } = toolsAnswering({ status: 200, body: task })
    expect(Object.isFrozen(tools.listing)).toBe(true)
    expect(Object.isFrozen(tools.listing.tools[0]!.inputSchema)).toBe(true)
    expect(tools.scopeOf('get_task')).toBe('tasks.readonly')
  })

  it('a listed tool: schemas from its zod schemas, its hints, and _meta with scope and access mode', () => {
    const change = listedTool(definition('delete_task'))
    expect(change._meta).toEqual({
      'countersign/scope': 'tasks',
      'countersign/accessMode': 'per-call',
    })
    expect(change.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(change.inputSchema).toMatchObject({ type: 'object', required: ['tasklist', 'task'] })
    expect(change.outputSchema).toMatchObject({
      type: 'object',
      required: ['deleted', 'tasklist', 'task'],
    })
    expect(listedTool(definition('update_task'))._meta).toEqual({
      'countersign/scope': 'tasks',
      'countersign/accessMode': 'auth-token',
    })
    expect(listedTool(definition('list_tasks'))._meta).toEqual({
      'countersign/scope': 'tasks.readonly',
    })
  })

  it('success: the resource as structured content and as text', async () => {
    const { tools, calls } = toolsAnswering({ status: 200, body: task })
    const result = await tools.call('get_task', { tasklist: 'L', task: 't1' }, caller)
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(task) }],
      structuredContent: task,
    })
    expect(calls).toHaveLength(1)
  })

  it('an answer that does not fit the output schema is an error result, not a crash', async () => {
    for (const body of [undefined, { kind: 'tasks#task' }, [task], 'text']) {
      const { tools } = toolsAnswering({ status: 200, body })
      const result = await tools.call('get_task', { tasklist: 'L', task: 't1' }, caller)
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/not what the connector expects/)
    }
  })

  const QUERY = {
    siteUrl: 'https://www.example.com/',
    startDate: '2026-10-01',
    endDate: '2026-10-28',
    dimensions: ['query', 'page'],
    rowLimit: 2,
  }
  const row = (query: string, page: string) => ({
    keys: [query, page],
    clicks: 12,
    impressions: 340,
    ctr: 12 / 340,
    position: 4.26,
  })

  it('a table tool: the provider’s answer becomes a table, and its text is the table’s JSON', async () => {
    const body = {
      rows: [row('shoes', 'https://www.example.com/shoes/'), row('boots', 'https://shop.example/')],
      responseAggregationType: 'byPage',
    }
    const { tools, calls } = toolsAnswering({ status: 200, body }, SEARCH_TOOLS)
    const result = await tools.call('query_search_analytics', QUERY, caller)
    const table = {
      dimensions: ['query', 'page'],
      metrics: [
        { name: 'clicks', type: 'integer' },
        { name: 'impressions', type: 'integer' },
        { name: 'ctr', type: 'float' },
        { name: 'position', type: 'float' },
      ],
      pageOrigin: 'https://www.example.com',
      responseAggregationType: 'byPage',
      nextStartRow: 2,
      rows: [
        ['shoes', '/shoes/', 12, 340, 0.0353, 4.3],
        ['boots', 'https://shop.example/', 12, 340, 0.0353, 4.3],
      ],
    }
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(table) }],
      structuredContent: table,
    })
    expect(calls[0]!.body).toMatchObject({ rowLimit: 2 })
  })

  it('a table tool: an answer it cannot read is refused whole, never half a table', async () => {
    const bad = { ...row('shoes', 'https://www.example.com/'), clicks: '12' }
    for (const body of [{ rows: [bad] }, { rows: {} }, { rows: [{ keys: [1] }] }, []]) {
      const { tools } = toolsAnswering({ status: 200, body }, SEARCH_TOOLS)
      const result = await tools.call('query_search_analytics', QUERY, caller)
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      expect(textOf(result)).toMatch(/not what the connector expects/)
    }
  })

  it('a read sent as a POST with an answer that does not fit is not said to have changed anything', async () => {
    const { tools } = toolsAnswering({ status: 200, body: 'text' }, SEARCH_TOOLS)
    const result = await tools.call(
      'inspect_url',
      { siteUrl: 'https://www.example.com/', inspectionUrl: 'https://www.example.com/a' },
      caller,
    )
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/nothing is wrong with the arguments/)
    expect(textOf(result)).not.toMatch(/carried out the change/)
  })
})

describe('failures as tool results', () => {
  const cases: [UpstreamApiErrorKind, Record<string, unknown>, RegExp][] = [
    [
      'invalid',
      { providerMessage: 'Invalid value for maxResults' },
      /invalid\. The provider says: Invalid value for maxResults\./,
    ],
    [
      'failed_precondition',
      { providerMessage: 'Limit reached.' },
      /rules does not allow this\. The provider says: Limit reached\./,
    ],
    ['not_found', { providerMessage: 'Task not found' }, /^Not found.*Check tasklist and task/],
    ['permission', {}, /refused access/],
    ['conflict', {}, /changed since it was read/],
    ['rate_limited', { retryAfterSeconds: 7 }, /busy.*retry in 7 seconds/],
    ['rate_limited', {}, /retry in \d+ seconds/],
    ['unavailable', { retryAfterSeconds: 12 }, /unavailable right now; retry in 12 seconds/],
    [
      'outcome_unknown',
      {},
      /may or may not have been made.*check with a read before trying again/i,
    ],
    ['malformed', {}, /does not understand/],
  ]
  it.each(cases)('%s %j', async (kind, details, says) => {
    const error = new UpstreamApiError(
      kind,
      'The provider gave an answer the connector does not understand (HTTP 418).',
      details,
    )
    const { tools } = toolsAnswering(error)
    const result = await tools.call('get_task', { tasklist: 'L', task: 'T' }, caller)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(says)
  })

  it('the grant’s failures: revoked (the endpoint answers 401 instead), unavailable refresh', async () => {
    const revoked = toolsAnswering(new GrantRevokedError('connect the service again'))
    expect(
      textOf(await revoked.tools.call('get_task', { tasklist: 'L', task: 'T' }, caller)),
    ).toMatch(/connect the service again/)
    const busy = toolsAnswering(new UpstreamUnavailableError('token endpoint 503', 3))
    expect(textOf(await busy.tools.call('get_task', { tasklist: 'L', task: 'T' }, caller))).toMatch(
      /retry in 3 seconds/,
    )
  })

  it('anything else: an error result that gives nothing away', async () => {
    const { tools } = toolsAnswering(new TypeError('secret internals'))
    const result = await tools.call('get_task', { tasklist: 'L', task: 'T' }, caller)
    expect(result.isError).toBe(true)
    expect(textOf(result)).not.toMatch(/secret/)
  })
})
