import type { CallToolResult } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { ERAS } from '../support/mcp-client.js'
import { TASK_TOOLS } from '../../src/services/tasks/index.js'
import { MAX_RETRIES } from '../../src/upstream/api/policy.js'
import { connectorForSuite } from '../support/connector.js'
import { serviceTools } from '../support/service-tools.js'
import { taskFixtures } from './fixtures.js'

/**
 * The task tools through the real connector and sandbox, with the MCP SDK's own client
 * (Streamable HTTP), authorized through the real flow: under the 2026-07-28 revision (stateless
 * requests) and the 2025-11-25 one (a client that sends `initialize`).
 */

const suite = connectorForSuite()

const READS = ['get_task', 'list_task_lists', 'list_tasks']
const { definition, newPerson, structured, text } = serviceTools(suite, 'tasks', 'tools')
const { seed, upstreamCalls } = taskFixtures(suite)

describe.each(ERAS)('the task tools, protocol %s', (era) => {
  it('tools/list: the eight tools, with input and output schemas, hints, scope and access mode', async () => {
    const { client, versions } = await newPerson(era)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(TASK_TOOLS.map((tool) => tool.name))
    for (const tool of tools) {
      const source = definition(tool.name)
      expect(tool.title).toBe(source.title)
      expect(tool.description).toBe(source.description)
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false })
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(
        Object.keys(source.input.shape).sort(),
      )
      expect(tool.outputSchema).toMatchObject({ type: 'object' })
      if (READS.includes(tool.name)) {
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true })
        expect(tool._meta).toEqual({ 'countersign/scope': 'tasks.readonly' })
      } else {
        expect(tool.annotations).toMatchObject({ readOnlyHint: false })
        // A delete removes, an update overwrites and clears: neither is only additive.
        expect(tool.annotations?.destructiveHint).toBe(
          tool.name === 'delete_task' || tool.name === 'update_task',
        )
        expect(tool._meta).toEqual({
          'countersign/scope': 'tasks',
          'countersign/accessMode': tool.name === 'delete_task' ? 'per-call' : 'auth-token',
        })
      }
    }
    expect(tools.find((t) => t.name === 'list_tasks')!.inputSchema.required).toEqual(['tasklist'])
    expect(versions.at(-1)).toBe(era)
    if (era === '2025-11-25') expect(client.getNegotiatedProtocolVersion()).toBe(era)
    await client.close()
  })

  it('list_task_lists, list_tasks paged with pageToken, get_task: structured results as JSON text', async () => {
    const { person, client } = await newPerson(era)
    const { tasklist, ids } = await seed(person.user, 5)
    await client.listTools()

    const lists = structured(
      'list_task_lists',
      (await client.callTool({ name: 'list_task_lists', arguments: {} })) as CallToolResult,
    )
    expect(lists.kind).toBe('tasks#taskLists')
    expect(lists.items.map((l: any) => l.id)).toContain(tasklist)

    const seen: string[] = []
    let pageToken: string | undefined
    let pages = 0
    do {
      const page = structured(
        'list_tasks',
        (await client.callTool({
          name: 'list_tasks',
          arguments: { tasklist, maxResults: 2, ...(pageToken && { pageToken }) },
        })) as CallToolResult,
      )
      expect(page.kind).toBe('tasks#tasks')
      seen.push(...page.items.map((t: any) => t.id))
      pageToken = page.nextPageToken
      pages++
    } while (pageToken)
    expect(pages).toBe(3)
    expect(seen).toEqual(ids)

    const task = structured(
      'get_task',
      (await client.callTool({
        name: 'get_task',
        arguments: { tasklist, task: ids[2] },
      })) as CallToolResult,
    )
    expect(task).toMatchObject({ kind: 'tasks#task', id: ids[2], title: 'Task 3' })
    await client.close()
  })

  it.each([
    [{ tasklist: 'x', maxResults: 101 }, /maxResults must be at most 100/],
    [{ tasklist: 'x', colour: 'red' }, /does not take "colour": remove it/],
    [{ maxResults: 5 }, /tasklist is required/],
    [{ tasklist: 'x', dueMin: 'tomorrow' }, /dueMin must be an RFC 3339 timestamp/],
  ])('bad arguments %j: isError naming the field, nothing sent upstream', async (args, says) => {
    const { client } = await newPerson(era)
    const { next } = await upstreamCalls()
    const result = (await client.callTool({
      name: 'list_tasks',
      arguments: args,
    })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect(text(result)).toMatch(says)
    expect(text(result)).toMatch(/Nothing was sent to the provider/)
    expect((await upstreamCalls(next)).calls).toEqual([])
    await client.close()
  })

  it('not found: isError saying so, and which ids to check', async () => {
    const { person, client } = await newPerson(era)
    const { tasklist } = await seed(person.user, 1)
    const result = (await client.callTool({
      name: 'get_task',
      arguments: { tasklist, task: 'no-such-task' },
    })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(/^Not found/)
    expect(text(result)).toMatch(/Check tasklist and task/)
    await client.close()
  })

  it('a provider 503 on every try: isError saying to retry later, and the server goes on', async () => {
    const { client } = await newPerson(era)
    const attempts = 1 + MAX_RETRIES
    await suite.sandboxRequest('POST', '/_sandbox/faults', {
      json: {
        match: { method: 'GET', path: suite.providerPath('list_task_lists') },
        times: attempts,
        status: 503,
      },
    })
    const { next } = await upstreamCalls()
    const result = (await client.callTool({
      name: 'list_task_lists',
      arguments: {},
    })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(/unavailable right now; retry in \d+ seconds/)
    const { calls } = await upstreamCalls(next)
    expect(calls.map((c) => c.status)).toEqual(Array(attempts).fill(503))
    // The next call goes through (and closes the circuit breaker's count).
    structured(
      'list_task_lists',
      (await client.callTool({ name: 'list_task_lists', arguments: {} })) as CallToolResult,
    )
    await client.close()
  })

  it('a provider 429 with Retry-After: retried after it, and succeeds', async () => {
    const { client } = await newPerson(era)
    await suite.sandboxRequest('POST', '/_sandbox/faults', {
      json: {
        match: { method: 'GET', path: suite.providerPath('list_task_lists') },
        status: 429,
        retryAfter: 1,
      },
    })
    const { next } = await upstreamCalls()
    const started = performance.now()
    const result = (await client.callTool({
      name: 'list_task_lists',
      arguments: {},
    })) as CallToolResult
    structured('list_task_lists', result)
    expect(performance.now() - started).toBeGreaterThanOrEqual(900)
    const { calls } = await upstreamCalls(next)
    expect(calls.map((c) => c.status)).toEqual([429, 200])
    await client.close()
  })

  it('a token with only tasks.readonly reads', async () => {
    const { client, tokens } = await newPerson(era, 'tasks.readonly')
    expect(tokens.scope).toBe('tasks.readonly')
    structured(
      'list_task_lists',
      (await client.callTool({ name: 'list_task_lists', arguments: {} })) as CallToolResult,
    )
    await client.close()
  })
})

describe('a credential revoked at the provider during a tool call', () => {
  it('answers 401 invalid_token with a message to reconnect, not a tool result', async () => {
    const person = suite.person('tools-revoked')
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const call = () =>
      suite.mcp('tasks', tokens.access_token, {
        method: 'tools/call',
        params: { name: 'list_task_lists', arguments: {} },
      })
    expect((await call()).status).toBe(200)
    const revoked = await person.fetch('POST', `${suite.sandbox.url}/account/connections/revoke`, {
      client: 'countersign',
      Revoke: 'Revoke',
    })
    expect(revoked.status).toBe(303)
    const after = await call()
    expect(after.status).toBe(401)
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
    expect(after.body.error_description).toMatch(/connect the service again/)
  })
})
