import { pino } from 'pino'
import { expect, it } from 'vitest'
import { approvalFlow } from '../approval/flow.js'
import { connectorForSuite } from '../support/connector.js'
import { moved, scrapeExposition, type Exposition } from '../support/prometheus.js'
import { assistantV2, textOf } from './approval-clients.js'
import { taskFixtures } from './fixtures.js'

/**
 * One person's runaway loop meets the fair shares of the provider project's daily Tasks quota
 * (docs/operations.md, "Fair shares of the provider's quotas"), through MCP: the loop is refused
 * by the connector at its share, in words the model can act on, before anything is sent; the
 * other people go on as if nothing happened; /metrics shows where the quota stands. In both
 * profiles.
 */

const QUOTA = 12
const PEOPLE = ['runaway', 'colleague', 'newcomer']
const SHARE = QUOTA / PEOPLE.length

const lines: string[] = []
const suite = connectorForSuite({
  connector: {
    metrics: { port: 0, host: '127.0.0.1' },
    quotas: { tasksQueriesPerDay: QUOTA },
  },
  options: { log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) },
})
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

const scrape = () => scrapeExposition(suite.connector.metricsUrl!)
const gauge = (metrics: Exposition, name: string) =>
  metrics.samples.find((s) => s.name === name && s.labels.quota === 'tasks_queries_per_day')?.value

it('a runaway loop stops at its share; the others never notice', async () => {
  const people = []
  for (const user of PEOPLE) {
    const { tokens } = await flow.connected(user)
    const { tasklist } = await seed(user, 1)
    const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
    people.push({ list: () => assistant.call('list_tasks', { tasklist }), assistant })
  }
  const [runaway, colleague, newcomer] = people as [
    (typeof people)[0],
    (typeof people)[0],
    (typeof people)[0],
  ]
  const before = await scrape()

  // Connecting spent queries too: the connector read each person's task lists for them to
  // choose from (the seeding went to the sandbox with the person's own token: its writes).
  const { calls } = await upstreamCalls()
  const connecting = calls.filter((call) => call.method === 'GET').length / PEOPLE.length
  expect(connecting).toBeGreaterThan(0)

  // The loop: the rest of its share goes through; the next call is refused, nothing is sent.
  for (let i = connecting; i < SHARE; i++) {
    const result = await runaway.list()
    expect(result.isError ?? false, textOf(result)).toBe(false)
  }
  const { next } = await upstreamCalls()
  for (let i = 0; i < 3; i++) {
    const refused = await runaway.list()
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toMatch(
      /^Your share of today's Tasks queries is spent: you have made 4 of your 4 \(the provider allows this connector's 3 people 12 a day together, and what is left today is kept for the others\)\. It renews at midnight Pacific time, in (\d+ h )?\d+ min\. Nothing was sent; do not call again before then, and tell the person\.$/,
    )
  }
  expect((await upstreamCalls(next)).calls).toEqual([])

  // Everyone else: a whole share each, today.
  for (const other of [colleague, newcomer]) {
    for (let i = connecting; i < SHARE; i++) {
      const result = await other.list()
      expect(result.isError ?? false, textOf(result)).toBe(false)
    }
  }

  const after = await scrape()
  expect(moved(before, after, 'countersign_quota_share_refusals_total')).toEqual({
    'quota=tasks_queries_per_day': 3,
  })
  expect(moved(before, after, 'countersign_tool_calls_total')).toMatchObject({
    'outcome=over_share,service=tasks,tool=list_tasks': 3,
  })
  expect(gauge(after, 'countersign_quota_limit')).toBe(QUOTA)
  expect(gauge(after, 'countersign_quota_people')).toBe(PEOPLE.length)
  expect(gauge(after, 'countersign_quota_share')).toBe(SHARE)
  // Once this replica has added its counts: the whole quota, spent by three people's shares.
  await suite.connector.parts.shares.flush()
  await expect
    .poll(async () => gauge(await scrape(), 'countersign_quota_spent'), { timeout: 20_000 })
    .toBe(QUOTA)
  // The operator's log said so once, in figures and never a person's name or token.
  const warned = lines.filter((line) => /of today's Tasks queries/.test(line))
  expect(warned).toHaveLength(1)
  expect(JSON.parse(warned[0]!)).toMatchObject({
    level: 40,
    quota: 'tasks_queries_per_day',
    limit: QUOTA,
  })
  expect(lines.join('\n')).not.toMatch(/runaway|colleague|newcomer/)

  for (const person of people) await person.assistant.close()
})
