import type { EventEmitter } from 'node:events'
import type { KoaContextWithOIDC, Provider } from 'oidc-provider'
import type { Approvals } from '../approval/gate.js'
import { grantTypeOf, revokedBy, tokenErrorOf } from '../auth/token-events.js'
import type { McpEvents } from '../mcp/events.js'
import type { FairShares } from '../quotas/fair-shares.js'
import type { ServiceName } from '../services/catalog.js'
import type { ToolDefinition } from '../services/definition.js'
import type { StoreAwayReport } from '../store/away-report.js'
import type { CircuitStateName, Upstream, UpstreamApi } from '../upstream/index.js'
import type { Metrics, ToolCallMetrics, UpstreamCallMetrics } from './metrics.js'

/**
 * The metrics as the listener of the parts that count: each part tells what it does on its own
 * events, in its own words (the values of labels.ts), and these turn them into `Metrics`'
 * recordings. A listener runs synchronously, inside the part's `emit`: what it does, the part's
 * call waits for, so it only counts. What is read rather than told (the breakers' states, the
 * quotas' standings) is read at each scrape.
 */

/** Each call to the provider, by its service's counters (bound once), and the breakers' states. */
export function countUpstreamCalls(metrics: Metrics, api: UpstreamApi): void {
  const bound = {} as Record<ServiceName, UpstreamCallMetrics>
  for (const service of api.services) bound[service] = metrics.upstreamCalls(service)
  api.events.on('call', (service, status, attempts, retries, started, failure) =>
    bound[service]?.record(status, attempts, retries, started, failure),
  )
  metrics.watchCircuits(
    () => Object.entries(api.circuitStates()) as [ServiceName, CircuitStateName][],
  )
}

/** Each renewal of an upstream token at the provider. */
export function countUpstreamRefreshes(metrics: Metrics, upstream: Upstream): void {
  upstream.events.on('refresh', (reason, outcome) => metrics.upstreamRefresh(reason, outcome))
}

/**
 * Each tool served (its counters bound then, at startup), each call's end, and each approval
 * asked; `events` is the MCP layer's, handed to its routes.
 */
export function countToolCalls(metrics: Metrics, events: EventEmitter<McpEvents>): void {
  const bound = new Map<ToolDefinition, ToolCallMetrics>()
  events.on('served', (definition) =>
    bound.set(
      definition,
      metrics.toolCalls(definition.service, definition.name, {
        approval: definition.approval !== undefined,
      }),
    ),
  )
  events.on('called', (definition, outcome, started) =>
    bound.get(definition)?.record(outcome, started),
  )
  events.on('asked', (tool, channel) => metrics.approvalAsked(tool, channel))
}

/** Each approval decided or run out. */
export function countApprovals(metrics: Metrics, approvals: Approvals): void {
  approvals.events.on('decided', (tool, decision) => metrics.approvalDecided(tool, decision))
}

/** Each call refused beyond a fair share, and how the quotas stand at each scrape. */
export function countFairShares(metrics: Metrics, shares: FairShares): void {
  shares.events.on('refused', (quota) => metrics.quotaShareRefused(quota))
  metrics.watchQuotas(() => shares.standings())
}

/** Tokens issued, refused and revoked, and clients registered: oidc-provider's own events. */
export function countTokens(metrics: Metrics, provider: Provider): void {
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => metrics.tokenIssued(grantTypeOf(ctx)))
  provider.on('grant.error', (_ctx: KoaContextWithOIDC, error: { error?: unknown }) =>
    metrics.tokenRefused(tokenErrorOf(error)),
  )
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC) => metrics.grantRevoked(revokedBy(ctx)))
  provider.on('registration_create.success', () => metrics.clientRegistered())
}

/** Each request that met the database away (which then reads as down), each connection lost. */
export function countStoreAway(metrics: Metrics, report: StoreAwayReport): void {
  report.events.on('request', (surface) => {
    metrics.storeAway(surface)
    metrics.storeReachable(false)
  })
  report.events.on('connectionLost', () => metrics.storeConnectionError())
}
