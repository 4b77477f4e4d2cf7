import type { EventEmitter } from 'node:events'
import type { McpServer, Server } from '@modelcontextprotocol/server'
import type { Logger } from 'pino'
import type { AuditTrail } from '../approval/audit.js'
import type { Approvals } from '../approval/gate.js'
import type { ConnectorConfig } from '../config/config.js'
import type { PushNotifier } from '../push/notifier.js'
import type { FairShares } from '../quotas/fair-shares.js'
import type { ServiceName } from '../services/catalog.js'
import type { ToolDefinition } from '../services/definition.js'
import type { ProviderProfile } from '../services/profiles/index.js'
import type { StoreAwayReport } from '../store/away-report.js'
import type { Store } from '../store/open.js'
import type { RateLimiter } from '../store/rate-limits.js'
import type { UpstreamApi } from '../upstream/index.js'
import type { Vault } from '../vault/vault.js'
import type { McpAuthenticator } from './bearer.js'
import type { McpEvents } from './events.js'
import type { StepMeter } from './steps/compose.js'

/**
 * What the MCP endpoints (endpoint.ts) read of the connector: fields of its parts
 * (connector/parts.ts), which are passed whole.
 */
export interface McpParts {
  /** `approvalWaitSeconds`: how long a call whose client cannot ask waits for the person. */
  config: Pick<ConnectorConfig, 'publicUrl' | 'approvalWaitSeconds'>
  authenticator: McpAuthenticator
  /** The provider's APIs, which the tools call, and where each call goes there. */
  api: Pick<UpstreamApi, 'call'>
  profile: ProviderProfile
  /** The approval gate every change goes through, and the trail of changes sent. */
  approvals: Approvals
  audit: Pick<AuditTrail, 'record'>
  /** Keys the state handed to clients with a question, and 2025-11-25 clients' sessions. */
  vault: Vault
  /**
   * Its channel carries a 2025-11-25 client's answer to the replica that asked
   * (legacy-questions.ts); on PostgreSQL the answer also waits there for another replica.
   */
  store: Store
  /** Tells the person's devices of a change whose client cannot ask (device-wait.ts). */
  push: { notifier: Pick<PushNotifier, 'tell'> }
  /** The limit on tool calls per grant (tools.ts). */
  limits: { toolCall: RateLimiter }
  /** Fair shares of the provider project's daily quotas (src/quotas). */
  shares: Pick<FairShares, 'admit'>
  /** Where tool calls and approvals asked are told (events.ts), for the metrics. */
  toolEvents: EventEmitter<McpEvents>
  /** What measures each step of a call, when the metrics count steps. */
  metrics: { readonly stepCosts?: StepMeter }
  /** Where a request that met the database away is told and said (store/away-report.ts). */
  storeAway: Pick<StoreAwayReport, 'request'>
  log: Logger
}

/** What a test may change of the endpoints. */
export interface McpEndpointOptions {
  /** How long a question asked in a 2025-11-25 client waits (ANSWER_WAIT_MS otherwise). */
  answerWaitMs?: number
  /** Each service's tool definitions; SERVICE_TOOLS unless told. */
  tools?: Partial<Record<ServiceName, readonly ToolDefinition[]>>
  /** Replaces the MCP server of every request. */
  serverFor?: (service: ServiceName) => McpServer | Server
  version?: string
}
