import { expect, it } from 'vitest'
import { RATE_LIMIT_TABLE } from '../../src/store/rate-limits.js'
import { connectorForSuite } from '../support/connector.js'
import { moved, scrapeExposition } from '../support/prometheus.js'
import { describeEachEngine, describeOnPostgres } from '../support/engines.js'
import { ERAS, mcpClientWithToken, resultText } from '../support/mcp-client.js'
import { replicasForSuite } from '../support/replicas.js'
import { serviceTools } from '../support/service-tools.js'
import { taskFixtures } from './fixtures.js'

/**
 * The limit on tool calls per grant (RATE_LIMIT_TOOL_CALLS_PER_MINUTE), which keeps the person's
 * quota at the provider: every `tools/call` with valid arguments counts, nothing else does
 * (`initialize`, `tools/list`, a call the input schema refuses). Beyond the limit a call is an
 * `isError` result that says when to retry, and nothing is sent to the provider; other grants go
 * on. In memory on SQLite, in the shared store on PostgreSQL, where two replicas together allow
 * what one does.
 */

const LIMIT = 3

const refusal = new RegExp(
  `^Too many tool calls on this connection: at most ${LIMIT} a minute, to keep within the ` +
    `provider's quota\\. Nothing was sent to the provider; retry in (\\d+) seconds\\.$`,
)

/** The seconds a refusal says to wait, checked to be within the minute. */
function retrySeconds(result: { isError?: boolean; content: unknown[] }): number {
  expect(result.isError).toBe(true)
  const match = refusal.exec(resultText(result as never))
  expect(match, resultText(result as never)).not.toBeNull()
  const seconds = Number(match![1])
  expect(seconds).toBeGreaterThanOrEqual(1)
  expect(seconds).toBeLessThanOrEqual(60)
  return seconds
}

describeEachEngine('the tool-call limit per grant', (engine) => {
  const suite = connectorForSuite({
    connector: async () => ({
      ...(await engine.location()),
      rateLimits: { toolCallsPerMinute: LIMIT },
      metrics: { port: 0, host: '127.0.0.1' },
    }),
  })
  const scrape = () => scrapeExposition(suite.connector.metricsUrl!)
  const { newPerson, text } = serviceTools(suite, 'tasks', `limit-${engine.name}`)
  const { seed, upstreamCalls } = taskFixtures(suite)

  it.each(ERAS)(
    'protocol %s: the call beyond the limit is an isError result with the seconds to wait, and reaches nobody',
    async (era) => {
      const { person, client, call } = await newPerson(era)
      const { tasklist } = await seed(person.user, 2)
      // Not counted: the client's own requests, listings, and calls refused for their arguments.
      for (let i = 0; i < 4; i++) await client.listTools()
      for (let i = 0; i < 2; i++) expect(text(await call('list_tasks', {}))).toMatch(/^Invalid/)
      const { next } = await upstreamCalls()
      const before = await scrape()

      for (let i = 0; i < LIMIT; i++) {
        const listed = await call('list_tasks', { tasklist })
        expect(listed.isError ?? false, text(listed)).toBe(false)
      }
      retrySeconds(await call('list_tasks', { tasklist }))
      retrySeconds(await call('list_task_lists', {}))
      // The provider saw the calls within the limit, and nothing after.
      const { calls } = await upstreamCalls(next)
      expect(calls.map((c) => c.method)).toEqual(Array(LIMIT).fill('GET'))
      // Each refusal counted once, by the limit and by the tool's outcome.
      const after = await scrape()
      expect(moved(before, after, 'countersign_rate_limited_total')).toEqual({
        'limit=tool_call': 2,
      })
      expect(moved(before, after, 'countersign_tool_calls_total')).toEqual({
        'outcome=ok,service=tasks,tool=list_tasks': LIMIT,
        'outcome=rate_limited,service=tasks,tool=list_tasks': 1,
        'outcome=rate_limited,service=tasks,tool=list_task_lists': 1,
      })

      // The rest of the protocol goes on.
      expect((await client.listTools()).tools.length).toBeGreaterThan(0)
      expect(text(await call('list_tasks', {}))).toMatch(/^Invalid/)
      await client.close()
    },
  )

  it('counts each grant on its own', async () => {
    const busy = await newPerson('2026-07-28')
    const { tasklist } = await seed(busy.person.user, 1)
    for (let i = 0; i < LIMIT; i++) await busy.call('list_tasks', { tasklist })
    retrySeconds(await busy.call('list_tasks', { tasklist }))

    const other = await newPerson('2026-07-28')
    const { tasklist: own } = await seed(other.person.user, 1)
    for (let i = 0; i < LIMIT; i++) {
      const listed = await other.call('list_tasks', { tasklist: own })
      expect(listed.isError ?? false, text(listed)).toBe(false)
    }
    retrySeconds(await busy.call('list_tasks', { tasklist }))

    const grants = await Promise.all(
      [busy, other].map(async ({ person }) => (await suite.upstreamOf(person.user)).link!.grant_id),
    )
    const rows = await suite.store.db.selectFrom(RATE_LIMIT_TABLE).selectAll().execute()
    if (engine.name === 'sqlite') {
      // One process: the counts are in its memory.
      expect(rows).toEqual([])
    } else {
      // Digests of the grant ids, never the ids.
      const toolCalls = rows.filter((r) => r.key.startsWith('tool_call:'))
      expect(toolCalls.length).toBeGreaterThanOrEqual(2)
      for (const { key } of toolCalls) {
        expect(key).toMatch(/^tool_call:[0-9a-f]{64}$/)
        for (const grant of grants) expect(key).not.toContain(grant)
      }
    }
    await Promise.all([busy.client.close(), other.client.close()])
  })
})

describeOnPostgres('the tool-call limit shared by two replicas', (engine) => {
  const replicas = replicasForSuite(() => engine.location(), 2, undefined, {
    RATE_LIMIT_TOOL_CALLS_PER_MINUTE: String(LIMIT),
  })
  const { seed, upstreamCalls } = taskFixtures({
    profile: replicas.profile,
    sandboxRequest: (method, path, init) =>
      replicas.flow.request(method, replicas.sandbox.url + path, init),
  })

  it('refuses the call beyond the limit, whichever replica counted the calls before', async () => {
    const person = replicas.flow.person('limit-replicas')
    const { tokens } = await replicas.flow.connect({ person, service: 'tasks' })
    const { tasklist } = await seed(person.user, 1)
    const { client } = await mcpClientWithToken(
      replicas.flow.resource('tasks'),
      tokens.access_token,
      '2026-07-28',
    )
    const { next } = await upstreamCalls()
    const served = [...replicas.served]
    const results = []
    for (let i = 0; i < LIMIT + 2; i++)
      results.push(await client.callTool({ name: 'list_tasks', arguments: { tasklist } }))

    for (const listed of results.slice(0, LIMIT)) expect(listed.isError ?? false).toBe(false)
    for (const refused of results.slice(LIMIT)) retrySeconds(refused as never)
    expect((await upstreamCalls(next)).calls).toHaveLength(LIMIT)
    // Both replicas answered, neither more calls than the limit: counting alone, each would
    // have let every one of its calls through.
    const answered = replicas.served.map((n, i) => n - served[i]!)
    expect(Math.min(...answered)).toBeGreaterThanOrEqual(2)
    expect(Math.max(...answered)).toBeLessThanOrEqual(LIMIT)
    await client.close()
  })
})
