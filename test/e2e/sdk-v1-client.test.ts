import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import {
  approvalLink,
  approvalPages,
  AssistantOAuth,
  connectorForSuite,
  recordingFetch,
  redirectReceiverForSuite,
  taskFixtures,
  textOf,
} from '@countersign/connector/testing'

/**
 * The v1 MCP SDK (`@modelcontextprotocol/sdk`), a 2025-11-25 client, as an assistant built on it
 * runs: its own OAuth from the 401 (discovery, dynamic registration, PKCE, resource, the person's
 * consent and sign-in), then all eight task tools. It cannot be asked in its own interface
 * statelessly, so each change sends the person to the approval page, and the same call made
 * again after their approval runs it.
 */

const receiver = redirectReceiverForSuite()
const suite = connectorForSuite()
const pages = approvalPages()
const { seed } = taskFixtures(suite)

describe('the v1 MCP SDK client (2025-11-25), as a real assistant', () => {
  it('authorizes through the real flow, then calls all eight tools, each change approved on the page', async () => {
    const person = suite.person('sdk-v1')
    const oauth = new AssistantOAuth(person, receiver.uri)
    const { fetch: sdkFetch, seen } = recordingFetch()
    const url = new URL(suite.resource('tasks'))
    const transport = () =>
      new StreamableHTTPClientTransport(url, { authProvider: oauth as never, fetch: sdkFetch })

    const first = transport()
    const refused = await new Client({ name: 'v1-assistant', version: '1.0.0' })
      .connect(first)
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(UnauthorizedError)
    const landed = await receiver.next()
    await first.finishAuth(landed.searchParams.get('code')!)
    expect(seen).toContain('POST /oauth/register 201')
    expect(oauth.savedTokens[0]).toMatchObject({ scope: 'tasks.readonly tasks' })

    const client = new Client({ name: 'v1-assistant', version: '1.0.0' })
    await client.connect(transport())
    expect(client.getServerVersion()?.name).toBe('countersign-tasks')
    const { tools } = await client.listTools()
    expect(tools).toHaveLength(8)

    const { tasklist, ids, providerToken } = await seed(person.user, 3)
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult
    const approved = async (name: string, args: Record<string, unknown>) => {
      const link = approvalLink(await call(name, args))
      await pages.onThePage(person, link, 'Approve')
      const done = await call(name, args)
      expect(done.isError ?? false, textOf(done)).toBe(false)
      return done.structuredContent as Record<string, any>
    }

    const lists = (await call('list_task_lists', {})).structuredContent as any
    expect(lists.items.map((l: any) => l.title)).toContain('Groceries')
    expect(((await call('list_tasks', { tasklist })).structuredContent as any).items).toHaveLength(
      3,
    )
    expect((await call('get_task', { tasklist, task: ids[0] })).structuredContent).toMatchObject({
      title: 'Task 1',
    })
    const errands = await approved('create_task_list', { title: 'Errands' })
    await approved('create_task', { tasklist: errands.id, title: 'Post a letter' })
    await approved('update_task', { tasklist, task: ids[0], status: 'completed' })
    await approved('move_task', { tasklist, task: ids[2], previous: ids[0] })
    await approved('delete_task', { tasklist, task: ids[1] })

    const left = await suite.sandboxRequest('GET', `/tasks/v1/lists/${tasklist}/tasks`, {
      token: providerToken,
    })
    expect(left.body.items.map((t: any) => [t.title, t.status])).toEqual([
      ['Task 1', 'completed'],
      ['Task 3', 'needsAction'],
    ])
    await client.close()
  })
})
