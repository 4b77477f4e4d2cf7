import { describe, expect, it } from 'vitest'
import { mcpRoutes } from '../../src/mcp/endpoint.js'
import { GENERIC_PROFILE } from '../../src/services/profiles/generic.js'
import { TASK_TOOLS } from '../../src/services/tasks/index.js'
import { connectorForSuite } from '../support/connector.js'

/**
 * The scope of each tool, checked per call (docs/design.md, "MCP endpoints"): a token without it
 * gets 403 insufficient_scope naming it, before anything reaches the provider: the real changes,
 * and an endpoint built over one more definition, a read that asks for the full scope (so that a
 * call which passes the check goes straight to the provider, with no approval in the way).
 */

const suite = connectorForSuite()
const listTaskLists = TASK_TOOLS.find((tool) => tool.name === 'list_task_lists')!
const needsFull = { ...listTaskLists, name: 'list_task_lists_full', scope: 'tasks' }

function endpoint() {
  const { parts } = suite.connector
  return mcpRoutes(
    {
      ...parts,
      profile: {
        ...GENERIC_PROFILE,
        operations: {
          ...GENERIC_PROFILE.operations,
          [needsFull.name]: GENERIC_PROFILE.operations.list_task_lists!,
        },
      },
    },
    { tools: { tasks: [listTaskLists, needsFull] } },
  )
}

async function post(token: string, message: unknown) {
  return endpoint().request(`${suite.url}/tasks/mcp`, {
    method: 'POST',
    headers: {
      host: new URL(suite.url).host,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(message),
  })
}

const call = (name: string, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
})

async function upstreamCount() {
  return ((await suite.sandboxRequest('GET', '/_sandbox/requests')).body as unknown[]).length
}

describe('the scope of a tool call', () => {
  it('a tasks.readonly token calling a tool that needs "tasks": 403 insufficient_scope naming it, nothing sent', async () => {
    const { tokens } = await suite.connect({ service: 'tasks', scope: 'tasks.readonly' })
    const before = await upstreamCount()
    const res = await post(tokens.access_token, call('list_task_lists_full'))
    expect(res.status).toBe(403)
    const challenge = res.headers.get('www-authenticate')!
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="tasks"/)
    expect(challenge).toContain(
      `resource_metadata="${suite.url}/.well-known/oauth-protected-resource/tasks/mcp"`,
    )
    expect(await res.json()).toMatchObject({ error: 'insufficient_scope', scope: 'tasks' })
    expect(await upstreamCount()).toBe(before)

    // The same token calls the read it may make, and lists both.
    const read = await post(tokens.access_token, call('list_task_lists'))
    expect(read.status).toBe(200)
    expect(await read.text()).toContain('"structuredContent"')
    const listed = await post(tokens.access_token, { jsonrpc: '2.0', id: 2, method: 'tools/list' })
    expect(await listed.text()).toContain('"countersign/scope":"tasks"')
  })

  it('every change of the task service needs "tasks": a read-only token gets the 403, nothing sent', async () => {
    const { tokens } = await suite.connect({ service: 'tasks', scope: 'tasks.readonly' })
    const before = await upstreamCount()
    for (const change of TASK_TOOLS.filter((tool) => tool.approval)) {
      const res = await suite.mcp('tasks', tokens.access_token, call(change.name))
      expect(res.status).toBe(403)
      expect(res.headers.get('www-authenticate')).toMatch(/insufficient_scope", scope="tasks"/)
    }
    expect(await upstreamCount()).toBe(before)
  })

  it('one call in a batch that needs more is enough for the 403', async () => {
    const { tokens } = await suite.connect({ service: 'tasks', scope: 'tasks.readonly' })
    const res = await post(tokens.access_token, [
      call('list_task_lists', 1),
      call('list_task_lists_full', 2),
    ])
    expect(res.status).toBe(403)
  })

  it('a token with "tasks" may call it', async () => {
    const { tokens } = await suite.connect({ service: 'tasks', scope: 'tasks.readonly tasks' })
    const res = await post(tokens.access_token, call('list_task_lists_full'))
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"structuredContent"')
  })

  it('an unknown tool needs no scope beyond the token’s: it is an unknown tool, whatever the token', async () => {
    const { tokens } = await suite.connect({ service: 'tasks', scope: 'tasks.readonly' })
    const res = await post(tokens.access_token, call('delete_task'))
    expect(res.status).toBe(200)
    expect(await res.text()).toMatch(/"code":-32602.*Unknown tool: delete_task/)
  })
})
