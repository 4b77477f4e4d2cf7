import type { HttpBindings } from '@hono/node-server'
import type { SandboxDb } from '../db/open.js'
import type { SandboxConfig } from './config.js'
import type { Dialect } from './dialect.js'
import type { EnabledApis } from './enabled-apis.js'
import type { FaultBook } from './faults.js'
import type { PropertyQuotas } from './property-quotas.js'
import type { QuotaLimits } from './quota-limits.js'
import type { RegisteredClients } from './registered-clients.js'
import type { RequestQuotas } from './request-quotas.js'
import type { RequestLog } from './request-log.js'

/**
 * Everything a request handler of the sandbox can reach, at either origin: one instance per
 * running sandbox, made by server/start.ts, emptied by `POST /_sandbox/reset`.
 */
export interface SandboxState {
  db: SandboxDb
  config: SandboxConfig
  faults: FaultBook
  requests: RequestLog
  /** The limits of Google's quotas in force (`POST /_sandbox/quotas`). */
  limits: QuotaLimits
  /** The analytics API's quota counters (`returnPropertyQuota`), per property. */
  quotas: PropertyQuotas
  /** The requests counted against Google's quotas per minute and per day (request-quotas.ts). */
  requestQuotas: RequestQuotas
  /** Google's four APIs, each enabled or not in the caller's project (`POST /_sandbox/apis`). */
  apis: EnabledApis
  /** The clients the token endpoints check, once any is registered (`POST /_sandbox/clients`). */
  clients: RegisteredClients
}

/** What a handler's context holds: the state, and the dialect of the origin that answers. */
export type SandboxEnv = {
  Bindings: Partial<HttpBindings>
  Variables: { sandbox: SandboxState; dialect: Dialect }
}
