import { expect, it } from 'vitest'
import { TOOL_CALL_STEPS } from '../../src/mcp/steps/order.js'
import { assistantV2, textOf } from '../mcp/approval-clients.js'
import { taskFixtures } from '../mcp/fixtures.js'
import { connectorForSuite } from '../support/connector.js'
import { describeEachEngine } from '../support/engines.js'
import { moved, scrapeExposition } from '../support/prometheus.js'

/**
 * METRICS_TOOL_STEPS=1 (docs/operations.md, "Metrics"): each step of a tool call counted, its
 * own CPU time and statements, through the real connector, sandbox and MCP client. A read runs
 * every step; a call outside the grant ends at the coverage and runs none after it; on
 * PostgreSQL the steps' statements are among the store's, and the approval's are counted where
 * the change is asked about.
 */

const RUNS = 'countersign_tool_step_runs_total'
const CPU = 'countersign_tool_step_cpu_seconds_total'
const MAIN_THREAD = 'countersign_tool_step_main_thread_cpu_seconds_total'
const STATEMENTS = 'countersign_tool_step_statements_total'
/** The main thread's own clock (Node 24): where it exists, its part of each step is counted too. */
const TELLS_MAIN_THREAD = 'threadCpuUsage' in process
const STORE = 'countersign_store_statements_total'
const STEPS = TOOL_CALL_STEPS.map((step) => step.name)
const each = (steps: readonly string[], value: number) =>
  Object.fromEntries(steps.map((step) => [`step=${step}`, value]))

describeEachEngine('each step of a tool call, counted', (engine) => {
  const suite = connectorForSuite({
    connector: async () => ({
      ...(await engine.location()),
      metrics: { port: 0, host: '127.0.0.1', toolSteps: true },
    }),
  })
  const { seed } = taskFixtures(suite)
  const scrape = () => scrapeExposition(suite.connector.metricsUrl!)

  it('a read runs every step once; a refusal stops where it is refused', async () => {
    const person = suite.person(`steps-${engine.name}`)
    const { tasklist } = await seed(person.user, 2)
    const other = await seed(person.user, 1, 'Private')
    person.covers = [tasklist]
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
    try {
      const before = await scrape()
      const listed = await assistant.call('list_tasks', { tasklist })
      expect(listed.isError ?? false, textOf(listed)).toBe(false)
      const read = await scrape()
      expect(moved(before, read, RUNS)).toEqual(each(STEPS, 1))
      // Each step has its CPU time counted. A step of a few µs may read nothing on the clock,
      // so the time moved in all, and no step's went back.
      const counted = read.samples.filter((sample) => sample.name === CPU)
      expect(counted.map((sample) => sample.labels.step).sort()).toEqual([...STEPS].sort())
      const cpu = Object.values(moved(before, read, CPU))
      expect(cpu.reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
      for (const seconds of cpu) expect(seconds).toBeGreaterThan(0)
      const mainThread = read.samples.filter((sample) => sample.name === MAIN_THREAD)
      // Its clock moves by scheduler ticks: a step may read none of it, so only its series.
      if (TELLS_MAIN_THREAD)
        expect(mainThread.map((sample) => sample.labels.step).sort()).toEqual([...STEPS].sort())
      else expect(mainThread).toEqual([])
      const steps = Object.values(moved(before, read, STATEMENTS)).reduce((a, b) => a + b, 0)
      const store = moved(before, read, STORE)[''] ?? 0
      expect(steps).toBeLessThanOrEqual(store)
      if (engine.name === 'sqlite') expect(steps).toBe(0)

      const refused = await assistant.call('list_tasks', { tasklist: other.tasklist })
      expect(textOf(refused)).toMatch(/is not one the person lets this assistant use/)
      expect(moved(read, await scrape(), RUNS)).toEqual(each(['input', 'grant', 'coverage'], 1))
    } finally {
      await assistant.close()
    }
  })

  it('a change asked about in the client: its approval step sends the statements that hold it', async () => {
    const person = suite.person(`steps-change-${engine.name}`)
    const { tokens } = await suite.connect({ person, service: 'tasks' })
    const { tasklist } = await seed(person.user, 1)
    const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, () => ({
      action: 'accept',
      content: { approve: true },
    }))
    try {
      const before = await scrape()
      const made = await assistant.call('create_task', { tasklist, title: 'Counted' })
      expect(made.isError ?? false, textOf(made)).toBe(false)
      const after = await scrape()
      expect(moved(before, after, RUNS)['step=result']).toBe(1)
      const approval = moved(before, after, STATEMENTS)['step=approval'] ?? 0
      if (engine.name === 'postgres') expect(approval).toBeGreaterThan(0)
      else expect(approval).toBe(0)
    } finally {
      await assistant.close()
    }
  })
})
