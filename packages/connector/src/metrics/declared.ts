import { LABELS, type LabelSource } from './labels.js'

/**
 * Every metric the connector serves, declared once: its name, type and labels (each with where
 * its values come from: labels.ts), and its words. metrics.ts and step-costs.ts build the
 * prom-client objects from these; `npm run docs:metrics` writes docs/operations.md's table of
 * them ("What is counted"), and a test fails when the page is stale. `help` is the scrape's HELP
 * line and the first words of the docs' row; `details`, what only the docs say.
 */

export interface MetricDeclaration {
  name: string
  type: 'counter' | 'gauge' | 'histogram'
  /** Its labels, in the order of the series' label names. */
  labels: Readonly<Record<string, LabelSource>>
  help: string
  details?: string
  /** A histogram's buckets, in seconds. */
  buckets?: readonly number[]
}

/** Seconds: from a fast read (a few ms) to the upstream deadline (10 s). */
const DURATION_BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const STEPS_ONLY = 'METRICS_TOOL_STEPS=1'

export const METRICS = {
  toolCalls: {
    name: 'countersign_tool_calls_total',
    type: 'counter',
    labels: { service: LABELS.service, tool: LABELS.tool, outcome: LABELS.toolOutcome },
    help: 'MCP tools/call requests, by service, tool and how they ended (outcome).',
    details:
      'A change asked in the client counts twice: the call that asks (`approval_pending`), and its retry with the answer.',
  },
  toolDuration: {
    name: 'countersign_tool_call_duration_seconds',
    type: 'histogram',
    labels: { service: LABELS.service, tool: LABELS.tool },
    help: 'How long MCP tool calls took in the connector, upstream calls included, by service and tool.',
    buckets: DURATION_BUCKETS,
  },
  upstreamCalls: {
    name: 'countersign_upstream_calls_total',
    type: 'counter',
    labels: { service: LABELS.service, status: LABELS.upstreamStatus },
    help: "Calls to the provider's APIs, by service and the HTTP status of the last answer, or why there was none (status).",
    details: "The tools' calls, and the reads that describe a change.",
  },
  upstreamFailures: {
    name: 'countersign_upstream_failures_total',
    type: 'counter',
    labels: { service: LABELS.service, kind: LABELS.failureKind },
    help: "Calls to the provider's APIs that failed, by service and what they ended in (kind).",
  },
  upstreamAttempts: {
    name: 'countersign_upstream_attempts_total',
    type: 'counter',
    labels: { service: LABELS.service },
    help: "HTTP requests sent to the provider's APIs, by service: first tries, retries, and the one more try after a 401 and a token renewal.",
  },
  upstreamRetries: {
    name: 'countersign_upstream_retries_total',
    type: 'counter',
    labels: { service: LABELS.service },
    help: "Requests to the provider's APIs sent again after a 429, a 5xx or a failed connection (reads, and refusals of changes), within the call's deadline, by service.",
  },
  upstreamDuration: {
    name: 'countersign_upstream_call_duration_seconds',
    type: 'histogram',
    labels: { service: LABELS.service },
    help: "How long calls to the provider's APIs took, retries and backoff included, by service.",
    buckets: DURATION_BUCKETS,
  },
  circuitState: {
    name: 'countersign_upstream_circuit_state',
    type: 'gauge',
    labels: { service: LABELS.service, state: LABELS.circuitState },
    help: "The circuit breaker in front of each service's provider origin: 1 for its current state, 0 for the others.",
    details: 'Services on one origin share a breaker.',
  },
  upstreamRefreshes: {
    name: 'countersign_upstream_token_refreshes_total',
    type: 'counter',
    labels: { reason: LABELS.refreshReason, outcome: LABELS.refreshOutcome },
    help: "Renewals of upstream access tokens at the provider's token endpoint, by why (reason) and how they ended (outcome).",
    details: 'A renewal another replica is making is waited for, not counted again.',
  },
  approvalsAsked: {
    name: 'countersign_approvals_asked_total',
    type: 'counter',
    labels: { tool: LABELS.tool, channel: LABELS.approvalChannel },
    help: 'Approvals asked of the person, by tool and how they were asked (channel).',
  },
  approvalsDecided: {
    name: 'countersign_approvals_decided_total',
    type: 'counter',
    labels: { tool: LABELS.tool, decision: LABELS.approvalDecision },
    help: 'Approvals decided or run out, by tool and what became of them (decision).',
    details: 'Approvals of a grant that ends are erased undecided.',
  },
  tokensIssued: {
    name: 'countersign_oauth_access_tokens_issued_total',
    type: 'counter',
    labels: { grant_type: LABELS.grantType },
    help: 'Access tokens issued by the token endpoint, by grant type.',
  },
  tokenErrors: {
    name: 'countersign_oauth_token_errors_total',
    type: 'counter',
    labels: { error: LABELS.tokenError },
    help: 'Token requests the token endpoint refused, by OAuth error code.',
  },
  grantsRevoked: {
    name: 'countersign_oauth_grants_revoked_total',
    type: 'counter',
    labels: { by: LABELS.grantRevocation },
    help: 'Grants revoked by the authorization server, by what revoked them.',
  },
  clientsRegistered: {
    name: 'countersign_oauth_clients_registered_total',
    type: 'counter',
    labels: {},
    help: 'Clients registered through dynamic client registration.',
  },
  rateLimited: {
    name: 'countersign_rate_limited_total',
    type: 'counter',
    labels: { limit: LABELS.rateLimit },
    help: "Requests refused by the connector's own rate limits, by limit.",
  },
  quotaLimit: {
    name: 'countersign_quota_limit',
    type: 'gauge',
    labels: { quota: LABELS.quota },
    help: "A provider project's daily quota, as the operator states it (QUOTA_*), by quota.",
  },
  quotaSpent: {
    name: 'countersign_quota_spent',
    type: 'gauge',
    labels: { quota: LABELS.quota },
    help: "What the project has spent today (Pacific) of each daily quota, everyone's, as this replica last read it.",
    details: 'Shown once the replica has counted a call of that quota.',
  },
  quotaPeople: {
    name: 'countersign_quota_people',
    type: 'gauge',
    labels: { quota: LABELS.quota },
    help: 'People holding a grant of the service a quota is shared among.',
  },
  quotaShare: {
    name: 'countersign_quota_share',
    type: 'gauge',
    labels: { quota: LABELS.quota },
    help: "Each person's fair share of a quota today: the quota divided by the people.",
  },
  quotaRefusals: {
    name: 'countersign_quota_share_refusals_total',
    type: 'counter',
    labels: { quota: LABELS.quota },
    help: "Tool calls refused before anything was sent: the person was beyond their fair share of a provider project's daily quota, and the project had no room left. By quota.",
  },
  storeUp: {
    name: 'countersign_store_up',
    type: 'gauge',
    labels: {},
    help: '1 while the database answers; 0 once a readiness check (/readyz) or a request found it unreachable, until a readiness check reaches it again.',
    details: 'Always 1 on SQLite.',
  },
  storeAway: {
    name: 'countersign_store_unreachable_total',
    type: 'counter',
    labels: { surface: LABELS.storeSurface },
    help: 'Requests answered 503 because the database could not be reached, by where they came (surface).',
    details: 'See [When the database goes away](#when-the-database-goes-away).',
  },
  storeConnectionErrors: {
    name: 'countersign_store_connection_errors_total',
    type: 'counter',
    labels: {},
    help: 'Database connections that failed or were ended by the server (pooled or listening); each is replaced.',
  },
  storeStatements: {
    name: 'countersign_store_statements_total',
    type: 'counter',
    labels: {},
    help: 'Statements sent to PostgreSQL: queries on the pool or on a client taken from it, not on the LISTEN connection (0 on SQLite).',
    details:
      "They are kysely's queries, `BEGIN` and `COMMIT` of its transactions, the prepared reads, the rate limiters' counters and `NOTIFY`. Divided by `countersign_tool_calls_total`, the database's work per tool call.",
  },
  stepCpu: {
    name: 'countersign_tool_step_cpu_seconds_total',
    type: 'counter',
    labels: { step: LABELS.step },
    help: `CPU time of each step of the tool calls, its own, without the steps it handed on to (${STEPS_ONLY}).`,
    details:
      "The process's CPU clock, which moves by the microsecond. Read at one call at a time, each step's cost; under load, calls running meanwhile add to the steps that waited.",
  },
  stepMainThread: {
    name: 'countersign_tool_step_main_thread_cpu_seconds_total',
    type: 'counter',
    labels: { step: LABELS.step },
    help: `The main thread's part of each step's CPU time (${STEPS_ONLY}, on Node 24 only).`,
    details:
      "The rest is the collector's and the compiler's threads, which work while a step waits. On Linux this clock moves by scheduler ticks, so read it over many calls.",
  },
  stepStatements: {
    name: 'countersign_tool_step_statements_total',
    type: 'counter',
    labels: { step: LABELS.step },
    help: `Statements each step of the tool calls sent to PostgreSQL, its own (${STEPS_ONLY}).`,
  },
  stepRuns: {
    name: 'countersign_tool_step_runs_total',
    type: 'counter',
    labels: { step: LABELS.step },
    help: `How many tool calls reached each step (${STEPS_ONLY}).`,
    details: 'A call refused at one step runs none after it.',
  },
} as const satisfies Readonly<Record<string, MetricDeclaration>>

/** prom-client's own metrics of the process, collected by a connector that serves its metrics. */
export const PROCESS_METRICS = {
  names: ['process_*', 'nodejs_*'],
  help: "The process's own metrics (prom-client's defaults): CPU, resident memory, heap, event loop lag, garbage collection, open handles and file descriptors, Node.js version.",
} as const

/** The label names of a declaration, as prom-client's types want them. */
export type LabelNames<Declared extends MetricDeclaration> = keyof Declared['labels'] & string

/** The label names of a declaration, in order. */
export const labelNames = <Declared extends MetricDeclaration>(declared: Declared) =>
  Object.keys(declared.labels) as LabelNames<Declared>[]
