import { describe, expect, it } from 'vitest'
import { SERVICE_NAMES } from '../../src/services/catalog.js'
import { DEFAULT_PAUSE_MS, MAX_RETRIES } from '../../src/upstream/api/policy.js'
import { approvalFlow } from '../approval/flow.js'
import { assistantV2, textOf } from '../mcp/approval-clients.js'
import { taskFixtures } from '../mcp/fixtures.js'
import { connectorForSuite } from '../support/connector.js'
import { circuitStates, moved, scrapeExposition } from '../support/prometheus.js'
import { heldDate } from '../support/clock.js'

/**
 * The provider's circuit breaker in the metrics: when two people's calls each fail twice and
 * nobody's is answered, it opens (src/upstream/api/policy.ts), the gauge says so for every service
 * on that provider origin (the sandbox serves all three), the calls it pauses are counted as
 * `circuit_open` with no request sent, and a probe that is answered closes it. The test moves the
 * clock past the pause (heldDate) rather than waiting for it.
 */

const suite = connectorForSuite({ connector: { metrics: { port: 0, host: '127.0.0.1' } } })
const { later } = heldDate()
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

const scrape = () => scrapeExposition(suite.connector.metricsUrl!)

const CLOSED = { closed: 1, open: 0, half_open: 0, isolated: 0 }
const OPEN = { closed: 0, open: 1, half_open: 0, isolated: 0 }

async function person(user: string) {
  const { tokens } = await flow.connected(user)
  const { tasklist } = await seed(user, 1)
  const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
  return { list: () => assistant.call('list_tasks', { tasklist }), assistant }
}

describe('the circuit breaker', () => {
  it('opens when the provider fails everyone: the gauge says open, paused calls are counted circuit_open and not sent, and an answered probe closes it', async () => {
    const [alice, bob] = [await person('circuit-alice'), await person('circuit-bob')]
    const before = await scrape()
    for (const service of SERVICE_NAMES) expect(circuitStates(before, service)).toEqual(CLOSED)

    await suite.sandboxRequest('POST', '/_sandbox/faults', {
      json: {
        match: { method: 'GET', path: '/tasks/v1/lists/*/tasks' },
        status: 503,
        times: 4 * (1 + MAX_RETRIES),
      },
    })
    const { next } = await upstreamCalls()
    // Each call is tried 1 + MAX_RETRIES times; two people failing twice each open the breaker.
    for (const { list } of [alice, bob, alice, bob])
      expect(textOf(await list())).toMatch(/unavailable right now; retry in 5 seconds/)
    expect((await upstreamCalls(next)).calls.map((r) => r.status)).toEqual(
      Array(4 * (1 + MAX_RETRIES)).fill(503),
    )
    const open = await scrape()
    for (const service of SERVICE_NAMES) expect(circuitStates(open, service)).toEqual(OPEN)

    // Paused: answered at once, saying when to come back, and nothing is sent.
    const { next: pausedFrom } = await upstreamCalls()
    expect(textOf(await alice.list())).toMatch(
      `unavailable right now; retry in ${DEFAULT_PAUSE_MS / 1000} seconds`,
    )
    expect((await upstreamCalls(pausedFrom)).calls).toEqual([])
    const paused = await scrape()
    expect(moved(before, paused, 'countersign_upstream_calls_total')).toEqual({
      'service=tasks,status=503': 4,
      'service=tasks,status=circuit_open': 1,
    })
    expect(moved(before, paused, 'countersign_upstream_failures_total')).toEqual({
      'kind=unavailable,service=tasks': 5,
    })
    expect(moved(before, paused, 'countersign_upstream_attempts_total')).toEqual({
      'service=tasks': 4 * (1 + MAX_RETRIES),
    })
    expect(moved(before, paused, 'countersign_upstream_retries_total')).toEqual({
      'service=tasks': 4 * MAX_RETRIES,
    })
    expect(moved(before, paused, 'countersign_tool_calls_total')).toEqual({
      'outcome=upstream_error,service=tasks,tool=list_tasks': 5,
    })

    // After the pause the next call is the probe: answered, it closes the breaker.
    later(DEFAULT_PAUSE_MS)
    expect((await bob.list()).isError ?? false).toBe(false)
    const closed = await scrape()
    for (const service of SERVICE_NAMES) expect(circuitStates(closed, service)).toEqual(CLOSED)
    await Promise.all([alice.assistant.close(), bob.assistant.close()])
  })
})
