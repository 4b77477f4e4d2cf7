import { beforeAll, describe, expect, it } from 'vitest'
import {
  APPROVAL_CHANNELS,
  APPROVAL_DECISIONS,
  CIRCUIT_STATES,
  GRANT_REVOCATIONS,
  GRANT_TYPES,
  QUOTA_LABELS,
  RATE_LIMIT_NAMES,
  STORE_AWAY_SURFACES,
  TOKEN_ERRORS,
  TOOL_OUTCOMES,
  UPSTREAM_FAILURE_KINDS,
  UPSTREAM_NO_ANSWER,
  UPSTREAM_REFRESH_OUTCOMES,
  UPSTREAM_REFRESH_REASONS,
  UPSTREAM_STATUS_CLASSES,
  UPSTREAM_STATUS_CODES,
} from '../../src/metrics/labels.js'
import { SERVICE_NAMES } from '../../src/services/catalog.js'
import { SERVICE_TOOLS } from '../../src/services/tools.js'
import { MAX_RETRIES } from '../../src/upstream/api/policy.js'
import { approvalFlow } from '../approval/flow.js'
import { assistantV2, textOf, type Answer } from '../mcp/approval-clients.js'
import { taskFixtures } from '../mcp/fixtures.js'
import { connectorForSuite } from '../support/connector.js'
import type { ProviderRequest } from '../support/provider-log.js'
import { circuitStates, moved, parseExposition, type Exposition } from '../support/prometheus.js'

/**
 * `/metrics` after a real session (docs/operations.md, "Metrics"): a person connects an assistant
 * through the OAuth flow, the assistant calls tools through the SDK v2 client - reads, a read of a
 * task that does not exist, a read whose upstream token the provider rejects once, a read the
 * provider fails on every try (the sandbox's fault injection), a change the person declines and one
 * they approve in the client - then refreshes its token, replays the old refresh token, a second
 * person revokes theirs, and the rate limits are reached. Each scrape is parsed as Prometheus
 * would, and each metric is checked to have moved by exactly what the session did, and nothing
 * else; the upstream counts against the sandbox's own log of the requests it received. No label
 * holds an id.
 */

const REGISTRATIONS_PER_MINUTE = 4
const TOKEN_REQUESTS_PER_MINUTE = 6
const suite = connectorForSuite({
  connector: {
    metrics: { port: 0, host: '127.0.0.1' },
    rateLimits: {
      registrationsPerMinute: REGISTRATIONS_PER_MINUTE,
      tokenRequestsPerMinute: TOKEN_REQUESTS_PER_MINUTE,
    },
  },
})
const flow = approvalFlow(suite)
const { seed, upstreamCalls } = taskFixtures(suite)

async function scrape(): Promise<Exposition> {
  const res = await fetch(suite.connector.metricsUrl!)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  return parseExposition(await res.text())
}

const fault = async (json: Record<string, unknown>) => {
  const res = await suite.sandboxRequest('POST', '/_sandbox/faults', { json })
  expect(res.status).toBeLessThan(300)
}

/** What the session did, for the checks below. */
const session = {
  scrapes: {} as Record<'start' | 'connected' | 'tools' | 'tokens' | 'end', Exposition>,
  /** The provider's log of the tool calls' requests (the tasks API). */
  provider: [] as ProviderRequest[],
  /** Every id, token and name the session handled: none may turn up in the metrics. */
  secrets: [] as string[],
  text: '',
  registered: 0,
  refusedTokenRequests: 0,
}

beforeAll(async () => {
  const { scrapes, secrets } = session
  scrapes.start = await scrape()

  const user = 'metrics-person-8d41'
  const connection = await flow.connected(user, 'Metrics Assistant')
  const { client, tokens, grantId } = connection
  const list = await seed(user, 2)
  secrets.push(user, client.client_id, grantId, tokens.access_token, tokens.refresh_token)
  secrets.push(list.tasklist, ...list.ids, list.providerToken)
  scrapes.connected = await scrape()

  let answer: Answer = () => ({ action: 'decline' })
  const assistant = await assistantV2(suite.resource('tasks'), tokens.access_token, (params) =>
    answer(params),
  )
  const listPath = suite.providerPath('list_tasks', { tasklist: list.tasklist })
  const { next } = await upstreamCalls()

  const listed = await assistant.call('list_tasks', { tasklist: list.tasklist })
  expect(listed.isError ?? false, textOf(listed)).toBe(false)
  const missing = await assistant.call('get_task', { tasklist: list.tasklist, task: 'no-such-9f2' })
  expect(textOf(missing)).toMatch(/^Not found/)
  secrets.push('no-such-9f2')
  // The provider rejects the upstream token once: one renewal, and the read goes through.
  await fault({ match: { method: 'GET', path: listPath }, status: 401, times: 1 })
  const renewed = await assistant.call('list_tasks', { tasklist: list.tasklist })
  expect(renewed.isError ?? false, textOf(renewed)).toBe(false)
  // The provider fails every try: retried right away (Retry-After: 0), then an error result.
  await fault({
    match: { method: 'GET', path: listPath },
    status: 503,
    retryAfter: 0,
    times: 1 + MAX_RETRIES,
  })
  const failed = await assistant.call('list_tasks', { tasklist: list.tasklist })
  expect(textOf(failed)).toMatch(/unavailable right now/)
  // A change the person declines, then one they approve, each asked in the client.
  const declined = await assistant.call('create_task', { tasklist: list.tasklist, title: 'No' })
  expect(textOf(declined)).toMatch(/declined/i)
  answer = () => ({ action: 'accept', content: { approve: true } })
  const created = await assistant.call('create_task', { tasklist: list.tasklist, title: 'Yes' })
  expect(created.isError ?? false, textOf(created)).toBe(false)
  secrets.push((created.structuredContent as { id: string }).id)
  await assistant.close()
  session.provider = (await upstreamCalls(next)).calls
  scrapes.tools = await scrape()

  // The assistant refreshes its token, then the old refresh token is replayed: the grant ends.
  const refreshed = await suite.refresh(client, tokens.refresh_token)
  expect(refreshed.status).toBe(200)
  secrets.push(refreshed.body.access_token, refreshed.body.refresh_token)
  const replayed = await suite.refresh(client, tokens.refresh_token)
  expect(replayed.status).toBe(400)
  expect(replayed.body.error).toBe('invalid_grant')
  // A second person connects and their assistant revokes its token.
  const other = await flow.connected('metrics-other-5c7e', 'Other Assistant')
  secrets.push('metrics-other-5c7e', other.client.client_id, other.grantId)
  secrets.push(other.tokens.access_token, other.tokens.refresh_token)
  expect((await suite.revoke(other.client, other.tokens.access_token)).status).toBe(200)
  scrapes.tokens = await scrape()

  // Registrations and token requests until each limit answers 429.
  session.registered = 2
  for (;;) {
    const res = await suite.request('POST', '/oauth/register', {
      json: { redirect_uris: ['http://127.0.0.1:20001/cb'], token_endpoint_auth_method: 'none' },
    })
    if (res.status === 429) break
    expect(res.status).toBe(201)
    session.registered++
  }
  for (;;) {
    const res = await suite.refresh(other.client, 'not-a-refresh-token')
    if (res.status === 429) break
    expect(res.body.error).toBe('invalid_grant')
    session.refusedTokenRequests++
  }
  const res = await fetch(suite.connector.metricsUrl!)
  session.text = await res.text()

  scrapes.end = parseExposition(session.text)
}, 60_000)

const tasks = (tool: string, outcome?: string) =>
  outcome === undefined
    ? `service=tasks,tool=${tool}`
    : `outcome=${outcome},service=tasks,tool=${tool}`

describe('the metrics of a session', () => {
  it('connecting: one client registered, one access token issued for a code', () => {
    const { start, connected } = session.scrapes
    expect(moved(start, connected, 'countersign_oauth_clients_registered_total')).toEqual({ '': 1 })
    expect(moved(start, connected, 'countersign_oauth_access_tokens_issued_total')).toEqual({
      'grant_type=authorization_code': 1,
    })
    expect(moved(start, connected, 'countersign_tool_calls_total')).toEqual({})
    // The person's lists, read for the choice of what the grant covers: the lists, and which
    // one is the default.
    expect(moved(start, connected, 'countersign_upstream_calls_total')).toEqual({
      'service=tasks,status=200': 2,
    })
  })

  it('tool calls: each by its tool and outcome, each timed', () => {
    const { connected, tools } = session.scrapes
    expect(moved(connected, tools, 'countersign_tool_calls_total')).toEqual({
      [tasks('list_tasks', 'ok')]: 2,
      [tasks('list_tasks', 'upstream_error')]: 1,
      [tasks('get_task', 'tool_error')]: 1,
      // Asked in the client: the call that asks, then its retry with the answer.
      [tasks('create_task', 'approval_pending')]: 2,
      [tasks('create_task', 'refused')]: 1,
      [tasks('create_task', 'ok')]: 1,
    })
    expect(moved(connected, tools, 'countersign_tool_call_duration_seconds_count')).toEqual({
      [tasks('list_tasks')]: 3,
      [tasks('get_task')]: 1,
      [tasks('create_task')]: 4,
    })
    const seconds = moved(connected, tools, 'countersign_tool_call_duration_seconds_sum')
    expect(seconds[tasks('list_tasks')]).toBeGreaterThan(0)
  })

  it("upstream calls: as many requests as the provider received, by the last answer's status", () => {
    const { connected, tools } = session.scrapes
    const received = (status: number) => session.provider.filter((r) => r.status === status)
    // Every request the provider logged is one the connector counted, and no more.
    expect(moved(connected, tools, 'countersign_upstream_attempts_total')).toEqual({
      'service=tasks': session.provider.length,
    })
    expect(received(503)).toHaveLength(1 + MAX_RETRIES)
    expect(received(401)).toHaveLength(1)
    expect(received(404)).toHaveLength(1)
    expect(moved(connected, tools, 'countersign_upstream_retries_total')).toEqual({
      'service=tasks': MAX_RETRIES,
    })
    // The 401 was followed by a renewal and a 200: that call counts as a 200.
    expect(moved(connected, tools, 'countersign_upstream_calls_total')).toEqual({
      'service=tasks,status=200': received(200).length,
      'service=tasks,status=404': 1,
      'service=tasks,status=503': 1,
    })
    expect(moved(connected, tools, 'countersign_upstream_call_duration_seconds_count')).toEqual({
      'service=tasks': received(200).length + 2,
    })
    expect(moved(connected, tools, 'countersign_upstream_token_refreshes_total')).toEqual({
      'outcome=ok,reason=rejected': 1,
    })
  })

  it('the circuit breakers: closed, as the provider answered between its failures', () => {
    for (const service of SERVICE_NAMES) {
      const states = circuitStates(session.scrapes.tools, service)
      for (const state of CIRCUIT_STATES)
        expect(states[state], `${service} ${state}`).toBe(state === 'closed' ? 1 : 0)
    }
  })

  it('approvals: each asked in the client, one declined and one approved', () => {
    const { connected, tools } = session.scrapes
    expect(moved(connected, tools, 'countersign_approvals_asked_total')).toEqual({
      'channel=elicitation,tool=create_task': 2,
    })
    expect(moved(connected, tools, 'countersign_approvals_decided_total')).toEqual({
      'decision=declined,tool=create_task': 1,
      'decision=approved,tool=create_task': 1,
    })
  })

  it('tokens: a refresh, a replay that revokes, a revocation, a second connection', () => {
    const { tools, tokens } = session.scrapes
    expect(moved(tools, tokens, 'countersign_oauth_access_tokens_issued_total')).toEqual({
      'grant_type=refresh_token': 1,
      'grant_type=authorization_code': 1,
    })
    expect(moved(tools, tokens, 'countersign_oauth_token_errors_total')).toEqual({
      'error=invalid_grant': 1,
    })
    expect(moved(tools, tokens, 'countersign_oauth_grants_revoked_total')).toEqual({
      'by=replay': 1,
      'by=revocation': 1,
    })
    expect(moved(tools, tokens, 'countersign_tool_calls_total')).toEqual({})
  })

  it('rate limits: one refusal counted for each limit reached', () => {
    const { tokens, end } = session.scrapes
    expect(session.registered).toBe(REGISTRATIONS_PER_MINUTE)
    expect(moved(tokens, end, 'countersign_oauth_clients_registered_total')).toEqual({
      '': REGISTRATIONS_PER_MINUTE - 2,
    })
    // Token requests so far: two codes, a refresh and a replay.
    expect(session.refusedTokenRequests).toBe(TOKEN_REQUESTS_PER_MINUTE - 4)
    expect(moved(tokens, end, 'countersign_oauth_token_errors_total')).toEqual({
      'error=invalid_grant': TOKEN_REQUESTS_PER_MINUTE - 4,
    })
    expect(moved(tokens, end, 'countersign_rate_limited_total')).toEqual({
      'limit=registration': 1,
      'limit=token': 1,
    })
  })

  it('every metric has its declared type, and the process metrics are there', () => {
    const { types, samples } = session.scrapes.end
    expect(types.get('countersign_tool_calls_total')).toBe('counter')
    expect(types.get('countersign_tool_call_duration_seconds')).toBe('histogram')
    expect(types.get('countersign_upstream_circuit_state')).toBe('gauge')
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes'])
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true)
  })
})

describe('the labels after that session', () => {
  const tools = Object.values(SERVICE_TOOLS).flatMap((definitions) =>
    definitions.map((d) => d.name),
  )
  const ALLOWED: Record<string, readonly string[]> = {
    service: SERVICE_NAMES,
    tool: [...tools, 'other'],
    outcome: TOOL_OUTCOMES,
    status: [
      ...UPSTREAM_STATUS_CODES.map(String),
      ...UPSTREAM_STATUS_CLASSES,
      ...UPSTREAM_NO_ANSWER,
    ],
    state: CIRCUIT_STATES,
    channel: APPROVAL_CHANNELS,
    decision: APPROVAL_DECISIONS,
    grant_type: GRANT_TYPES,
    error: TOKEN_ERRORS,
    by: GRANT_REVOCATIONS,
    limit: RATE_LIMIT_NAMES,
    quota: QUOTA_LABELS,
    reason: UPSTREAM_REFRESH_REASONS,
    kind: UPSTREAM_FAILURE_KINDS,
    surface: STORE_AWAY_SURFACES,
  }

  it("hold only values of the fixed sets: services, the definitions' tools, outcomes, statuses", () => {
    const ours = session.scrapes.end.samples.filter((s) => s.name.startsWith('countersign_'))
    expect(ours.length).toBeGreaterThan(100)
    for (const { name, labels } of ours) {
      for (const [label, value] of Object.entries(labels)) {
        if (label === 'le') {
          expect(value === '+Inf' || Number.isFinite(Number(value)), `${name} le=${value}`).toBe(
            true,
          )
          continue
        }
        const allowed =
          label === 'outcome' && name.includes('refreshes')
            ? UPSTREAM_REFRESH_OUTCOMES
            : ALLOWED[label]
        expect(allowed, `${name}: the label ${label} is not one of the known ones`).toBeDefined()
        expect(allowed, `${name} ${label}="${value}"`).toContain(value)
      }
    }
  })

  it('hold none of the ids, tokens and names of the session, anywhere in the scrape', () => {
    expect(session.secrets.length).toBeGreaterThan(15)
    for (const secret of session.secrets) {
      expect(secret.length).toBeGreaterThan(5)
      expect(session.text, secret).not.toContain(secret)
    }
  })
})
