import { describe, expect, it } from 'vitest'
import { SERVICE_NAMES } from '../../src/services/catalog.js'
import { MAX_RETRIES } from '../../src/upstream/api/policy.js'
import { approvalFlow } from '../approval/flow.js'
import { assistantV2, textOf } from '../mcp/approval-clients.js'
import { taskFixtures } from '../mcp/fixtures.js'
import { connectorForSuite } from '../support/connector.js'
import { moved, scrapeExposition, type Exposition } from '../support/prometheus.js'

/**
 * The circuit breaker in the metrics: five failed attempts in a row open it (src/upstream/api/
 * policy.ts), the gauge says so for every service on that provider origin (the sandbox serves
 * all three), and the calls it stops are counted as `circuit_open`, with no request sent.
 */

const suite = connectorForSuite({ connector: { metrics: { port: 0, host: '127.0.0.1' } } })
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

const scrape = () => scrapeExposition(suite.connector.metricsUrl!)

const circuit = (scraped: Exposition, service: string) =>
  Object.fromEntries(
    scraped.samples
      .filter(
        (s) => s.name === 'countersign_upstream_circuit_state' && s.labels.service === service,
      )
      .map((s) => [s.labels.state, s.value]),
  )

describe('the circuit breaker', () => {
  it('opens after five failed attempts: the gauge says open, and calls are counted circuit_open', async () => {
    const user = 'circuit-person'
    const { tokens } = await flow.connected(user)
    const { tasklist } = await seed(user, 1)
    const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, undefined)
    const before = await scrape()
    for (const service of SERVICE_NAMES)
      expect(circuit(before, service)).toEqual({ closed: 1, open: 0, half_open: 0, isolated: 0 })

    await suite.sandboxRequest('POST', '/_sandbox/faults', {
      json: {
        match: { method: 'GET', path: suite.providerPath('list_tasks', { tasklist }) },
        status: 503,
        retryAfter: 0,
        times: 10,
      },
    })
    const { next } = await upstreamCalls()
    // 1 + MAX_RETRIES attempts, then one more: the fifth in a row opens the circuit, and the
    // retry after it is stopped by the breaker.
    for (let call = 0; call < 3; call++) {
      const result = await assistant.call('list_tasks', { tasklist })
      expect(textOf(result)).toMatch(/unavailable|not answering/)
    }
    const sent = (await upstreamCalls(next)).calls
    expect(sent.map((r) => r.status)).toEqual(Array(5).fill(503))
    await assistant.close()

    const after = await scrape()
    for (const service of SERVICE_NAMES)
      expect(circuit(after, service)).toEqual({ closed: 0, open: 1, half_open: 0, isolated: 0 })
    expect(moved(before, after, 'countersign_upstream_calls_total')).toEqual({
      'service=tasks,status=503': 1,
      'service=tasks,status=circuit_open': 2,
    })
    expect(moved(before, after, 'countersign_upstream_attempts_total')).toEqual({
      'service=tasks': 5,
    })
    // The retry the breaker stopped was never sent: it is no retry.
    expect(moved(before, after, 'countersign_upstream_retries_total')).toEqual({
      'service=tasks': MAX_RETRIES,
    })
    expect(moved(before, after, 'countersign_tool_calls_total')).toEqual({
      'outcome=upstream_error,service=tasks,tool=list_tasks': 3,
    })
  })
})
