import { collectDefaultMetrics, Registry, type Counter, type Histogram } from 'prom-client'
import type { SharedQuotaName } from '../config/config.js'
import type { ApprovalDecision } from '../approval/gate.js'
import type { GrantRevocation, GrantType, TokenError } from '../auth/token-events.js'
import type { ApprovalChannel, ToolOutcome } from '../mcp/events.js'
import type { QuotaStanding } from '../quotas/fair-shares.js'
import { quotaLabel } from '../quotas/shared-quotas.js'
import type { ServiceName } from '../services/catalog.js'
import type { RateLimitName } from '../config/config.js'
import type { StoreAwaySurface } from '../store/away-report.js'
import {
  statusLabel,
  type CircuitStateName,
  type UpstreamFailureKind,
  type UpstreamRefreshOutcome,
  type UpstreamRefreshReason,
  type UpstreamStatus,
} from '../upstream/index.js'
import { counterOf, gaugeOf, histogramOf } from './built.js'
import { METRICS, type MetricDeclaration } from './declared.js'
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
 * connectors in one process), its metrics built from their declarations (declared.ts). The parts
 * never see it: each tells what it does on its events, and listen.ts turns those into the
 * recordings below.
 *
 * Recording is on the hot path of every tool call, so what a call records is bound once: a tool's
 * `ToolCallMetrics` when it is served, at startup, a service's `UpstreamCallMetrics` when the
 * upstream client is listened to; each holds the prom-client children of its label sets. Labels
 * come only from the fixed sets of labels.ts, the service names and the tool names served.
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
  readonly #quotas: QuotaStandings[] = []

  readonly #toolCalls = counterOf(METRICS.toolCalls, this.#registry)
  readonly #toolDuration = histogramOf(METRICS.toolDuration, this.#registry)
  readonly #upstreamCalls = counterOf(METRICS.upstreamCalls, this.#registry)
  readonly #upstreamFailures = counterOf(METRICS.upstreamFailures, this.#registry)
  readonly #upstreamAttempts = counterOf(METRICS.upstreamAttempts, this.#registry)
  readonly #upstreamRetries = counterOf(METRICS.upstreamRetries, this.#registry)
  readonly #upstreamDuration = histogramOf(METRICS.upstreamDuration, this.#registry)
  readonly #upstreamRefreshes = counterOf(METRICS.upstreamRefreshes, this.#registry)
  readonly #approvalsAsked = counterOf(METRICS.approvalsAsked, this.#registry)
  readonly #approvalsDecided = counterOf(METRICS.approvalsDecided, this.#registry)
  readonly #tokensIssued = counterOf(METRICS.tokensIssued, this.#registry)
  readonly #tokenErrors = counterOf(METRICS.tokenErrors, this.#registry)
  readonly #grantsRevoked = counterOf(METRICS.grantsRevoked, this.#registry)
  readonly #clientsRegistered = counterOf(METRICS.clientsRegistered, this.#registry)
  readonly #rateLimited = counterOf(METRICS.rateLimited, this.#registry)
  readonly #quotaRefusals = counterOf(METRICS.quotaRefusals, this.#registry)
  readonly #storeStatements = counterOf(METRICS.storeStatements, this.#registry)
  readonly #storeAway = counterOf(METRICS.storeAway, this.#registry)
  readonly #storeConnectionErrors = counterOf(METRICS.storeConnectionErrors, this.#registry)
  readonly #storeUp = gaugeOf(METRICS.storeUp, this.#registry)
  #statementsSent = 0
  /** What each step of a tool call costs, when counted (METRICS_TOOL_STEPS=1); else undefined. */
  readonly stepCosts: StepCosts | undefined

  constructor(options: MetricsOptions = {}) {
    const registry = this.#registry
    if (options.toolSteps) this.stepCosts = new StepCosts(registry, () => this.#statementsSent)
    if (options.processMetrics) collectDefaultMetrics({ register: registry })

    const circuits = this.#circuits
    gaugeOf(METRICS.circuitState, registry, function () {
      for (const read of circuits) {
        for (const [service, current] of read()) {
          for (const state of CIRCUIT_STATES) this.set({ service, state }, +(state === current))
        }
      }
    })
    const quotas = this.#quotas
    const standing = (declared: MetricDeclaration, read: (quota: QuotaStanding) => number) =>
      gaugeOf(declared, registry, function () {
        for (const watch of quotas)
          for (const quota of watch()) this.set({ quota: quotaLabel(quota.quota) }, read(quota))
      })
    standing(METRICS.quotaLimit, (quota) => quota.limit)
    standing(METRICS.quotaSpent, (quota) => quota.spent)
    standing(METRICS.quotaPeople, (quota) => quota.people)
    standing(METRICS.quotaShare, (quota) => quota.share)

    this.#storeUp.set(1)
    // Known from the start: every series of a small fixed set is there at 0.
    for (const surface of STORE_AWAY_SURFACES) this.#storeAway.inc({ surface }, 0)
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
