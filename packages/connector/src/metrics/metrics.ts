import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { RateLimitName, SharedQuotaName } from '../config/config.js'
import type { ApprovalDecision } from '../approval/gate.js'
import type { GrantRevocation, GrantType, TokenError } from '../auth/token-events.js'
import type { ApprovalChannel, ToolOutcome } from '../mcp/events.js'
import type { QuotaStanding } from '../quotas/fair-shares.js'
import { quotaLabel } from '../quotas/shared-quotas.js'
import type { ServiceName } from '../services/catalog.js'
import type { StoreAwaySurface } from '../store/away-report.js'
import {
  statusLabel,
  type CircuitStateName,
  type UpstreamFailureKind,
  type UpstreamRefreshOutcome,
  type UpstreamRefreshReason,
  type UpstreamStatus,
} from '../upstream/index.js'
import {
  APPROVAL_CHANNELS,
  APPROVAL_DECISIONS,
  CIRCUIT_STATES,
  GRANT_REVOCATIONS,
  GRANT_TYPES,
  QUOTA_LABELS,
  RATE_LIMIT_NAMES,
  STORE_AWAY_SURFACES,
  TOOL_OUTCOMES,
  UPSTREAM_FAILURE_KINDS,
  UPSTREAM_REFRESH_OUTCOMES,
  UPSTREAM_REFRESH_REASONS,
} from './labels.js'
import { StepCosts } from './step-costs.js'

/**
 * What the connector counts, for `/metrics` (docs/operations.md, "Metrics"): one `Metrics` per
 * running connector, with a registry of its own (never prom-client's global one: tests run many
 * connectors in one process). The parts never see it: each tells what it does on its events,
 * and listen.ts turns those into the recordings below.
 *
 * Recording is on the hot path of every tool call, so what a call records is bound once: a tool's
 * `ToolCallMetrics` when it is served, at startup, a service's `UpstreamCallMetrics` when the
 * upstream client is listened to; each holds the prom-client children of its label sets. Labels
 * come only from the fixed sets of labels.ts, the service names and the tool names served.
 * Every metric is described in docs/operations.md ("Metrics").
 */

export interface MetricsOptions {
  /**
   * Also collect the process's own metrics (prom-client's defaults: CPU, memory, heap, event
   * loop lag, GC, handles). They watch the process for as long as it lives, so only a connector
   * that serves its metrics asks for them.
   */
  processMetrics?: boolean
  /** Count each step of every tool call's CPU time and statements (METRICS_TOOL_STEPS=1). */
  toolSteps?: boolean
}

/** Seconds: from a fast read (a few ms) to the upstream deadline (10 s). */
const DURATION_BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** A tool's counters and histogram child, bound once (at startup) and used by every call. */
export class ToolCallMetrics {
  constructor(
    private readonly outcomes: Readonly<Record<ToolOutcome, Counter.Internal>>,
    private readonly duration: Histogram.Internal<string>,
  ) {}

  /** One call of the tool ended in `outcome`; `started` is `performance.now()` when it began. */
  record(outcome: ToolOutcome, started: number): void {
    this.outcomes[outcome].inc()
    this.duration.observe((performance.now() - started) / 1000)
  }
}

/** One service's upstream call counters, bound once; a status's child is bound when first seen. */
export class UpstreamCallMetrics {
  readonly #byStatus = new Map<UpstreamStatus, Counter.Internal>()

  constructor(
    private readonly service: ServiceName,
    private readonly calls: Counter<'service' | 'status'>,
    private readonly failures: Counter<'service' | 'kind'>,
    private readonly attempts: Counter.Internal,
    private readonly retries: Counter.Internal,
    private readonly duration: Histogram.Internal<string>,
  ) {}

  /** One call ended, as the upstream client tells it (upstream/api/call-events.ts). */
  record(
    status: UpstreamStatus,
    attempts: number,
    retries: number,
    started: number,
    failure: UpstreamFailureKind | undefined,
  ): void {
    if (failure !== undefined) this.failures.inc({ service: this.service, kind: failure })
    let child = this.#byStatus.get(status)
    if (child === undefined) {
      child = this.calls.labels(this.service, statusLabel(status))
      this.#byStatus.set(status, child)
    }
    child.inc()
    if (attempts > 0) this.attempts.inc(attempts)
    if (retries > 0) this.retries.inc(retries)
    this.duration.observe((performance.now() - started) / 1000)
  }
}

/** What the circuit breakers say now, read at each scrape. */
export type CircuitStates = () => Iterable<readonly [ServiceName, CircuitStateName]>

export type QuotaStandings = () => Iterable<QuotaStanding>

export class Metrics {
  readonly #registry = new Registry()
  /** The tool names served: the only ones a label may hold. */
  readonly #tools = new Set<string>()
  readonly #circuits: CircuitStates[] = []

  readonly #toolCalls: Counter<'service' | 'tool' | 'outcome'>
  readonly #toolDuration: Histogram<'service' | 'tool'>
  readonly #upstreamCalls: Counter<'service' | 'status'>
  readonly #upstreamFailures: Counter<'service' | 'kind'>
  readonly #upstreamAttempts: Counter<'service'>
  readonly #upstreamRetries: Counter<'service'>
  readonly #upstreamDuration: Histogram<'service'>
  readonly #upstreamRefreshes: Counter<'reason' | 'outcome'>
  readonly #approvalsAsked: Counter<'tool' | 'channel'>
  readonly #approvalsDecided: Counter<'tool' | 'decision'>
  readonly #tokensIssued: Counter<'grant_type'>
  readonly #tokenErrors: Counter<'error'>
  readonly #grantsRevoked: Counter<'by'>
  readonly #clientsRegistered: Counter
  readonly #rateLimited: Counter<'limit'>
  readonly #quotaRefusals: Counter<'quota'>
  readonly #quotas: QuotaStandings[] = []
  readonly #storeStatements: Counter
  readonly #storeAway: Counter<'surface'>
  readonly #storeConnectionErrors: Counter
  readonly #storeUp: Gauge
  #statementsSent = 0
  /** What each step of a tool call costs, when counted (METRICS_TOOL_STEPS=1); else undefined. */
  readonly stepCosts: StepCosts | undefined

  constructor(options: MetricsOptions = {}) {
    const registers = [this.#registry]
    if (options.toolSteps)
      this.stepCosts = new StepCosts(this.#registry, () => this.#statementsSent)
    if (options.processMetrics) collectDefaultMetrics({ register: this.#registry })

    this.#toolCalls = new Counter({
      name: 'countersign_tool_calls_total',
      help: 'MCP tool calls, by service, tool and how they ended (outcome).',
      labelNames: ['service', 'tool', 'outcome'],
      registers,
    })
    this.#toolDuration = new Histogram({
      name: 'countersign_tool_call_duration_seconds',
      help: 'How long MCP tool calls took in the connector, upstream calls included, by service and tool.',
      labelNames: ['service', 'tool'],
      buckets: DURATION_BUCKETS,
      registers,
    })
    this.#upstreamCalls = new Counter({
      name: 'countersign_upstream_calls_total',
      help: "Calls to the provider's APIs, by service and the HTTP status of the last answer (or timeout, network, circuit_open, no_token).",
      labelNames: ['service', 'status'],
      registers,
    })
    this.#upstreamFailures = new Counter({
      name: 'countersign_upstream_failures_total',
      help: "Calls to the provider's APIs that failed, by service and what they ended in: the provider refusing the arguments, a limit on the rate, a quota used up, an API not enabled, the provider unavailable (5xx, timeout, network, calls paused), a change's answer lost, or an answer not understood.",
      labelNames: ['service', 'kind'],
      registers,
    })
    this.#upstreamAttempts = new Counter({
      name: 'countersign_upstream_attempts_total',
      help: "HTTP requests sent to the provider's APIs (first tries, retries, and tries again after a 401), by service.",
      labelNames: ['service'],
      registers,
    })
    this.#upstreamRetries = new Counter({
      name: 'countersign_upstream_retries_total',
      help: "Requests to the provider's APIs sent again after a 429, a 5xx or a failed connection, by service.",
      labelNames: ['service'],
      registers,
    })
    this.#upstreamDuration = new Histogram({
      name: 'countersign_upstream_call_duration_seconds',
      help: "How long calls to the provider's APIs took, retries and backoff included, by service.",
      labelNames: ['service'],
      buckets: DURATION_BUCKETS,
      registers,
    })
    const circuits = this.#circuits
    new Gauge({
      name: 'countersign_upstream_circuit_state',
      help: "The circuit breaker in front of each service's provider origin: 1 for its current state, 0 for the others.",
      labelNames: ['service', 'state'],
      registers,
      collect() {
        for (const read of circuits) {
          for (const [service, current] of read()) {
            for (const state of CIRCUIT_STATES) this.set({ service, state }, +(state === current))
          }
        }
      },
    })
    this.#upstreamRefreshes = new Counter({
      name: 'countersign_upstream_token_refreshes_total',
      help: 'Renewals of upstream access tokens at the provider, by why (expiry, rejected) and how they ended.',
      labelNames: ['reason', 'outcome'],
      registers,
    })
    this.#approvalsAsked = new Counter({
      name: 'countersign_approvals_asked_total',
      help: 'Changes the person was asked to approve, by tool and how they were asked (elicitation, url_elicitation, link).',
      labelNames: ['tool', 'channel'],
      registers,
    })
    this.#approvalsDecided = new Counter({
      name: 'countersign_approvals_decided_total',
      help: 'Approvals decided (approved, declined) or run out (expired), by tool.',
      labelNames: ['tool', 'decision'],
      registers,
    })
    this.#tokensIssued = new Counter({
      name: 'countersign_oauth_access_tokens_issued_total',
      help: 'Access tokens issued by the token endpoint, by grant type (refresh_token: a refresh).',
      labelNames: ['grant_type'],
      registers,
    })
    this.#tokenErrors = new Counter({
      name: 'countersign_oauth_token_errors_total',
      help: 'Requests the token endpoint refused, by OAuth error code.',
      labelNames: ['error'],
      registers,
    })
    this.#grantsRevoked = new Counter({
      name: 'countersign_oauth_grants_revoked_total',
      help: 'Grants revoked by the authorization server: by the client (revocation) or after a code or refresh token was used twice (replay).',
      labelNames: ['by'],
      registers,
    })
    this.#clientsRegistered = new Counter({
      name: 'countersign_oauth_clients_registered_total',
      help: 'Clients registered through dynamic client registration.',
      registers,
    })
    this.#rateLimited = new Counter({
      name: 'countersign_rate_limited_total',
      help: "Requests refused by the connector's own rate limits, by limit (registration, token, tool_call).",
      labelNames: ['limit'],
      registers,
    })

    this.#quotaRefusals = new Counter({
      name: 'countersign_quota_share_refusals_total',
      help: "Tool calls refused before anything was sent: the person was beyond their fair share of a provider project's daily quota, and the project had no room left. By quota.",
      labelNames: ['quota'],
      registers,
    })
    const quotas = this.#quotas
    const standing = (name: string, help: string, read: (quota: QuotaStanding) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['quota'],
        registers,
        collect() {
          for (const watch of quotas)
            for (const quota of watch()) this.set({ quota: quotaLabel(quota.quota) }, read(quota))
        },
      })
    standing(
      'countersign_quota_limit',
      "A provider project's daily quota, as the operator states it (QUOTA_*), by quota.",
      (quota) => quota.limit,
    )
    standing(
      'countersign_quota_spent',
      "What the project has spent today (Pacific) of each daily quota, everyone's, as this replica last read it.",
      (quota) => quota.spent,
    )
    standing(
      'countersign_quota_people',
      'People holding a grant of the service a quota is shared among.',
      (quota) => quota.people,
    )
    standing(
      'countersign_quota_share',
      "Each person's fair share of a quota today: the quota divided by the people.",
      (quota) => quota.share,
    )
    this.#storeStatements = new Counter({
      name: 'countersign_store_statements_total',
      help: 'Statements sent to PostgreSQL: queries on the pool or on a pooled client, BEGIN and COMMIT included (0 on SQLite).',
      registers,
    })
    this.#storeAway = new Counter({
      name: 'countersign_store_unreachable_total',
      help: 'Requests answered 503 because the database could not be reached, by where they came (mcp, oauth, page).',
      labelNames: ['surface'],
      registers,
    })
    this.#storeConnectionErrors = new Counter({
      name: 'countersign_store_connection_errors_total',
      help: 'Database connections that failed or were ended by the server (pooled or listening); each is replaced.',
      registers,
    })
    this.#storeUp = new Gauge({
      name: 'countersign_store_up',
      help: '1 when the last readiness check reached the database, else 0.',
      registers,
    })
    this.#storeUp.set(1)
    for (const surface of STORE_AWAY_SURFACES) this.#storeAway.inc({ surface }, 0)

    // Known from the start: every series of a small fixed set is there at 0.
    for (const quota of QUOTA_LABELS) this.#quotaRefusals.inc({ quota }, 0)
    for (const limit of RATE_LIMIT_NAMES) this.#rateLimited.inc({ limit }, 0)
    for (const grant_type of GRANT_TYPES) this.#tokensIssued.inc({ grant_type }, 0)
    for (const by of GRANT_REVOCATIONS) this.#grantsRevoked.inc({ by }, 0)
    for (const reason of UPSTREAM_REFRESH_REASONS)
      for (const outcome of UPSTREAM_REFRESH_OUTCOMES)
        this.#upstreamRefreshes.inc({ reason, outcome }, 0)
  }

  /** The metrics in the Prometheus text format, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.#registry.contentType, text: await this.#registry.metrics() }
  }

  /**
   * The counters of one tool, named by its definition (at startup, never from a request). With
   * `approval`, its approvals' series are made too.
   */
  toolCalls(service: ServiceName, tool: string, { approval = false } = {}): ToolCallMetrics {
    this.#tools.add(tool)
    const outcomes = {} as Record<ToolOutcome, Counter.Internal>
    for (const outcome of TOOL_OUTCOMES) {
      this.#toolCalls.inc({ service, tool, outcome }, 0)
      outcomes[outcome] = this.#toolCalls.labels(service, tool, outcome)
    }
    if (approval) {
      for (const channel of APPROVAL_CHANNELS) this.#approvalsAsked.inc({ tool, channel }, 0)
      for (const decision of APPROVAL_DECISIONS) this.#approvalsDecided.inc({ tool, decision }, 0)
    }
    this.#toolDuration.zero({ service, tool })
    return new ToolCallMetrics(outcomes, this.#toolDuration.labels(service, tool))
  }

  /** The counters of one service's calls to the provider. */
  upstreamCalls(service: ServiceName): UpstreamCallMetrics {
    this.#upstreamAttempts.inc({ service }, 0)
    this.#upstreamRetries.inc({ service }, 0)
    this.#upstreamDuration.zero({ service })
    for (const kind of UPSTREAM_FAILURE_KINDS) this.#upstreamFailures.inc({ service, kind }, 0)
    return new UpstreamCallMetrics(
      service,
      this.#upstreamCalls,
      this.#upstreamFailures,
      this.#upstreamAttempts.labels(service),
      this.#upstreamRetries.labels(service),
      this.#upstreamDuration.labels(service),
    )
  }

  /** Reports the circuit breakers' states at each scrape. */
  watchCircuits(read: CircuitStates): void {
    this.#circuits.push(read)
  }

  upstreamRefresh(reason: UpstreamRefreshReason, outcome: UpstreamRefreshOutcome): void {
    this.#upstreamRefreshes.inc({ reason, outcome })
  }

  approvalAsked(tool: string, channel: ApprovalChannel): void {
    this.#approvalsAsked.inc({ tool: this.#tool(tool), channel })
  }

  /** `tool` as the approval was stored: a name that is not a served tool counts as `other`. */
  approvalDecided(tool: string, decision: ApprovalDecision): void {
    this.#approvalsDecided.inc({ tool: this.#tool(tool), decision })
  }

  tokenIssued(grantType: GrantType): void {
    this.#tokensIssued.inc({ grant_type: grantType })
  }

  tokenRefused(error: TokenError): void {
    this.#tokenErrors.inc({ error })
  }

  grantRevoked(by: GrantRevocation): void {
    this.#grantsRevoked.inc({ by })
  }

  clientRegistered(): void {
    this.#clientsRegistered.inc()
  }

  /**
   * A request refused by one of the connector's rate limits. For `tool_call`, the tool call's own
   * outcome is `rate_limited` too (ToolCallMetrics.record), when the refusal is a tool result.
   */
  rateLimited(limit: RateLimitName): void {
    this.#rateLimited.inc({ limit })
  }

  /** Reports how the shared quotas stand at each scrape. */
  watchQuotas(read: QuotaStandings): void {
    this.#quotas.push(read)
  }

  /** A call refused beyond a fair share. */
  quotaShareRefused(quota: SharedQuotaName): void {
    this.#quotaRefusals.inc({ quota: quotaLabel(quota) })
  }

  /** One statement sent to PostgreSQL: the store's pool tells of each (openStore's `onStatement`). */
  storeStatement(): void {
    this.#statementsSent++
    this.#storeStatements.inc()
  }

  /** A request met the database away and was answered 503. */
  storeAway(surface: StoreAwaySurface): void {
    this.#storeAway.inc({ surface })
  }

  /** A database connection failed or was ended; the pool, or the channels, replace it. */
  storeConnectionError(): void {
    this.#storeConnectionErrors.inc()
  }

  /** What the last readiness check, or a request that met the database away, found. */
  storeReachable(up: boolean): void {
    this.#storeUp.set(up ? 1 : 0)
  }

  #tool(name: string): string {
    return this.#tools.has(name) ? name : 'other'
  }
}
