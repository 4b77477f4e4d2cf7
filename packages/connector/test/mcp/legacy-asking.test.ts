import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { approvalFlow } from '../approval/flow.js'
import { connectorForSuite } from '../support/connector.js'
import { approvalLink, assistantV1, textOf, type Answer } from './approval-clients.js'
import { taskFixtures } from './fixtures.js'

/**
 * Approval in the client under 2025-11-25 (docs/decisions.md, "Approval in the client under
 * 2025-11-25"): a client that declared elicitation at `initialize` gets a session that says so,
 * and each change is asked in its own interface (`elicitation/create` on the stream of its call),
 * its answer POSTed back and routed to the request that asked. Both SDK clients of that revision;
 * both profiles. Across replicas on PostgreSQL: test/e2e/replicas.test.ts.
 */

let people = 0
/** A connector and sandbox for a describe block, and people connected to its tasks service. */
function connected(suite: ReturnType<typeof connectorForSuite>) {
  const flow = approvalFlow(suite)
  const fixtures = taskFixtures(suite)
  return {
    flow,
    ...fixtures,
    tasksMcp: () => suite.resource('tasks'),
    async person(tasks = 1) {
      const user = `legacy-asker-${++people}`
      const person = suite.person(user)
      const { tokens, grantId } = await flow.connected(user, 'Helpful Assistant', person)
      const list = await fixtures.seed(user, tasks)
      return { user, person, token: tokens.access_token as string, grantId, ...list }
    },
  }
}

const {
  flow,
  upstreamCalls,
  auditOf,
  tasksMcp,
  person: connectedPerson,
} = connected(connectorForSuite())

const approve: Answer = () => ({ action: 'accept', content: { approve: true } })

describe('a 2025-11-25 client that answers in its own interface (SDK v1)', () => {
  it('create_task: asked in the client with the task and list by title, approved, made once', async () => {
    const p = await connectedPerson()
    const asked: string[] = []
    const assistant = await assistantV1(tasksMcp(), p.token, (params) => {
      asked.push(params.message)
      return approve(params)
    })
    const { next } = await upstreamCalls()
    const result = await assistant.call('create_task', {
      tasklist: p.tasklist,
      title: 'Asked in 2025',
    })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(asked).toEqual([
      expect.stringMatching(/^Add task "Asked in 2025" to list "Groceries"\?/),
    ])
    expect((await upstreamCalls(next)).writes.map((w) => w.method)).toEqual(['POST'])
    expect(await auditOf(p.grantId)).toEqual(['approved create_task', 'executed create_task 200'])
    await assistant.close()
  })

  it('declined in the client: nothing is written, and the model is told so', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token, () => ({ action: 'decline' }))
    const { next } = await upstreamCalls()
    const result = await assistant.call('update_task', {
      tasklist: p.tasklist,
      task: p.ids[0],
      title: 'No',
    })
    expect(textOf(result)).toMatch(/declined/)
    expect((await upstreamCalls(next)).writes).toEqual([])
    await assistant.close()
  })

  it('closed unanswered: the change waits on its page, which the result links', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token, () => ({ action: 'cancel' }))
    const args = { tasklist: p.tasklist, title: 'Later' }
    const link = approvalLink(await assistant.call('create_task', args))
    await flow.onThePage(p.person, link, 'Approve')
    const made = await assistant.call('create_task', args)
    expect(made.isError ?? false, textOf(made)).toBe(false)
    await assistant.close()
  })

  it('two changes waiting at once in one session: each answer reaches its own question', async () => {
    const p = await connectedPerson()
    // The person approves the first and declines the second, told apart by their titles.
    const assistant = await assistantV1(tasksMcp(), p.token, (params) =>
      /Keep me/.test(params.message)
        ? { action: 'accept', content: { approve: true } }
        : { action: 'decline' },
    )
    const { next } = await upstreamCalls()
    const [kept, refused] = await Promise.all([
      assistant.call('create_task', { tasklist: p.tasklist, title: 'Keep me' }),
      assistant.call('create_task', { tasklist: p.tasklist, title: 'Drop me' }),
    ])
    expect(kept.isError ?? false, textOf(kept)).toBe(false)
    expect((kept.structuredContent as any).title).toBe('Keep me')
    expect(textOf(refused)).toMatch(/declined/)
    expect((await upstreamCalls(next)).writes).toHaveLength(1)
    await assistant.close()
  })

  it('delete_task is still approved on the page: the client is sent there, then the call runs', async () => {
    const p = await connectedPerson(2)
    const opened: string[] = []
    const assistant = await assistantV1(
      tasksMcp(),
      p.token,
      (params) => {
        if ('url' in params) opened.push(params.url as string)
        return { action: 'accept' }
      },
      { form: true, url: true },
    )
    const args = { tasklist: p.tasklist, task: p.ids[1] }
    const first = await assistant.call('delete_task', args)
    expect(first.isError).toBe(true)
    expect(opened).toHaveLength(1)
    await flow.onThePage(p.person, opened[0]!, 'Approve')
    const deleted = await assistant.call('delete_task', args)
    expect(deleted.structuredContent).toMatchObject({ deleted: true, task: p.ids[1] })
    await assistant.close()
  })

  it('a question the client cannot show (an error answer): the change waits on its page', async () => {
    const p = await connectedPerson()
    const assistant = await assistantV1(tasksMcp(), p.token, () => {
      throw new Error('no way to show a form here')
    })
    const { next } = await upstreamCalls()
    const args = { tasklist: p.tasklist, title: 'Shown nowhere' }
    const waiting = await assistant.call('create_task', args)
    expect(textOf(waiting)).toMatch(/got no answer in the assistant/)
    expect((await upstreamCalls(next)).writes).toEqual([])
    await flow.onThePage(p.person, approvalLink(waiting), 'Approve')
    const made = await assistant.call('create_task', args)
    expect(made.isError ?? false, textOf(made)).toBe(false)
    await assistant.close()
  })

  it("an answer sent with another grant's token never reaches the question", async () => {
    const p = await connectedPerson()
    const other = await connectedPerson()
    let forged = 0
    const assistant = await assistantV1(tasksMcp(), p.token, async (params, id) => {
      // Before the person answers, someone else posts a decline to this very question (its
      // session and id) with their own token.
      const sessionId = assistant.sessionId
      expect(sessionId).toMatch(/^s1\./)
      if (!forged++) {
        const res = await fetch(tasksMcp(), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${other.token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId!,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'decline' } }),
        })
        expect(res.status).toBe(202)
      }
      return approve(params)
    })
    const result = await assistant.call('create_task', { tasklist: p.tasklist, title: 'Mine' })
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(forged).toBe(1)
    await assistant.close()
  })
})

describe('a 2025-11-25 client that declares questions it never shows', () => {
  // The wait is a second here; the connector's own is below the 60 s after which such clients
  // give up on the call.
  const slow = connected(connectorForSuite({ options: { answerWaitMs: 1_000 } }))

  it('the question is let go unanswered, and the result links the change waiting on its page', async () => {
    const p = await slow.person()
    const assistant = await assistantV1(slow.tasksMcp(), p.token, () => new Promise(() => {}))
    const args = { tasklist: p.tasklist, title: 'Never shown' }
    const waiting = await assistant.call('create_task', args)
    expect(textOf(waiting)).toMatch(/got no answer in the assistant/)
    await slow.flow.onThePage(p.person, approvalLink(waiting), 'Approve')
    const made = await assistant.call('create_task', args)
    expect(made.isError ?? false, textOf(made)).toBe(false)
    expect(await slow.auditOf(p.grantId)).toEqual([
      'approved create_task',
      'executed create_task 200',
    ])
    await assistant.close()
  })
})

describe('a 2025-11-25 client that answers in its own interface (SDK v2)', () => {
  it('create_task: asked and approved in the client', async () => {
    const p = await connectedPerson()
    const client = new Client(
      { name: 'legacy-v2', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    )
    const asked: string[] = []
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message)
      return { action: 'accept', content: { approve: true } }
    })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(tasksMcp()), {
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers)
          headers.set('authorization', `Bearer ${p.token}`)
          return fetch(input, { ...init, headers })
        },
      }),
    )
    const result = (await client.callTool({
      name: 'create_task',
      arguments: { tasklist: p.tasklist, title: 'Asked by v2' },
    })) as CallToolResult
    expect(result.isError ?? false, textOf(result)).toBe(false)
    expect(asked).toHaveLength(1)
    await client.close()
  })
})
